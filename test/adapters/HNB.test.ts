import { describe, expect, it } from "vitest";

import hnb from "../../adapters/HNB.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://api.hnb.hr/tecajn-eur/v3?datum-primjene-od=2023-01-02&datum-primjene-do=2023-01-04";
const parse = (body: Buffer | string, url = URL) => hnb.parse(Buffer.from(body), { url });

describe("HNB adapter", () => {
  it("takes the middle rate with its decimal comma and every trailing zero, on its date of application", async () => {
    expect(await recordsOf(parse(fixture("HNB/tecajn-eur-v3.json")))).toEqual([
      { effectiveDate: "2023-01-02", currency: "AUD", rate: "1.569300" },
      { effectiveDate: "2023-01-02", currency: "HUF", rate: "400.870000" },
      { effectiveDate: "2023-01-03", currency: "USD", rate: "1.068300" },
    ]);
  });

  it("recognises a frozen kuna-era v2 list and takes no euro rates from it", async () => {
    expect(
      await recordsOf(
        parse(fixture("HNB/tecajn-v2.json"), "https://api.hnb.hr/tecajn/v2?datum-od=2022-12-28&datum-do=2022-12-31"),
      ),
    ).toEqual([]);
  });

  it("reads an empty list as no records", async () => {
    expect(await recordsOf(parse("[]"))).toEqual([]);
  });

  itRefusesWhole("HNB", parse, [
    ["truncated JSON", '[{"broj_tecajnice":"1","datum_primjene":"2023-01-02","srednji_tecaj":"1,5693'],
    ["another bank's body", '[{"seriesId":"SEKUSDPMI","date":"2026-03-24","value":9.4}]'],
    ["an object instead of the list", '{"datum_primjene":"2023-01-02","valuta":"USD","srednji_tecaj":"1,066600"}'],
  ]);

  const row = (date: string, currency: string, rate: string) =>
    `{"broj_tecajnice":"1","datum_primjene":"${date}","valuta":"${currency}","srednji_tecaj":"${rate}"}`;
  const good = [row("2023-01-02", "AUD", "1,569300"), row("2023-01-02", "HUF", "400,870000")];
  it.each([
    [
      "a middle rate that is not a number",
      row("2023-01-02", "USD", "1.066.600"),
      { kind: "bad-rate", rate: "1.066.600" },
    ],
    [
      "a date that is not YYYY-MM-DD",
      row("02.01.2023", "USD", "1,066600"),
      { kind: "bad-date", effectiveDate: "02.01.2023" },
    ],
    [
      "a code that is not ISO 4217",
      row("2023-01-02", "XYZ", "1,066600"),
      { kind: "unknown-currency", currency: "XYZ" },
    ],
    ["a row without its middle rate", '{"datum_primjene":"2023-01-02","valuta":"USD"}', { kind: "bad-row" }],
  ] as const)("holds %s and takes the other rows", async (_what, bad, held) => {
    await expectOneHeld(parse(`[${good[0]},${bad},${good[1]}]`), {
      records: [
        { effectiveDate: "2023-01-02", currency: "AUD", rate: "1.569300" },
        { effectiveDate: "2023-01-02", currency: "HUF", rate: "400.870000" },
      ],
      held: { ...held, source: "row 2" },
    });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recordings exactly (values read off the files by hand)", async () => {
    const r = recording("HNB/001.json");
    const records = await recordsOf(hnb.parse(r.body, { url: r.url }));
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    expect(records).toHaveLength(39);
    expect(find("2023-01-02", "AUD")).toEqual({ effectiveDate: "2023-01-02", currency: "AUD", rate: "1.569300" });
    expect(find("2023-01-02", "JPY")).toEqual({ effectiveDate: "2023-01-02", currency: "JPY", rate: "140.660000" });
    expect(find("2023-01-04", "GBP")).toEqual({ effectiveDate: "2023-01-04", currency: "GBP", rate: "0.880480" });
    expect(find("2023-01-04", "BAM")).toEqual({ effectiveDate: "2023-01-04", currency: "BAM", rate: "1.955830" });
    const v2 = recording("HNB/002.json");
    expect(await recordsOf(hnb.parse(v2.body, { url: v2.url }))).toEqual([]);
  });

  it("asks the v3 list by dates of application", async () => {
    const http = fakeHttp(() => ({ body: "[]" }));
    await hnb.fetch({ kind: "range", from: "2023-01-02", to: "2023-01-04" }, { http, env: {} });
    await hnb.fetch({ kind: "latest" }, { http, env: {} });
    expect(http.seen[0]!.url).toBe(
      "https://api.hnb.hr/tecajn-eur/v3?datum-primjene-od=2023-01-02&datum-primjene-do=2023-01-04",
    );
    expect(http.seen[1]!.url).toMatch(
      /^https:\/\/api\.hnb\.hr\/tecajn-eur\/v3\?datum-primjene-od=\d{4}-\d{2}-\d{2}&datum-primjene-do=\d{4}-\d{2}-\d{2}$/,
    );
  });
});
