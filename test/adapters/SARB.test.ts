import { describe, expect, it } from "vitest";

import sarb, { SARB_SERIES } from "../../adapters/SARB.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const API = "https://custom.resbank.co.za/SarbWebApi/WebIndicators/Shared/GetTimeseriesObservations";
const urlOf = (code: string) => `${API}/${code}/2026-03-23T00:00:00/2026-03-27T00:00:00`;
const parse = (body: Buffer | string, code = "EXCB120D") => sarb.parse(Buffer.from(body), { url: urlOf(code) });

describe("SARB adapter", () => {
  it("keeps the foreign-per-rand series verbatim and skips empty values", async () => {
    expect(await recordsOf(parse(fixture("SARB/EXCB120D.json")))).toEqual([
      { effectiveDate: "2026-03-27", currency: "JPY", rate: "9.3320" },
      { effectiveDate: "2026-03-24", currency: "JPY", rate: "0.0465" },
    ]);
  });

  it("inverts the rand-per-foreign series (USD, GBP, EUR) to 10 significant digits, flagged", async () => {
    // 1/17.1302 and 1/23.4567 to 10 significant digits, computed by hand (Python decimal, prec 10).
    expect(await recordsOf(parse(fixture("SARB/EXCX135D.json"), "EXCX135D"))).toEqual([
      { effectiveDate: "2026-03-27", currency: "USD", rate: "0.0583764346", derivation: "inverted" },
      { effectiveDate: "2026-03-26", currency: "USD", rate: "0.04263174274", derivation: "inverted" },
    ]);
  });

  it("maps 23 series, three of them rand per foreign unit", () => {
    expect(Object.keys(SARB_SERIES)).toHaveLength(23);
    expect(
      Object.values(SARB_SERIES)
        .filter((s) => !s.perRand)
        .map((s) => s.currency),
    ).toEqual(["USD", "GBP", "EUR"]);
  });

  itRefusesWhole("SARB", parse, [
    ["a server error page", "<!DOCTYPE html><html><body>Server Error</body></html>"],
    ["truncated JSON", '[{"Period":"2026-03-27T00:00:00","Timeseries":"Japan: Yen per Rand","Value":9.33'],
    [
      "another bank's body (CNB)",
      '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.170}]}',
    ],
    ["an array of another bank's rows", '[{"seriesId":"SEKJPYPMI","date":"2026-03-24","value":0.05885}]'],
  ]);

  const jpy = (period: string, label: string, value: string) =>
    `{"Period":"${period}","Timeseries":"${label}","Value":${value},"FormatNumber":"0.0000"}`;
  const good = `${jpy("2026-03-27T00:00:00", "Japan: Yen per Rand", "9.3324")},${jpy("2026-03-26T00:00:00", "Japan: Yen per Rand", "9.3581")}`;
  const taken = [
    { effectiveDate: "2026-03-27", currency: "JPY", rate: "9.3324" },
    { effectiveDate: "2026-03-26", currency: "JPY", rate: "9.3581" },
  ];
  it.each([
    [
      "an observation whose label says the other direction",
      jpy("2026-03-25T00:00:00", "Rand per Japanese Yen", "0.1062"),
      { kind: "bad-row", source: "EXCB120D observation 3", currency: "Rand per Japanese Yen", rate: "0.1062" },
    ],
    [
      "a date that does not exist",
      jpy("2026-02-30T00:00:00", "Japan: Yen per Rand", "9.4160"),
      { kind: "bad-date", source: "EXCB120D observation 3", effectiveDate: "2026-02-30T00:00:00" },
    ],
    [
      "a value that is not a number",
      jpy("2026-03-25T00:00:00", "Japan: Yen per Rand", '"n/a"'),
      { kind: "bad-rate", source: "EXCB120D observation 3", rate: "n/a" },
    ],
  ] as const)("holds %s and takes the other observations", async (_what, bad, held) => {
    await expectOneHeld(parse(`[${good},${bad}]`), { records: taken, held });
  });

  it("rejects a body whose URL names no known series", async () => {
    await expect(async () =>
      sarb.parse(Buffer.from("[]"), { url: `${API}/XXX999D/2026-03-23T00:00:00/2026-03-27T00:00:00` }),
    ).rejects.toThrow(/^SARB: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recordings exactly (values read off the files by hand)", async () => {
    const yen = recording("SARB/013.json");
    expect(await recordsOf(sarb.parse(yen.body, { url: yen.url }))).toEqual([
      { effectiveDate: "2026-03-27", currency: "JPY", rate: "9.3324" },
      { effectiveDate: "2026-03-26", currency: "JPY", rate: "9.3581" },
      { effectiveDate: "2026-03-25", currency: "JPY", rate: "9.4160" },
      { effectiveDate: "2026-03-24", currency: "JPY", rate: "9.3617" },
    ]);
    const chf = recording("SARB/019.json");
    expect((await recordsOf(sarb.parse(chf.body, { url: chf.url })))[0]).toEqual({
      effectiveDate: "2026-03-27",
      currency: "CHF",
      rate: "0.0465",
    });
    const usd = recording("SARB/001.json");
    // 1/17.1302 and 1/16.9333 to 10 significant digits (Python decimal).
    const usdRecords = await recordsOf(sarb.parse(usd.body, { url: usd.url }));
    expect(usdRecords[0]).toEqual({
      effectiveDate: "2026-03-27",
      currency: "USD",
      rate: "0.0583764346",
      derivation: "inverted",
    });
    expect(usdRecords[3]).toEqual({
      effectiveDate: "2026-03-24",
      currency: "USD",
      rate: "0.05905523436",
      derivation: "inverted",
    });
  });

  it("asks each of the 23 series for the range", async () => {
    const http = fakeHttp(() => ({ body: "[]" }));
    await sarb.fetch({ kind: "range", from: "2026-03-23", to: "2026-03-27" }, { http, env: {} });
    expect(http.seen).toHaveLength(23);
    expect(http.seen[0]!.url).toBe(`${API}/EXCX135D/2026-03-23T00:00:00/2026-03-27T00:00:00`);
    expect(http.seen[22]!.url).toBe(`${API}/EXCB118D/2026-03-23T00:00:00/2026-03-27T00:00:00`);
    const latest = fakeHttp(() => ({ body: "[]" }));
    await sarb.fetch({ kind: "latest" }, { http: latest, env: {} });
    expect(latest.seen).toHaveLength(23);
    expect(latest.seen[0]!.url).toMatch(/\/EXCX135D\/\d{4}-\d{2}-\d{2}T00:00:00\/\d{4}-\d{2}-\d{2}T00:00:00$/);
  });
});
