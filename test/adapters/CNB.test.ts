import { describe, expect, it } from "vitest";

import cnb from "../../adapters/CNB.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const parse = (body: Buffer | string) =>
  cnb.parse(Buffer.from(body), { url: "https://api.cnb.cz/cnbapi/exrates/daily-year?lang=EN&year=2026" });

describe("CNB adapter", () => {
  it("keeps every digit of the JSON numbers and the per-amount unit as unitMultiplier", async () => {
    expect(await recordsOf(parse(fixture("CNB/daily-year.json")))).toEqual([
      { effectiveDate: "2026-03-02", currency: "EUR", rate: "24.170" },
      { effectiveDate: "2026-03-02", currency: "HUF", rate: "6.304", unitMultiplier: 2 },
      { effectiveDate: "2026-03-02", currency: "IDR", rate: "1.233", unitMultiplier: 3 },
      { effectiveDate: "2026-03-03", currency: "EUR", rate: "24.1850000000000000001" },
      { effectiveDate: "2026-03-03", currency: "JPY", rate: "13.141", unitMultiplier: 2 },
    ]);
  });

  it("reads a year without a fixing yet as the bank saying that nothing was published", async () => {
    expect(await answerOf(parse(fixture("CNB/empty-year.json")))).toEqual({
      records: [],
      held: [],
      noPublication: "an empty rates list: no fixing yet in the year asked",
    });
  });

  itRefusesWhole("CNB", parse, [
    ["truncated JSON", '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.1'],
    ["another shape", '{"error":"not found"}'],
    [
      "another bank's JSON",
      '[{"Cur_ID":431,"Date":"2026-03-02T00:00:00","Cur_Abbreviation":"USD","Cur_OfficialRate":2.9}]',
    ],
  ]);

  const entry = (date: string, code: string, amount: string, rate: string) =>
    `{"validFor":"${date}","currencyCode":"${code}","amount":${amount},"rate":${rate}}`;
  const good = [entry("2026-03-02", "EUR", "1", "24.170"), entry("2026-03-02", "JPY", "100", "13.141")];
  const taken = [
    { effectiveDate: "2026-03-02", currency: "EUR", rate: "24.170" },
    { effectiveDate: "2026-03-02", currency: "JPY", rate: "13.141", unitMultiplier: 2 },
  ];
  it.each([
    [
      "a date that does not exist",
      entry("2026-02-30", "USD", "1", "20.611"),
      { kind: "bad-date", effectiveDate: "2026-02-30" },
    ],
    ["a fractional amount", entry("2026-03-02", "USD", "1.5", "20.611"), { kind: "unknown-unit", currency: "USD" }],
    ["a figure that is not a number", entry("2026-03-02", "USD", "1", '"n/a"'), { kind: "bad-rate", rate: "n/a" }],
  ] as const)("holds %s at its index and takes the other entries", async (_what, bad, held) => {
    await expectOneHeld(parse(`{"rates":[${[good[0], bad, good[1]].join(",")}]}`), {
      records: taken,
      held: { ...held, source: "rates[1]" },
    });
  });

  it.skipIf(!sharedFeedsPresent)(
    "reads the recorded 2026 year exactly (values read off the file by hand)",
    async () => {
      const r = recording("CNB/001.json");
      const records = await recordsOf(cnb.parse(r.body, { url: r.url }));
      const find = (date: string, currency: string) =>
        records.find((x) => x.effectiveDate === date && x.currency === currency);
      expect(find("2026-01-02", "EUR")).toEqual({ effectiveDate: "2026-01-02", currency: "EUR", rate: "24.170" });
      expect(find("2026-01-02", "HUF")).toEqual({
        effectiveDate: "2026-01-02",
        currency: "HUF",
        rate: "6.304",
        unitMultiplier: 2,
      });
      expect(find("2026-01-02", "IDR")).toEqual({
        effectiveDate: "2026-01-02",
        currency: "IDR",
        rate: "1.233",
        unitMultiplier: 3,
      });
      expect(records.at(-1)).toEqual({ effectiveDate: "2026-02-25", currency: "ZAR", rate: "1.296" });
    },
  );

  it("asks for the current year's file for the latest and one daily-year call per year of a range", async () => {
    const http = fakeHttp(() => ({ body: '{"rates":[]}' }));
    await cnb.fetch({ kind: "latest" }, { http, env: {} });
    expect(http.seen.at(-1)!.url).toMatch(/^https:\/\/api\.cnb\.cz\/cnbapi\/exrates\/daily-year\?lang=EN&year=20\d\d$/);
    http.seen.length = 0;
    await cnb.fetch({ kind: "range", from: "2024-12-30", to: "2026-01-02" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([
      "https://api.cnb.cz/cnbapi/exrates/daily-year?lang=EN&year=2024",
      "https://api.cnb.cz/cnbapi/exrates/daily-year?lang=EN&year=2025",
      "https://api.cnb.cz/cnbapi/exrates/daily-year?lang=EN&year=2026",
    ]);
  });
});
