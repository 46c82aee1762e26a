import { describe, expect, it } from "vitest";

import cbn, { CBN_CURRENCY_NAMES, cbnCurrency } from "../../adapters/CBN.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const parse = (body: Buffer | string) =>
  cbn.parse(Buffer.from(body), { url: "https://www.cbn.gov.ng/api/GetAllExchangeRates" });

describe("CBN adapter", () => {
  it("takes centralrate, maps the currency names (spacing and case variants), drops WAUA and empty figures", async () => {
    expect(await parse(fixture("CBN/GetAllExchangeRates.json"))).toEqual([
      { effectiveDate: "2026-05-19", currency: "USD", rate: "1373.3717" },
      { effectiveDate: "2026-05-19", currency: "GBP", rate: "1840.6000" },
      { effectiveDate: "2026-05-19", currency: "XOF", rate: "2.4284" },
      { effectiveDate: "2026-05-19", currency: "XDR", rate: "1874.5" },
      { effectiveDate: "2002-01-02", currency: "JPY", rate: "0.8895" },
      { effectiveDate: "2026-05-18", currency: "SAR", rate: "365.9690" },
    ]);
  });

  it("maps every name of its table to a three-letter code, and knows the published variants", () => {
    for (const code of Object.values(CBN_CURRENCY_NAMES)) expect(code).toMatch(/^[A-Z]{3}$/);
    expect(cbnCurrency("DANISH KRONA")).toBe("DKK");
    expect(cbnCurrency("danish  kroner")).toBe("DKK");
    expect(cbnCurrency("YEN")).toBe("JPY");
    expect(cbnCurrency("POUNDS STERLING")).toBe("GBP");
    expect(cbnCurrency("YUAN/RENMINBI")).toBe("CNY");
    expect(cbnCurrency("UAE DIRHAM")).toBe("AED");
    expect(cbnCurrency("SOUTH AFRICAN RAND")).toBe("ZAR");
    expect(cbnCurrency("SWISS FRANC")).toBe("CHF");
    expect(cbnCurrency("EURO")).toBe("EUR");
    expect(cbnCurrency("NAIRA")).toBeUndefined();
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<!DOCTYPE html><html><body>The page cannot be displayed</body></html>"],
    ["truncated JSON", '[{"id":1,"currency":"US DOLLAR","ratedate":"2026-05-19","centralrate":"1373.3'],
    ["another bank's body", '{"success":true,"data":[]}'],
    ["an unknown currency name", '[{"currency":"GHANA CEDI","ratedate":"2026-05-19","centralrate":"100.1"}]'],
    ["a bad date", '[{"currency":"EURO","ratedate":"19/05/2026","centralrate":"1593.9352"}]'],
    ["a non-decimal figure", '[{"currency":"EURO","ratedate":"2026-05-19","centralrate":"N/A"}]'],
    ["a misplaced group separator", '[{"currency":"EURO","ratedate":"2026-05-19","centralrate":"15,93.9352"}]'],
  ])("rejects %s with an error naming the bank", async (_what, body) => {
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^CBN: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("CBN/001.json");
    const records = await cbn.parse(r.body, { url: r.url });
    expect(records).toHaveLength(48); // 13 names on 4 days, WAUA dropped
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    expect(find("2026-05-19", "USD")).toEqual({ effectiveDate: "2026-05-19", currency: "USD", rate: "1373.3717" });
    expect(find("2026-05-19", "XOF")).toEqual({ effectiveDate: "2026-05-19", currency: "XOF", rate: "2.4284" });
    expect(find("2026-05-19", "CNY")).toEqual({ effectiveDate: "2026-05-19", currency: "CNY", rate: "201.7321" });
    expect(find("2026-05-19", "EUR")).toEqual({ effectiveDate: "2026-05-19", currency: "EUR", rate: "1593.9352" });
    expect(find("2026-05-14", "USD")).toEqual({ effectiveDate: "2026-05-14", currency: "USD", rate: "1370.3862" });
  });

  it("asks the one whole-history endpoint", async () => {
    const http = fakeHttp(() => ({ body: "[]" }));
    await cbn.fetch({ kind: "latest" }, { http, env: {} });
    await cbn.fetch({ kind: "range", from: "2020-01-01", to: "2020-12-31" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([
      "https://www.cbn.gov.ng/api/GetAllExchangeRates",
      "https://www.cbn.gov.ng/api/GetAllExchangeRates",
    ]);
  });
});
