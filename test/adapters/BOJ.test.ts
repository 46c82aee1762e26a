import { describe, expect, it } from "vitest";

import boj from "../../adapters/BOJ.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL =
  "https://www.stat-search.boj.or.jp/api/v1/getDataCode?format=json&lang=en&db=FM08&code=FXERD04&startDate=202603&endDate=202603";
const parse = (body: Buffer | string) => boj.parse(Buffer.from(body), { url: URL });

describe("BOJ adapter", () => {
  it("reads the 17:00 dollar/yen rate, skipping nulls, and takes no rate from the euro/dollar cross", async () => {
    expect(await parse(fixture("BOJ/getDataCode.json"))).toEqual([
      { effectiveDate: "2026-03-02", currency: "USD", rate: "156.99" },
      { effectiveDate: "2026-03-03", currency: "USD", rate: "157.40" },
      { effectiveDate: "2026-03-10", currency: "USD", rate: "158.8" },
    ]);
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<!DOCTYPE html><html><body>Maintenance</body></html>"],
    [
      "truncated JSON",
      '{"STATUS":200,"RESULTSET":[{"SERIES_CODE":"FXERD04","VALUES":{"SURVEY_DATES":[20260302],"VALUES":[156.9',
    ],
    ["another bank's body", '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.1}]}'],
    ["an API error", '{"STATUS":400,"MESSAGEID":"M181005E","MESSAGE":"Invalid parameter (DB)","RESULTSET":[]}'],
    [
      "an unknown series",
      '{"STATUS":200,"RESULTSET":[{"SERIES_CODE":"FXERD01","VALUES":{"SURVEY_DATES":[20260302],"VALUES":[156.9]}}]}',
    ],
    [
      "mismatched arrays",
      '{"STATUS":200,"RESULTSET":[{"SERIES_CODE":"FXERD04","VALUES":{"SURVEY_DATES":[20260302,20260303],"VALUES":[156.9]}}]}',
    ],
    [
      "a bad date",
      '{"STATUS":200,"RESULTSET":[{"SERIES_CODE":"FXERD04","VALUES":{"SURVEY_DATES":[20260230],"VALUES":[156.9]}}]}',
    ],
  ])("rejects %s with an error naming the bank", async (_what, body) => {
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^BOJ: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("BOJ/001.json");
    const records = await boj.parse(r.body, { url: r.url });
    expect(records).toHaveLength(11); // 16 survey dates, 5 of them null
    expect(records[0]).toEqual({ effectiveDate: "2026-03-02", currency: "USD", rate: "156.99" });
    expect(records.find((x) => x.effectiveDate === "2026-03-12")).toEqual({
      effectiveDate: "2026-03-12",
      currency: "USD",
      rate: "158.8",
    });
    expect(records.at(-1)).toEqual({ effectiveDate: "2026-03-16", currency: "USD", rate: "159.29" });
    expect(records.every((x) => x.currency === "USD")).toBe(true);
  });

  it("asks FM08 by months", async () => {
    const http = fakeHttp(() => ({ body: '{"STATUS":200,"RESULTSET":[]}' }));
    await boj.fetch({ kind: "range", from: "2025-12-15", to: "2026-03-02" }, { http, env: {} });
    await boj.fetch({ kind: "latest" }, { http, env: {} });
    expect(http.seen[0]!.url).toBe(
      "https://www.stat-search.boj.or.jp/api/v1/getDataCode?format=json&lang=en&db=FM08&code=FXERD04&startDate=202512&endDate=202603",
    );
    expect(http.seen[1]!.url).toMatch(/&code=FXERD04&startDate=\d{6}&endDate=\d{6}$/);
  });
});
