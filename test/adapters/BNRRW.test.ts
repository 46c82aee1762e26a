import { describe, expect, it } from "vitest";

import bnrrw from "../../adapters/BNRRW.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const parse = (body: Buffer | string) =>
  bnrrw.parse(Buffer.from(body), {
    url: "https://fxrates.bnr.rw/currency_history/?currency_name=USD&end_date=2026-05-22&start_date=2026-05-19",
  });

describe("BNRRW adapter", () => {
  it("takes average_rate, drops thousands commas, reads DD-Mon-YY dates and skips empty figures", async () => {
    expect(await recordsOf(parse(fixture("BNRRW/currency_history.json")))).toEqual([
      { effectiveDate: "2026-05-19", currency: "USD", rate: "1463.065" },
      { effectiveDate: "2024-01-02", currency: "USD", rate: "1253.60" },
      { effectiveDate: "2026-05-21", currency: "USD", rate: "1463.2500" },
      { effectiveDate: "1999-12-31", currency: "USD", rate: "582.10" },
    ]);
  });

  itRefusesWhole("BNRRW", parse, [
    ["a 502 page", "<html><head><title>502 Bad Gateway</title></head></html>"],
    ["truncated JSON", '[{"currency_name":"USD","average_rate":"1463.0'],
    ["another bank's body", '{"success":true,"data":[{"RATE_DATE":"2026-05-20","USD":"3,576.17"}]}'],
  ]);

  const row = (name: string, rate: string, date: string) =>
    `{"currency_name":"${name}","buying_rate":"","average_rate":"${rate}","selling_rate":"","post_date":"${date}"}`;
  it.each([
    ["a date in another syntax", row("USD", "1463.1", "2026-05-20"), { kind: "bad-date", effectiveDate: "2026-05-20" }],
    ["a date that does not exist", row("USD", "1463.1", "31-Apr-26"), { kind: "bad-date", effectiveDate: "31-Apr-26" }],
    [
      "a label that is no currency",
      row("ATLANTIS", "1463.1", "20-May-26"),
      { kind: "unknown-currency", currency: "ATLANTIS" },
    ],
    ["a figure that is not a number", row("USD", "n/a", "20-May-26"), { kind: "bad-rate", rate: "n/a" }],
    ["a decimal comma", row("USD", "1463,065", "20-May-26"), { kind: "bad-rate", rate: "1463,065" }],
  ] as const)("holds %s and takes the other rows", async (_what, bad, held) => {
    await expectOneHeld(
      parse(`[${row("USD", "1463.065", "19-May-26")},${bad},${row("USD", "1,463.25", "21-May-26")}]`),
      {
        records: [
          { effectiveDate: "2026-05-19", currency: "USD", rate: "1463.065" },
          { effectiveDate: "2026-05-21", currency: "USD", rate: "1463.25" },
        ],
        held: { ...held, source: "row 1" },
      },
    );
  });

  it.skipIf(!sharedFeedsPresent)("reads the recordings exactly (values read off the files by hand)", async () => {
    const usd = recording("BNRRW/001.json");
    expect(await recordsOf(bnrrw.parse(usd.body, { url: usd.url }))).toEqual([
      { effectiveDate: "2026-05-19", currency: "USD", rate: "1463.065" },
      { effectiveDate: "2026-05-21", currency: "USD", rate: "1463.255" },
      { effectiveDate: "2026-05-22", currency: "USD", rate: "1463.3525" },
      { effectiveDate: "2026-05-20", currency: "USD", rate: "1463.1625" },
    ]);
    const eur = recording("BNRRW/002.json");
    const records = await recordsOf(bnrrw.parse(eur.body, { url: eur.url }));
    expect(records.find((r) => r.effectiveDate === "2026-05-19")).toEqual({
      effectiveDate: "2026-05-19",
      currency: "EUR",
      rate: "1703.300273",
    });
  });

  it("asks one currency_history per currency for the range", async () => {
    const http = fakeHttp(() => ({ body: "[]" }));
    await bnrrw.fetch({ kind: "range", from: "2026-05-19", to: "2026-05-22" }, { http, env: {} });
    expect(http.seen).toHaveLength(16);
    expect(http.seen[0]!.url).toBe(
      "https://fxrates.bnr.rw/currency_history/?currency_name=USD&end_date=2026-05-22&start_date=2026-05-19",
    );
    expect(http.seen[15]!.url).toBe(
      "https://fxrates.bnr.rw/currency_history/?currency_name=BIF&end_date=2026-05-22&start_date=2026-05-19",
    );
    expect(http.seen.map((r) => /currency_name=([A-Z]+)/.exec(r.url)![1])).toEqual([
      "USD",
      "EUR",
      "GBP",
      "JPY",
      "CHF",
      "CAD",
      "AUD",
      "CNY",
      "INR",
      "ZAR",
      "AED",
      "SAR",
      "KES",
      "UGX",
      "TZS",
      "BIF",
    ]);
  });
});
