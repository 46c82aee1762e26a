import { describe, expect, it } from "vitest";

import bam, { BAM_CODE_FIXES } from "../../adapters/BAM.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://api.centralbankofmorocco.ma/cours/Version1/api/CoursVirement?date=2026-03-25T12:30:00";
const parse = (body: Buffer | string) => bam.parse(Buffer.from(body), { url: URL });

describe("BAM adapter", () => {
  it("takes moyen per uniteDevise with every digit, MRO as MRU, and the mean when there is no moyen", async () => {
    expect(await recordsOf(parse(fixture("BAM/cours.json")))).toEqual([
      { effectiveDate: "2026-03-25", currency: "EUR", rate: "10.8057" },
      { effectiveDate: "2026-03-25", currency: "SEK", rate: "100.060", unitMultiplier: 2 },
      { effectiveDate: "2026-03-25", currency: "DZD", rate: "0.7032", unitMultiplier: 1 },
      { effectiveDate: "2026-03-25", currency: "MRU", rate: "23.55", unitMultiplier: 2 },
      { effectiveDate: "2026-03-25", currency: "EUR", rate: "10.8057" },
      // (9.3001 + 9.3378) / 2
      { effectiveDate: "2026-03-25", currency: "USD", rate: "9.31895", derivation: "mean" },
    ]);
    expect(BAM_CODE_FIXES).toEqual({ MRO: "MRU" });
  });

  itRefusesWhole("BAM", parse, [
    ["truncated JSON", '[{"date":"2026-03-25T12:30:00","libDevise":"EUR","moyen":10.80'],
    ["another bank's body", '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.1}]}'],
    ["an API error object", '{"statusCode":401,"message":"Access denied due to invalid subscription key."}'],
    ["an array of another layout", '[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.1}]'],
  ]);

  const day = (bad: string) =>
    `[{"date":"2026-03-25T12:30:00","libDevise":"EUR","moyen":10.8057,"uniteDevise":1},${bad},` +
    `{"date":"2026-03-25T12:30:00","libDevise":"JPY","moyen":5.862,"uniteDevise":100}]`;
  const taken = [
    { effectiveDate: "2026-03-25", currency: "EUR", rate: "10.8057" },
    { effectiveDate: "2026-03-25", currency: "JPY", rate: "5.862", unitMultiplier: 2 },
  ];
  it.each([
    [
      "a row without any rate",
      '{"date":"2026-03-25T12:30:00","libDevise":"USD","uniteDevise":1}',
      { kind: "bad-rate", currency: "USD" },
    ],
    [
      "a currency name instead of a code",
      '{"date":"2026-03-25T12:30:00","libDevise":"EURO","moyen":10.8,"uniteDevise":1}',
      { kind: "unknown-currency", currency: "EURO" },
    ],
    [
      "a date that does not exist",
      '{"date":"2026-02-30T12:30:00","libDevise":"USD","moyen":9.3189,"uniteDevise":1}',
      { kind: "bad-date", effectiveDate: "2026-02-30T12:30:00" },
    ],
    [
      "a figure that is not a number",
      '{"date":"2026-03-25T12:30:00","libDevise":"USD","moyen":"9,31 89","uniteDevise":1}',
      { kind: "bad-rate", currency: "USD" },
    ],
    [
      "a unit that is no whole number",
      '{"date":"2026-03-25T12:30:00","libDevise":"USD","moyen":9.3189,"uniteDevise":0}',
      { kind: "unknown-unit", currency: "USD" },
    ],
  ] as const)("holds %s and takes the other rows", async (_what, bad, held) => {
    await expectOneHeld(parse(day(bad)), { records: taken, held: { ...held, source: "row 1" } });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded days exactly (values read off the files by hand)", async () => {
    const one = recording("BAM/001.json");
    const a = await recordsOf(bam.parse(one.body, { url: one.url }));
    expect(a).toHaveLength(30);
    expect(a.find((x) => x.currency === "NOK")).toEqual({
      effectiveDate: "2026-03-25",
      currency: "NOK",
      rate: "95.938",
      unitMultiplier: 2,
    });
    expect(a.find((x) => x.currency === "SEK")).toEqual({
      effectiveDate: "2026-03-25",
      currency: "SEK",
      rate: "100.06",
      unitMultiplier: 2,
    });
    expect(a.find((x) => x.currency === "USD")).toEqual({
      effectiveDate: "2026-03-25",
      currency: "USD",
      rate: "9.3189",
    });
    expect(a.find((x) => x.currency === "MRU")).toEqual({
      effectiveDate: "2026-03-25",
      currency: "MRU",
      rate: "23.55",
      unitMultiplier: 2,
    });
    const two = recording("BAM/002.json");
    const b = await recordsOf(bam.parse(two.body, { url: two.url }));
    expect(b.find((x) => x.currency === "USD")).toEqual({
      effectiveDate: "2026-03-26",
      currency: "USD",
      rate: "9.3261",
    });
    expect(b.filter((x) => x.currency === "EUR")).toEqual([
      { effectiveDate: "2026-03-26", currency: "EUR", rate: "10.7729" },
      { effectiveDate: "2026-03-26", currency: "EUR", rate: "10.7729" },
    ]);
  });

  it("asks one day per weekday with the subscription key, and says which variable is missing", async () => {
    const http = fakeHttp(() => ({ body: "[]" }));
    const env = { EXRATES_BAM_API_KEY: "k" };
    await bam.fetch({ kind: "range", from: "2026-03-20", to: "2026-03-23" }, { http, env });
    expect(http.seen.map((r) => r.url)).toEqual([
      "https://api.centralbankofmorocco.ma/cours/Version1/api/CoursVirement?date=2026-03-20T12:30:00",
      "https://api.centralbankofmorocco.ma/cours/Version1/api/CoursVirement?date=2026-03-23T12:30:00",
    ]);
    expect(http.seen[0]!.headers).toEqual({ "Ocp-Apim-Subscription-Key": "k" });
    await bam.fetch({ kind: "latest" }, { http, env });
    expect(http.seen[2]!.url).toMatch(/CoursVirement\?date=\d{4}-\d{2}-\d{2}T12:30:00$/);
    await expect(bam.fetch({ kind: "latest" }, { http, env: {} })).rejects.toThrow(/^BAM: needs EXRATES_BAM_API_KEY/);
  });
});
