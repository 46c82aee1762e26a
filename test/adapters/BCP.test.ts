import { afterEach, describe, expect, it, vi } from "vitest";

import bcp, { BCP_CURRENCIES, BCP_CURRENCY_NAMES } from "../../adapters/BCP.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const page = (year: number, moneda: string) =>
  `https://www.bcp.gov.py/webapps/web/cotizacion/monedas-historica?anho=${year}&moneda=${moneda}`;
const parse = (body: Buffer | string, url = page(2024, "USD")) => bcp.parse(Buffer.from(body), { url });

describe("BCP adapter", () => {
  afterEach(() => vi.useRealTimers());

  it("reads the day × month matrix by position, with dot thousands and decimal commas, skipping ND", async () => {
    expect(await parse(fixture("BCP/usd-2024.html"))).toEqual([
      { effectiveDate: "2024-01-02", currency: "USD", rate: "7281.04" },
      { effectiveDate: "2024-02-01", currency: "USD", rate: "7271.63" },
      { effectiveDate: "2024-02-29", currency: "USD", rate: "7304.95" },
      { effectiveDate: "2024-12-31", currency: "USD", rate: "7880.00" },
    ]);
  });

  it("keeps gold as published (already per troy ounce)", async () => {
    expect(await parse(fixture("BCP/xau-2024.html"), page(2024, "XAU"))).toEqual([
      { effectiveDate: "2024-01-02", currency: "XAU", rate: "14865900.50" },
    ]);
  });

  it("maps every asked currency's title name to its code", () => {
    const codes = new Set(Object.values(BCP_CURRENCY_NAMES));
    expect(BCP_CURRENCIES.every((c) => codes.has(c))).toBe(true);
    expect(BCP_CURRENCY_NAMES["PERUVIAN NUEVO SOL"]).toBe("PEN");
    expect(BCP_CURRENCY_NAMES["DERECHO ESPECIAL DE GIRO"]).toBe("XDR");
  });

  it.each([
    ["an empty body", "", page(2024, "USD")],
    [
      "a Cloudflare page",
      "<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>Checking your browser</body></html>",
      page(2024, "USD"),
    ],
    ["a truncated page", fixture("BCP/usd-2024.html").toString().slice(0, 4000), page(2024, "USD")],
    ["another bank's body", '{"rates":[]}', page(2024, "USD")],
    ["a missing month label", fixture("BCP/no-month.html").toString(), page(2024, "EUR")],
    ["an unknown currency name", fixture("BCP/unknown-name.html").toString(), page(2024, "BSD")],
    ["a page of another currency than asked", fixture("BCP/usd-2024.html").toString(), page(2024, "EUR")],
    ["a page of another year than asked", fixture("BCP/usd-2024.html").toString(), page(2025, "USD")],
    ["a rate on an impossible date", fixture("BCP/bad-day.html").toString(), page(2023, "CLP")],
  ])("rejects %s with an error naming the bank", async (_what, body, url) => {
    await expect(async () => parse(body, url)).rejects.toThrow(FeedError);
    await expect(async () => parse(body, url)).rejects.toThrow(/^BCP: /);
  });

  it("asks one page per year and currency", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-05-20T20:00:00Z"));
    const http = fakeHttp(() => ({ body: "" }));
    await bcp.fetch({ kind: "latest" }, { http, env: {} });
    await bcp.fetch({ kind: "range", from: "2024-12-01", to: "2025-01-31" }, { http, env: {} });
    const urls = http.seen.map((r) => `${r.method} ${r.url}`);
    expect(urls).toHaveLength(75);
    expect(urls.slice(0, 2)).toEqual(["GET " + page(2026, "USD"), "GET " + page(2026, "EUR")]);
    expect(urls[24]).toBe("GET " + page(2026, "XAU"));
    expect(urls[25]).toBe("GET " + page(2024, "USD"));
    expect(urls[74]).toBe("GET " + page(2025, "XAU"));
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded years exactly (values read off the files by hand)", async () => {
    const usd = recording("BCP/001.html");
    const u = await bcp.parse(usd.body, { url: usd.url });
    const find = (records: typeof u, date: string) => records.find((x) => x.effectiveDate === date);
    expect(find(u, "2024-01-01")).toBeUndefined();
    expect(find(u, "2024-01-02")).toEqual({ effectiveDate: "2024-01-02", currency: "USD", rate: "7281.04" });
    expect(find(u, "2024-02-01")).toEqual({ effectiveDate: "2024-02-01", currency: "USD", rate: "7271.63" });
    expect(find(u, "2024-02-29")).toEqual({ effectiveDate: "2024-02-29", currency: "USD", rate: "7304.95" });
    expect(find(u, "2024-01-31")).toEqual({ effectiveDate: "2024-01-31", currency: "USD", rate: "7280.74" });
    const clp = recording("BCP/011.html");
    const c = await bcp.parse(clp.body, { url: clp.url });
    expect(find(c, "2024-01-02")).toEqual({ effectiveDate: "2024-01-02", currency: "CLP", rate: "8.25" });
    const aed = recording("BCP/021.html");
    expect(find(await bcp.parse(aed.body, { url: aed.url }), "2024-01-02")).toEqual({
      effectiveDate: "2024-01-02",
      currency: "AED",
      rate: "1982.58",
    });
  });
});
