import { describe, expect, it } from "vitest";

import cnb from "../../adapters/CNB.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const parse = (body: Buffer | string) =>
  cnb.parse(Buffer.from(body), { url: "https://api.cnb.cz/cnbapi/exrates/daily-year?lang=EN&year=2026" });

describe("CNB adapter", () => {
  it("keeps every digit of the JSON numbers and the per-amount unit as unitMultiplier", async () => {
    expect(await parse(fixture("CNB/daily-year.json"))).toEqual([
      { effectiveDate: "2026-03-02", currency: "EUR", rate: "24.170" },
      { effectiveDate: "2026-03-02", currency: "HUF", rate: "6.304", unitMultiplier: 2 },
      { effectiveDate: "2026-03-02", currency: "IDR", rate: "1.233", unitMultiplier: 3 },
      { effectiveDate: "2026-03-03", currency: "EUR", rate: "24.1850000000000000001" },
      { effectiveDate: "2026-03-03", currency: "JPY", rate: "13.141", unitMultiplier: 2 },
    ]);
  });

  it("reads a year without a fixing yet as no records", async () => {
    expect(await parse(fixture("CNB/empty-year.json"))).toEqual([]);
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<!DOCTYPE html><html><body>Service unavailable</body></html>"],
    ["truncated JSON", '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.1'],
    ["another shape", '{"error":"not found"}'],
    ["a bad date", '{"rates":[{"validFor":"2026-02-30","currencyCode":"EUR","amount":1,"rate":24.1}]}'],
    ["a fractional amount", '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1.5,"rate":24.1}]}'],
  ])("rejects %s with an error naming the bank", async (_what, body) => {
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^CNB: /);
  });

  it.skipIf(!sharedFeedsPresent)(
    "reads the recorded 2026 year exactly (values read off the file by hand)",
    async () => {
      const r = recording("CNB/001.json");
      const records = await cnb.parse(r.body, { url: r.url });
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
