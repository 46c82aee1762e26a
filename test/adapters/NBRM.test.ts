import { describe, expect, it } from "vitest";

import nbrm from "../../adapters/NBRM.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const ENDPOINT = "https://www.nbrm.mk/KLServiceNOV/GetExchangeRate";
const parse = (body: Buffer | string) =>
  nbrm.parse(Buffer.from(body), { url: `${ENDPOINT}?StartDate=01.03.2026&EndDate=02.03.2026&format=json` });

describe("NBRM adapter", () => {
  it("takes the middle rate per nomin units dated by datum (a Sunday included), drops MKD, keeps trailing zeros", async () => {
    expect(await recordsOf(parse(fixture("NBRM/GetExchangeRate.json")))).toEqual([
      { effectiveDate: "2026-03-01", currency: "EUR", rate: "61.6948" },
      { effectiveDate: "2026-03-01", currency: "DKK", rate: "8.2570" },
      { effectiveDate: "2026-03-02", currency: "JPY", rate: "33.5100", unitMultiplier: 2 },
    ]);
  });

  itRefusesWhole("NBRM", parse, [
    ["a runtime error page", "<!DOCTYPE html><html><body>Runtime Error</body></html>"],
    ["truncated JSON", '[{"datum":"2026-03-01T00:00:00","oznaka":"EUR","nomin":1,"sreden":61.69'],
    [
      "another bank's body (CNB)",
      '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.170}]}',
    ],
    ["an array of another bank's rows", '[{"Cur_ID":431,"Date":"2026-03-17T00:00:00","Cur_OfficialRate":2.9463}]'],
  ]);

  const eur =
    '{"datum":"2026-03-01T00:00:00","oznaka":"EUR","nomin":1,"sreden":61.6948,"datum_f":"2026-02-27T00:00:00"}';
  const jpy =
    '{"datum":"2026-03-01T00:00:00","oznaka":"JPY","nomin":100,"sreden":33.5100,"datum_f":"2026-02-27T00:00:00"}';
  const taken = [
    { effectiveDate: "2026-03-01", currency: "EUR", rate: "61.6948" },
    { effectiveDate: "2026-03-01", currency: "JPY", rate: "33.5100", unitMultiplier: 2 },
  ];
  it.each([
    [
      "a missing middle rate",
      '{"datum":"2026-03-01T00:00:00","oznaka":"USD","nomin":1}',
      { kind: "bad-rate", source: "entry 3", currency: "USD" },
    ],
    [
      "a date in another format",
      '{"datum":"01.03.2026","oznaka":"USD","nomin":1,"sreden":52.2616}',
      { kind: "bad-date", source: "entry 3", effectiveDate: "01.03.2026", rate: "52.2616" },
    ],
    [
      "a 31st of a 30-day month",
      '{"datum":"2026-04-31T00:00:00","oznaka":"USD","nomin":1,"sreden":52.2616}',
      { kind: "bad-date", source: "entry 3", effectiveDate: "2026-04-31T00:00:00" },
    ],
    [
      "a nomin that is not a whole number",
      '{"datum":"2026-03-01T00:00:00","oznaka":"HUF","nomin":"","sreden":14.5}',
      { kind: "unknown-unit", source: "entry 3", currency: "HUF" },
    ],
    [
      "a code that is not ISO 4217",
      '{"datum":"2026-03-01T00:00:00","oznaka":"XYZ","nomin":1,"sreden":1.5}',
      { kind: "unknown-currency", source: "entry 3", currency: "XYZ" },
    ],
  ] as const)("holds %s and takes the other rows", async (_what, bad, held) => {
    await expectOneHeld(parse(`[${eur},${jpy},${bad}]`), { records: taken, held });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("NBRM/001.json");
    const records = await recordsOf(nbrm.parse(r.body, { url: r.url }));
    expect(records).toHaveLength(54 * 31);
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    expect(find("2026-03-01", "EUR")).toEqual({ effectiveDate: "2026-03-01", currency: "EUR", rate: "61.6948" });
    expect(find("2026-03-01", "RSD")).toEqual({ effectiveDate: "2026-03-01", currency: "RSD", rate: "0.5253" });
    expect(find("2026-03-01", "IDR")).toEqual({ effectiveDate: "2026-03-01", currency: "IDR", rate: "0.0031" });
  });

  it("asks one DD.MM.YYYY range per call", async () => {
    const http = fakeHttp(() => ({ body: "[]" }));
    await nbrm.fetch({ kind: "range", from: "2026-03-01", to: "2026-04-23" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([`${ENDPOINT}?StartDate=01.03.2026&EndDate=23.04.2026&format=json`]);
    const latest = fakeHttp(() => ({ body: "[]" }));
    await nbrm.fetch({ kind: "latest" }, { http: latest, env: {} });
    expect(latest.seen[0]!.url).toMatch(
      /GetExchangeRate\?StartDate=\d\d\.\d\d\.\d{4}&EndDate=\d\d\.\d\d\.\d{4}&format=json$/,
    );
  });
});
