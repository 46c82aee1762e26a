import { describe, expect, it } from "vitest";

import rb from "../../adapters/RB.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://api.riksbank.se/swea/v1/Observations/ByGroup/130/2026-03-24/2026-03-25";
const parse = (body: Buffer | string) => rb.parse(Buffer.from(body), { url: URL });

describe("RB adapter", () => {
  it("keeps the JSON digits, drops SEKETT and nulls, and calls the pre-1999 EUR series XEU", async () => {
    expect(await parse(fixture("RB/observations.json"))).toEqual([
      { effectiveDate: "1998-12-30", currency: "XEU", rate: "9.4880" },
      { effectiveDate: "1999-01-04", currency: "EUR", rate: "9.4696" },
      { effectiveDate: "2026-03-24", currency: "IDR", rate: "0.00055" },
      { effectiveDate: "2026-03-24", currency: "AUD", rate: "6.5" },
      { effectiveDate: "2026-03-24", currency: "USD", rate: "9.40100" },
    ]);
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<!DOCTYPE html><html><body>Too many requests</body></html>"],
    ["truncated JSON", '[{"seriesId":"SEKUSDPMI","date":"2026-03-24","value":9.40'],
    ["another bank's body", '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.1}]}'],
    ["an unknown series", '[{"seriesId":"SECBREPOEFF","date":"2026-03-24","value":1.75}]'],
    ["a bad date", '[{"seriesId":"SEKUSDPMI","date":"24/03/2026","value":9.4}]'],
    ["a string value", '[{"seriesId":"SEKUSDPMI","date":"2026-03-24","value":"n/a"}]'],
  ])("rejects %s with an error naming the bank", async (_what, body) => {
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^RB: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("RB/001.json");
    const records = await rb.parse(r.body, { url: r.url });
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    expect(records).toHaveLength(58);
    expect(find("2026-03-24", "AUD")).toEqual({ effectiveDate: "2026-03-24", currency: "AUD", rate: "6.5" });
    expect(find("2026-03-25", "AUD")).toEqual({ effectiveDate: "2026-03-25", currency: "AUD", rate: "6.47054" });
    expect(find("2026-03-24", "JPY")).toEqual({ effectiveDate: "2026-03-24", currency: "JPY", rate: "0.05885" });
    expect(find("2026-03-25", "IDR")).toEqual({ effectiveDate: "2026-03-25", currency: "IDR", rate: "0.00055" });
    expect(records.some((x) => x.currency === "ETT")).toBe(false);
  });

  it("asks group 130 over the range", async () => {
    const http = fakeHttp(() => ({ body: "[]" }));
    await rb.fetch({ kind: "range", from: "2026-03-24", to: "2026-03-25" }, { http, env: {} });
    await rb.fetch({ kind: "latest" }, { http, env: {} });
    expect(http.seen[0]!.url).toBe("https://api.riksbank.se/swea/v1/Observations/ByGroup/130/2026-03-24/2026-03-25");
    expect(http.seen[1]!.url).toMatch(
      /^https:\/\/api\.riksbank\.se\/swea\/v1\/Observations\/ByGroup\/130\/\d{4}-\d{2}-\d{2}\/\d{4}-\d{2}-\d{2}$/,
    );
  });
});
