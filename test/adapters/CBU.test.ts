import { describe, expect, it } from "vitest";

import cbu from "../../adapters/CBU.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const ARCHIVE = "https://cbu.uz/en/arkhiv-kursov-valyut/json/all";
const parse = (body: Buffer | string) => cbu.parse(Buffer.from(body), { url: `${ARCHIVE}/2026-04-01/` });

describe("CBU adapter", () => {
  it("reads the string fields, DD.MM.YYYY dates and the nominal as unitMultiplier, trailing zeros kept", async () => {
    expect(await recordsOf(parse(fixture("CBU/all.json")))).toEqual([
      { effectiveDate: "2026-04-01", currency: "USD", rate: "12194.21" },
      { effectiveDate: "2026-04-01", currency: "IDR", rate: "7.18", unitMultiplier: 1 },
      { effectiveDate: "2026-04-01", currency: "HUF", rate: "36.20" },
      { effectiveDate: "2026-04-01", currency: "XDR", rate: "16557.42" },
    ]);
  });

  itRefusesWhole("CBU", parse, [
    ["truncated JSON", '[{"Ccy":"USD","Nominal":"1","Rate":"12194.2'],
    [
      "another bank's body (CNB)",
      '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.170}]}',
    ],
  ]);

  const entry = (fields: string) => `{"Code":"978","Ccy":"EUR",${fields}}`;
  it.each([
    ["a date in another form", entry('"Nominal":"1","Rate":"13977.52","Date":"2026-04-01"'), { kind: "bad-date" }],
    [
      "a rate with a decimal comma",
      entry('"Nominal":"1","Rate":"13 977,52","Date":"01.04.2026"'),
      { kind: "bad-rate" },
    ],
    ["a missing nominal", entry('"Rate":"13977.52","Date":"01.04.2026"'), { kind: "unknown-unit" }],
  ] as const)("holds an entry with %s and takes the others", async (_what, bad, held) => {
    const usd = '{"Ccy":"USD","Nominal":"1","Rate":"12194.21","Date":"01.04.2026"}';
    const idr = '{"Ccy":"IDR","Nominal":"10","Rate":"7.18","Date":"01.04.2026"}';
    await expectOneHeld(parse(`[${usd},${bad},${idr}]`), {
      records: [
        { effectiveDate: "2026-04-01", currency: "USD", rate: "12194.21" },
        { effectiveDate: "2026-04-01", currency: "IDR", rate: "7.18", unitMultiplier: 1 },
      ],
      held: { ...held, currency: "EUR", source: "[1]" },
    });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recordings exactly (values read off the files by hand)", async () => {
    const r = recording("CBU/001.json");
    const records = await recordsOf(cbu.parse(r.body, { url: r.url }));
    expect(records).toHaveLength(75);
    expect(records[0]).toEqual({ effectiveDate: "2026-04-01", currency: "USD", rate: "12194.21" });
    expect(records.find((x) => x.currency === "VND")).toEqual({
      effectiveDate: "2026-04-01",
      currency: "VND",
      rate: "4.63",
      unitMultiplier: 1,
    });
    expect(records.find((x) => x.currency === "IRR")).toEqual({
      effectiveDate: "2026-04-01",
      currency: "IRR",
      rate: "0.09",
      unitMultiplier: 1,
    });
    const r2 = recording("CBU/002.json");
    expect((await recordsOf(cbu.parse(r2.body, { url: r2.url }))).every((x) => x.effectiveDate === "2026-04-02")).toBe(
      true,
    );
  });

  it("asks one dated URL (with its trailing slash) per weekday", async () => {
    const http = fakeHttp(() => ({ body: "[]" }));
    await cbu.fetch({ kind: "range", from: "2026-04-03", to: "2026-04-06" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([`${ARCHIVE}/2026-04-03/`, `${ARCHIVE}/2026-04-06/`]);
    const latest = fakeHttp(() => ({ body: "[]" }));
    await cbu.fetch({ kind: "latest" }, { http: latest, env: {} });
    expect(latest.seen.length).toBeGreaterThanOrEqual(2);
    for (const r of latest.seen) expect(r.url).toMatch(/\/json\/all\/\d{4}-\d{2}-\d{2}\/$/);
  });
});
