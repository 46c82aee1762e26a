import { describe, expect, it } from "vitest";

import nbe from "../../adapters/NBE.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const parse = (body: Buffer | string) =>
  nbe.parse(Buffer.from(body), { url: "https://api.nbe.gov.et/api/filter-exchange-rates?date=2026-05-18" });

describe("NBE adapter", () => {
  it("takes weighted_average as published (string or number), and skips a null", async () => {
    expect(await parse(fixture("NBE/filter-exchange-rates.json"))).toEqual([
      { effectiveDate: "2026-05-18", currency: "JPY", rate: "0.9965" },
      { effectiveDate: "2026-05-18", currency: "XDR", rate: "216.8410" },
      { effectiveDate: "2026-05-18", currency: "USD", rate: "157.227" },
      { effectiveDate: "2026-05-18", currency: "DKK", rate: "24.58390" },
    ]);
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<!DOCTYPE html><html><body>Request blocked</body></html>"],
    ["truncated JSON", '{"success":true,"data":[{"date":"2026-05-18","weighted_average":"0.99'],
    ["another bank's body", '[{"fecha":"2026-05-19","tasaOficial":24,"tasaPublica":120,"tasaEspecial":502}]'],
    ["a failure answer", '{"success":false,"message":"error","data":[]}'],
    [
      "a currency without a code",
      '{"success":true,"data":[{"date":"2026-05-18","weighted_average":"1.2","currency":{"name":"EURO"}}]}',
    ],
    [
      "a non-decimal figure",
      '{"success":true,"data":[{"date":"2026-05-18","weighted_average":"N/A","currency":{"code":"EUR"}}]}',
    ],
  ])("rejects %s with an error naming the bank", async (_what, body) => {
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^NBE: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded days exactly (values read off the files by hand)", async () => {
    const first = recording("NBE/001.json");
    const day1 = await nbe.parse(first.body, { url: first.url });
    expect(day1).toHaveLength(19);
    expect(day1.find((r) => r.currency === "JPY")).toEqual({
      effectiveDate: "2026-05-18",
      currency: "JPY",
      rate: "0.9965",
    });
    expect(day1.find((r) => r.currency === "USD")).toEqual({
      effectiveDate: "2026-05-18",
      currency: "USD",
      rate: "157.227",
    });
    expect(day1.find((r) => r.currency === "XDR")).toEqual({
      effectiveDate: "2026-05-18",
      currency: "XDR",
      rate: "216.8414",
    });
    const second = recording("NBE/002.json");
    const day2 = await nbe.parse(second.body, { url: second.url });
    expect(day2.find((r) => r.currency === "GBP")).toEqual({
      effectiveDate: "2026-05-19",
      currency: "GBP",
      rate: "211.0203",
    });
  });

  it("asks one date per weekday of the range", async () => {
    const http = fakeHttp(() => ({ body: '{"success":true,"data":[]}' }));
    await nbe.fetch({ kind: "range", from: "2026-05-15", to: "2026-05-19" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([
      "https://api.nbe.gov.et/api/filter-exchange-rates?date=2026-05-15",
      "https://api.nbe.gov.et/api/filter-exchange-rates?date=2026-05-18",
      "https://api.nbe.gov.et/api/filter-exchange-rates?date=2026-05-19",
    ]);
    const latest = fakeHttp(() => ({ body: '{"success":true,"data":[]}' }));
    await nbe.fetch({ kind: "latest" }, { http: latest, env: {} });
    expect(latest.seen.length).toBeGreaterThanOrEqual(2);
    for (const r of latest.seen)
      expect(r.url).toMatch(/^https:\/\/api\.nbe\.gov\.et\/api\/filter-exchange-rates\?date=\d{4}-\d{2}-\d{2}$/);
  });
});
