import { describe, expect, it } from "vitest";

import bom from "../../adapters/BOM.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const parse = (body: Buffer | string) =>
  bom.parse(Buffer.from(body), { url: "https://www.mongolbank.mn/en/currency-rate-movement/data" });

describe("BOM adapter", () => {
  it("reads the wide rows, drops comma separators, relabels SDR and skips placeholders", async () => {
    expect(await parse(fixture("BOM/data.json"))).toEqual([
      { effectiveDate: "2026-05-20", currency: "USD", rate: "3576.17" },
      { effectiveDate: "2026-05-20", currency: "JPY", rate: "22.48" },
      { effectiveDate: "2026-05-20", currency: "KWD", rate: "11656.36" },
      { effectiveDate: "2026-05-20", currency: "IDR", rate: "0.20" },
      // Gold and silver are published per troy ounce already: kept as they are.
      { effectiveDate: "2026-05-20", currency: "XAU", rate: "16016753.51" },
      { effectiveDate: "2026-05-20", currency: "XDR", rate: "4888.48" },
      { effectiveDate: "2026-05-19", currency: "USD", rate: "3575.99" },
      { effectiveDate: "2026-05-19", currency: "EUR", rate: "4160.6600" },
      { effectiveDate: "2026-05-19", currency: "XAG", rate: "273466.86" },
    ]);
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<!DOCTYPE html><html><head><title>Just a moment...</title></head></html>"],
    ["truncated JSON", '{"success":true,"data":[{"RATE_DATE":"2026-05-20","USD":"3,57'],
    ["another bank's body", '[{"Date": "22 January 2020", "Rate": "15.38"}]'],
    ["a failure answer", '{"success":false,"data":[]}'],
    ["a bad date", '{"success":true,"data":[{"RATE_DATE":"20.05.2026","USD":"3,576.17"}]}'],
    ["a column that is not a currency", '{"success":true,"data":[{"RATE_DATE":"2026-05-20","US DOLLAR":"3,576.17"}]}'],
    ["a non-decimal figure", '{"success":true,"data":[{"RATE_DATE":"2026-05-20","USD":"3.576,17"}]}'],
  ])("rejects %s with an error naming the bank", async (_what, body) => {
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^BOM: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("BOM/001.json");
    const records = await bom.parse(r.body, { url: r.url });
    expect(records).toHaveLength(76); // 38 columns on 2 days
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    expect(find("2026-05-20", "USD")).toEqual({ effectiveDate: "2026-05-20", currency: "USD", rate: "3576.17" });
    expect(find("2026-05-20", "KWD")).toEqual({ effectiveDate: "2026-05-20", currency: "KWD", rate: "11656.36" });
    expect(find("2026-05-20", "XAU")).toEqual({ effectiveDate: "2026-05-20", currency: "XAU", rate: "16016753.51" });
    expect(find("2026-05-20", "XDR")).toEqual({ effectiveDate: "2026-05-20", currency: "XDR", rate: "4888.48" });
    expect(find("2026-05-19", "USD")).toEqual({ effectiveDate: "2026-05-19", currency: "USD", rate: "3575.99" });
  });

  it("posts the range as JSON", async () => {
    const http = fakeHttp(() => ({ body: '{"success":true,"data":[]}' }));
    await bom.fetch({ kind: "range", from: "2026-05-19", to: "2026-05-20" }, { http, env: {} });
    expect(http.seen).toEqual([
      {
        method: "POST",
        url: "https://www.mongolbank.mn/en/currency-rate-movement/data",
        body: '{"startDate":"2026-05-19","endDate":"2026-05-20"}',
        headers: { "content-type": "application/json" },
      },
    ]);
  });
});
