import { describe, expect, it } from "vitest";

import boc from "../../adapters/BOC.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://www.bankofcanada.ca/valet/observations/group/FX_RATES_DAILY/json?start_date=2026-03-12";
const parse = (body: Buffer | string) => boc.parse(Buffer.from(body), { url: URL });

describe("BOC adapter", () => {
  it("reads every series as CAD per unit, keeping the published digits and skipping missing values", async () => {
    expect(await parse(fixture("BOC/observations.json"))).toEqual([
      { effectiveDate: "2026-03-12", currency: "USD", rate: "1.3600" },
      { effectiveDate: "2026-03-12", currency: "IDR", rate: "0.000080" },
      { effectiveDate: "2026-03-12", currency: "JPY", rate: "0.008590" },
      { effectiveDate: "2026-03-13", currency: "USD", rate: "1.3675" },
    ]);
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<!DOCTYPE html><html><body>Forbidden</body></html>"],
    ["truncated JSON", '{"seriesDetail":{},"observations":[{"d":"2026-03-12","FXUSDCAD":{"v":"1.36'],
    ["another bank's body", '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.1}]}'],
    ["an unknown series", '{"seriesDetail":{},"observations":[{"d":"2026-03-12","AVG.INTWO":{"v":"1.0"}}]}'],
    ["a bad date", '{"seriesDetail":{},"observations":[{"d":"2026-02-30","FXUSDCAD":{"v":"1.36"}}]}'],
    ["a non-decimal value", '{"seriesDetail":{},"observations":[{"d":"2026-03-12","FXUSDCAD":{"v":"1,36"}}]}'],
  ])("rejects %s with an error naming the bank", async (_what, body) => {
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^BOC: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("BOC/001.json");
    const records = await boc.parse(r.body, { url: r.url });
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    expect(find("2026-03-16", "USD")).toEqual({ effectiveDate: "2026-03-16", currency: "USD", rate: "1.3675" });
    expect(find("2026-03-16", "IDR")).toEqual({ effectiveDate: "2026-03-16", currency: "IDR", rate: "0.000080" });
    expect(find("2026-03-16", "TRY")).toEqual({ effectiveDate: "2026-03-16", currency: "TRY", rate: "0.03100" });
    expect(records.filter((x) => x.effectiveDate === "2026-03-16")).toHaveLength(23);
  });

  it("asks Valet from ten days back for the latest and with both bounds for a range", async () => {
    const http = fakeHttp(() => ({ body: "{}" }));
    await boc.fetch({ kind: "range", from: "2025-01-01", to: "2025-12-31" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([
      "https://www.bankofcanada.ca/valet/observations/group/FX_RATES_DAILY/json?start_date=2025-01-01&end_date=2025-12-31",
    ]);
    await boc.fetch({ kind: "latest" }, { http, env: {} });
    expect(http.seen[1]!.url).toMatch(
      /^https:\/\/www\.bankofcanada\.ca\/valet\/observations\/group\/FX_RATES_DAILY\/json\?start_date=\d{4}-\d{2}-\d{2}$/,
    );
  });
});
