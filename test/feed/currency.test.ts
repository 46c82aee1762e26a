import { describe, expect, it } from "vitest";

import { RowProblem } from "../../src/errors.js";
import {
  currencyFromName,
  currencyName,
  isIsoCurrency,
  isoCurrencyCodes,
  requireCurrencyCode,
  resolveCurrency,
} from "../../src/feed/currency.js";
import { foldName } from "../../src/feed/fold.js";

describe("currency codes from ICU", () => {
  it("knows current and historical ISO 4217 codes, metals and units, and nothing else", () => {
    for (const code of ["USD", "EUR", "XAU", "XAG", "XDR", "DEM", "VEF", "MRO", "SLE", "ZWG"])
      expect(isIsoCurrency(code), code).toBe(true);
    for (const code of ["CNH", "XXX", "XTS", "QQQ", "usd", "US"]) expect(isIsoCurrency(code), code).toBe(false);
    expect(isoCurrencyCodes().size).toBeGreaterThan(250);
  });

  it("names a currency in English (or another locale)", () => {
    expect(currencyName("CHF")).toBe("Swiss Franc");
    expect(currencyName("USD", "fr")).toBe("dollar des États-Unis");
    expect(currencyName("QQQ")).toBeUndefined();
  });

  it("resolves labels through ICU's names, folded, before the bank's aliases", () => {
    expect(currencyFromName("U.S. Dollar")).toBe("USD");
    expect(currencyFromName("japanese  YEN")).toBe("JPY");
    expect(currencyFromName("Dollar des Etats-Unis", ["fr"])).toBe("USD");
    expect(currencyFromName("Pound Sterling")).toBeUndefined();
    expect(resolveCurrency("AAA", "Pound Sterling", { aliases: { "pound sterling": "GBP" } })).toBe("GBP");
    expect(resolveCurrency("AAA", " EUR ")).toBe("EUR");
    expect(resolveCurrency("AAA", "Euro", { aliases: { euro: "XEU" } })).toBe("EUR"); // ICU first
  });

  it("holds a label nobody knows, or an alias to a code that is not ISO", () => {
    expect(() => resolveCurrency("AAA", "Tokens")).toThrow(RowProblem);
    expect(() => resolveCurrency("AAA", "Offshore yuan", { aliases: { "offshore yuan": "CNH" } })).toThrow(
      /not a known ISO 4217 code or name/,
    );
    expect(requireCurrencyCode("AAA", "usd")).toBe("USD");
    expect(() => requireCurrencyCode("AAA", "CNH")).toThrow(/"CNH" is not ISO 4217/);
  });

  it("folds accents, case and punctuation", () => {
    expect(foldName("  Dólar  E.U.A. ")).toBe("dolar e u a");
    expect(foldName("FÉVRIER")).toBe("fevrier");
  });
});
