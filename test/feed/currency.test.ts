import { describe, expect, it, vi } from "vitest";

import {
  currencyName,
  isIsoCurrency,
  isoCurrencyCodes,
  isPublishableCurrency,
  requireCurrencyCode,
} from "../../src/feed/currency.js";
import { foldName } from "../../src/feed/fold.js";
import { MARKET_CODES, marketCode } from "../../src/feed/market-codes.js";

describe("currency codes from ICU", () => {
  it("knows current and historical ISO 4217 codes, metals and units, and nothing else", () => {
    for (const code of ["USD", "EUR", "XAU", "XAG", "XDR", "DEM", "VEF", "MRO", "SLE", "ZWG"])
      expect(isIsoCurrency(code), code).toBe(true);
    for (const code of ["CNH", "XXX", "XTS", "QQQ", "usd", "US"]) expect(isIsoCurrency(code), code).toBe(false);
    expect(isoCurrencyCodes().size).toBeGreaterThan(250);
  });

  it("answers a code alone as the whole list does, for every three letters and a few odd inputs", async () => {
    vi.resetModules(); // a fresh module: nothing asked yet, the whole list not built
    const fresh = await import("../../src/feed/currency.js");
    const A = 65;
    const codes = ["usd", "US", "USDX", "", " EUR", "E5", "CNH", "XXX"];
    for (let i = 0; i < 26 ** 3; i++)
      codes.push(String.fromCharCode(A + Math.floor(i / 676), A + (Math.floor(i / 26) % 26), A + (i % 26)));
    const alone = codes.filter((code) => fresh.isIsoCurrency(code));
    const all = fresh.isoCurrencyCodes();
    expect(alone).toEqual(codes.filter((code) => all.has(code)));
    expect(alone.length).toBe(all.size);
  });

  it("names a currency in English (or another locale)", () => {
    expect(currencyName("CHF")).toBe("Swiss Franc");
    expect(currencyName("USD", "fr")).toBe("dollar des États-Unis");
    expect(currencyName("QQQ")).toBeUndefined();
  });

  it("publishes ISO codes and the market codes, CNH the only one so far, with its note", () => {
    expect([...MARKET_CODES.keys()]).toEqual(["CNH"]);
    expect(marketCode("CNH")).toMatchObject({ code: "CNH", name: "Chinese Yuan (offshore)" });
    expect(marketCode("CNH")!.note).toMatch(/offshore yuan.*not an ISO 4217 code.*CNY/);
    expect(marketCode("CNY")).toBeUndefined();
    expect(isPublishableCurrency("CNH")).toBe(true);
    expect(isPublishableCurrency("USD")).toBe(true);
    for (const code of ["CNX", "XTS", "XXX", "QQQ", "cnh"]) expect(isPublishableCurrency(code), code).toBe(false);
  });

  it("takes a code column's ISO and market codes and holds anything else", () => {
    expect(requireCurrencyCode("AAA", " usd ")).toBe("USD");
    expect(requireCurrencyCode("AAA", "CNH")).toBe("CNH");
    expect(() => requireCurrencyCode("AAA", "QQQ")).toThrow(
      /^AAA: currency code "QQQ" is neither ISO 4217 nor a market code$/,
    );
    expect(() => requireCurrencyCode("AAA", "XTS")).toThrow(/neither ISO 4217 nor a market code/);
  });

  it("folds accents, case and punctuation", () => {
    expect(foldName("  Dólar  E.U.A. ")).toBe("dolar e u a");
    expect(foldName("FÉVRIER")).toBe("fevrier");
  });
});
