import { afterEach, describe, expect, it, vi } from "vitest";

import bota, { botaFigure } from "../../adapters/BOTA.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://www.bot.go.tz/ExchangeRate/previous_rates";
const parse = (body: Buffer | string) => bota.parse(Buffer.from(body), { url: URL });

describe("BOTA adapter", () => {
  afterEach(() => vi.useRealTimers());

  it("takes the Mean column, removes the odd commas, leaves out GOLD and withdrawn codes, writes SDR as XDR", async () => {
    expect(await parse(fixture("BOTA/range.html"))).toEqual([
      { effectiveDate: "2026-05-19", currency: "USD", rate: "2602.0545" },
      { effectiveDate: "2026-05-19", currency: "JPY", rate: "18.0400" },
      { effectiveDate: "2026-05-18", currency: "XDR", rate: "3547.7500" },
      { effectiveDate: "2026-05-18", currency: "KWD", rate: "8472.30" },
    ]);
  });

  it("reads the landing page (empty table) as no records", async () => {
    expect(await parse(fixture("BOTA/landing.html"))).toEqual([]);
  });

  it("reads figures with commas anywhere but refuses malformed ones", () => {
    expect(botaFigure("2,589.0,500")).toBe("2589.0500");
    expect(botaFigure("0.7,050")).toBe("0.7050");
    expect(botaFigure("11,817,920.42")).toBe("11817920.42");
    expect(botaFigure("2,,589.05")).toBeUndefined();
    expect(botaFigure("2589.05.1")).toBeUndefined();
    expect(botaFigure("")).toBeUndefined();
  });

  it.each([
    ["an empty body", ""],
    ["an HTTP 500 page", "<!DOCTYPE html><html><body><h1>Server Error in '/' Application.</h1></body></html>"],
    ["a form without the rates table", '<html><body><form method="post"></form></body></html>'],
    ["a truncated page", fixture("BOTA/range.html").toString().slice(0, 400)],
    ["another bank's body", '<div><table id="exchange-rates"><thead><tr><th>Currency</th></tr></thead></table></div>'],
    ["a missing Mean label", fixture("BOTA/no-mean.html").toString()],
    ["a bad date", fixture("BOTA/range.html").toString().replace("19-May-26", "2026-05-19")],
  ])("rejects %s with an error naming the bank", async (_what, body) => {
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^BOTA: /);
  });

  it("GETs the token page then POSTs the range with the token, in one session", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-05-19T09:00:00Z"));
    const http = fakeHttp(() => ({ body: fixture("BOTA/landing.html") }));
    await bota.fetch({ kind: "latest" }, { http, env: {} });
    await bota.fetch({ kind: "range", from: "2026-04-20", to: "2026-05-19" }, { http, env: {} });
    expect(http.seen.map((r) => `${r.method} ${r.url}${r.body ? ` ${r.body}` : ""}`)).toEqual([
      `GET ${URL}`,
      `POST ${URL} __RequestVerificationToken=jd5KNjc0tLCk%2BU5r%2FIqd%3D&dateFrom=05%2F12%2F2026&dateTo=05%2F19%2F2026`,
      `GET ${URL}`,
      `POST ${URL} __RequestVerificationToken=jd5KNjc0tLCk%2BU5r%2FIqd%3D&dateFrom=04%2F20%2F2026&dateTo=05%2F19%2F2026`,
    ]);
    const tokenless = fakeHttp(() => ({ body: '<html><body><form method="post"></form></body></html>' }));
    await expect(bota.fetch({ kind: "latest" }, { http: tokenless, env: {} })).rejects.toThrow(
      /^BOTA: no anti-forgery token/,
    );
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded answer exactly (values read off the file by hand)", async () => {
    const r = recording("BOTA/002.html");
    const records = await bota.parse(r.body, { url: r.url });
    expect(records).toHaveLength(42);
    expect(records[0]).toEqual({ effectiveDate: "2026-05-19", currency: "USD", rate: "2602.0545" });
    expect(records.find((x) => x.currency === "UGX")).toEqual({
      effectiveDate: "2026-05-19",
      currency: "UGX",
      rate: "0.7050",
    });
    expect(records.find((x) => x.currency === "KWD")).toEqual({
      effectiveDate: "2026-05-19",
      currency: "KWD",
      rate: "8472.3000",
    });
    expect(records.some((x) => x.currency === "RUR")).toBe(false);
    const landing = recording("BOTA/001.html");
    expect(await bota.parse(landing.body, { url: landing.url })).toEqual([]);
  });
});
