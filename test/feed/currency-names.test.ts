// The kit's currency-name resolver, rule by rule, with the exact derivation each resolution records.
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { describe, expect, it } from "vitest";

import { RowProblem } from "../../src/errors.js";
import { currencyFromName, currencyOf, resolveCurrency, resolveCurrencyName } from "../../src/feed/currency-names.js";
import { editDistance, nameStems, stemWord } from "../../src/feed/name-tokens.js";
import { AnswerRows } from "../../src/feed/rows.js";
import { englishAdjectives, englishVariants, initials } from "../../src/feed/territory-forms.js";

const resolveOn = (label: string, date = "2026-03-02", locales?: string[]) =>
  resolveCurrencyName("AAA", label, { date, ...(locales ? { locales } : {}) });

/** The reason a label is held for. */
function heldFor(label: string, date = "2026-03-02"): string {
  try {
    resolveOn(label, date);
  } catch (error) {
    expect(error).toBeInstanceOf(RowProblem);
    expect((error as RowProblem).kind).toBe("unknown-currency");
    expect((error as RowProblem).fields).toEqual({ currency: label });
    return (error as RowProblem).reason;
  }
  throw new Error(`"${label}" was resolved`);
}

describe("currency names: exact", () => {
  it("takes ISO and market codes as they stand, and ICU's names folded, without a derivation", () => {
    expect(resolveOn(" EUR ")).toEqual({ currency: "EUR" });
    expect(resolveOn("CNH")).toEqual({ currency: "CNH" });
    expect(resolveOn("U.S. Dollar")).toEqual({ currency: "USD" });
    expect(resolveOn("japanese  YEN")).toEqual({ currency: "JPY" });
    expect(resolveOn("Chinese Yuan (offshore)")).toEqual({ currency: "CNH" });
  });

  it("knows ICU's plural names and its names in the bank's languages", () => {
    expect(resolveOn("Danish kroner")).toEqual({ currency: "DKK" });
    expect(resolveOn("US dollars")).toEqual({ currency: "USD" });
    expect(resolveOn("couronnes danoises", undefined, ["fr"])).toEqual({ currency: "DKK" });
    expect(resolveOn("Dollar des Etats-Unis", undefined, ["fr"])).toEqual({ currency: "USD" });
    expect(resolveOn("dólares estadounidenses", undefined, ["es"])).toEqual({ currency: "USD" });
    expect(currencyFromName("Dollar des Etats-Unis", ["fr"])).toBe("USD");
    expect(currencyFromName("Dollar des Etats-Unis")).toBeUndefined(); // French names only when asked for
  });

  it("knows ISO 4217's own names where ICU's differ", () => {
    expect(resolveOn("Pound Sterling")).toEqual({ currency: "GBP" });
    expect(resolveOn("Yuan Renminbi")).toEqual({ currency: "CNY" });
    expect(resolveOn("UAE Dirham")).toEqual({ currency: "AED" });
    expect(resolveOn("SDR")).toEqual({ currency: "XDR" });
  });

  it("takes the bank's alias after ICU's names, and only to a publishable code", () => {
    expect(resolveCurrencyName("AAA", "Stg Pound", { aliases: { "stg pound": "GBP" } })).toEqual({ currency: "GBP" });
    expect(resolveCurrencyName("AAA", "Euro", { aliases: { euro: "XEU" } })).toEqual({ currency: "EUR" }); // ICU first
    expect(() => resolveCurrencyName("AAA", "Tokens", { aliases: { tokens: "QQQ" } })).toThrow(RowProblem);
  });
});

describe("currency names: by rule, saying how", () => {
  it("normalises inflections, word order and small words", () => {
    expect(resolveOn("Danish Krona")).toEqual({
      currency: "DKK",
      derivation: 'name "Danish Krona" resolved by normalisation as "Danish Krone"',
    });
    expect(resolveOn("Dollars, U.S.")).toEqual({
      currency: "USD",
      derivation: 'name "Dollars, U.S." resolved by normalisation as "US Dollar"',
    });
    expect(resolveOn("Special Drawing Right")).toEqual({
      currency: "XDR",
      derivation: 'name "Special Drawing Right" resolved by normalisation as "Special Drawing Rights"',
    });
  });

  it("reads a territory (CLDR's name, a code, initials, an adjective) and the unit", () => {
    expect(resolveOn("U.S.A. Dollar")).toEqual({
      currency: "USD",
      derivation: 'name "U.S.A. Dollar" resolved by territory US',
    });
    expect(resolveOn("Pound Sterling (G.B.)")).toEqual({
      currency: "GBP",
      derivation: 'name "Pound Sterling (G.B.)" resolved by territory GB',
    });
    expect(resolveOn("Dollar of Canada")).toEqual({
      currency: "CAD",
      derivation: 'name "Dollar of Canada" resolved by territory CA',
    });
    expect(resolveOn("Singaporean Dollar")).toEqual({
      currency: "SGD",
      derivation: 'name "Singaporean Dollar" resolved by territory SG',
    });
    expect(resolveOn("SA Rand")).toEqual({ currency: "ZAR", derivation: 'name "SA Rand" resolved by territory ZA' });
    expect(resolveOn("Cayman Dollar")).toEqual({
      currency: "KYD",
      derivation: 'name "Cayman Dollar" resolved by territory KY',
    });
  });

  it("reads a territory alone when it had one currency, the one it had on the row's date", () => {
    expect(resolveOn("Australian")).toEqual({
      currency: "AUD",
      derivation: 'name "Australian" resolved by territory AU',
    });
    expect(resolveOn("Zimbabwe Dollar", "2015-06-01")).toEqual({
      currency: "ZWL",
      derivation: 'name "Zimbabwe Dollar" resolved by territory ZW',
    });
    expect(resolveOn("Zimbabwe Dollar", "2005-06-01")).toEqual({
      currency: "ZWD",
      derivation: 'name "Zimbabwe Dollar" resolved by territory ZW',
    });
    // Since 2024 Zimbabwe's own currency is the ZiG, no dollar: nothing fits.
    expect(heldFor("Zimbabwe Dollar", "2025-06-01")).toBe(
      'currency "Zimbabwe Dollar" is not a known ISO 4217 code or name',
    );
  });

  it("reads a unit alone when one currency in use that day is called so", () => {
    expect(resolveOn("Yen")).toEqual({
      currency: "JPY",
      derivation: 'name "Yen" resolved by unit, the one currency so called',
    });
    expect(resolveOn("Guilder", "2020-06-01")).toEqual({
      currency: "ANG",
      derivation: 'name "Guilder" resolved by unit, the one currency so called',
    });
  });

  it("reads a close misspelling of exactly one name", () => {
    expect(resolveOn("Japnese Yen")).toEqual({
      currency: "JPY",
      derivation: 'name "Japnese Yen" resolved by spelling, 1 edit from "Japanese Yen"',
    });
    expect(resolveOn("Thai Bhat")).toEqual({
      currency: "THB",
      derivation: 'name "Thai Bhat" resolved by spelling, 1 edit from "Thai Baht"',
    });
    expect(resolveOn("couronne thèque", undefined, ["fr"])).toEqual({
      currency: "CZK",
      derivation: 'name "couronne thèque" resolved by spelling, 1 edit from "couronne tchèque"',
    });
  });
});

describe("currency names: held, never guessed", () => {
  it("holds a unit many currencies share, naming them", () => {
    expect(heldFor("Dollar")).toBe(
      'currency "Dollar" fits 22 currencies by unit on 2026-03-02 (AUD, BBD, BMD, BND, BSD, BZD, CAD, FJD, GYD, HKD, JMD, KYD, LRD, NAD, NZD, SBD, SGD, SRD, TTD, TWD, USD, XCD): held, not guessed',
    );
    expect(heldFor("Riyal")).toBe(
      'currency "Riyal" fits 2 currencies by unit on 2026-03-02 (QAR, SAR): held, not guessed',
    );
    expect(heldFor("Guilder", "2025-06-01")).toBe(
      'currency "Guilder" fits 2 currencies by unit on 2025-06-01 (ANG, XCG): held, not guessed',
    );
  });

  it("holds a territory that had two currencies on that date", () => {
    expect(heldFor("Cuba", "2015-06-01")).toBe(
      'currency "Cuba" fits 2 currencies by territory CU on 2015-06-01 (CUC, CUP): held, not guessed',
    );
    // The convertible peso ended in 2021; and the unit tells the two apart on any date.
    expect(resolveOn("Cuba", "2024-06-01")).toEqual({
      currency: "CUP",
      derivation: 'name "Cuba" resolved by territory CU',
    });
    expect(resolveOn("Peso (Cuba)", "2015-06-01")).toEqual({
      currency: "CUP",
      derivation: 'name "Peso (Cuba)" resolved by territory CU',
    });
  });

  it("holds a misspelling two currencies are as close to, and names nothing fits", () => {
    expect(heldFor("Korean Won")).toBe('currency "Korean Won" is not a known ISO 4217 code or name');
    expect(heldFor("E.C. Dollar")).toBe('currency "E.C. Dollar" is not a known ISO 4217 code or name'); // EC is Ecuador
    expect(heldFor("Atlantean Drachma")).toBe('currency "Atlantean Drachma" is not a known ISO 4217 code or name');
    expect(heldFor("Tokens")).toBe('currency "Tokens" is not a known ISO 4217 code or name');
  });
});

describe("currency names in a row reader", () => {
  it("records a resolution by rule on the row's records, after any figure derivation", () => {
    const rows = new AnswerRows("AAA");
    rows.read("row 1", () => ({
      effectiveDate: "2026-03-02",
      currency: resolveCurrency("AAA", "US Dollar"),
      rate: "1",
    }));
    rows.read("row 2", () => ({
      effectiveDate: "2026-03-02",
      currency: resolveCurrency("AAA", "Danish Krona"),
      rate: "6.8",
      derivation: "mean",
    }));
    const column = resolveCurrencyName("AAA", "Yen");
    rows.read("row 3", () => ({ effectiveDate: "2026-03-02", currency: currencyOf(column), rate: "150" }));
    rows.read("row 4", () => ({ effectiveDate: "2026-03-02", currency: resolveCurrency("AAA", "Dollar"), rate: "1" }));
    expect(rows.result()).toEqual({
      records: [
        { effectiveDate: "2026-03-02", currency: "USD", rate: "1" },
        {
          effectiveDate: "2026-03-02",
          currency: "DKK",
          rate: "6.8",
          derivation: 'mean; name "Danish Krona" resolved by normalisation as "Danish Krone"',
        },
        {
          effectiveDate: "2026-03-02",
          currency: "JPY",
          rate: "150",
          derivation: 'name "Yen" resolved by unit, the one currency so called',
        },
      ],
      held: [expect.objectContaining({ kind: "unknown-currency", currency: "Dollar", source: "row 4" })],
    });
  });

  it("refuses a resolution by rule outside a row reader, where no record could carry it", () => {
    expect(resolveCurrency("AAA", "Pound Sterling")).toBe("GBP"); // exact: nothing to carry
    expect(() => resolveCurrency("AAA", "Danish Krona")).toThrow(/resolved only by rule .* outside a row/);
  });
});

describe("name normalisation", () => {
  it("joins abbreviations, drops small words and meets inflections on one stem", () => {
    expect(nameStems("U.S.A. Dollars")).toEqual(["usa", "dollar"]);
    expect(nameStems("Pound Sterling (G. B.)")).toEqual(["pound", "sterling", "gb"]);
    expect(nameStems("dirham des Émirats arabes unis")).toEqual(["dirham", "emirat", "arab", "unis"]);
    expect(["krone", "krona", "kroner", "kronor", "krónur"].map((w) => stemWord(nameStems(w)[0]!))).toEqual(
      Array(5).fill("kron"),
    );
    expect(["couronnes", "couronne"].map(stemWord)).toEqual(["couronn", "couronn"]);
    expect(["bolivares", "bolivar"].map(stemWord)).toEqual(["bolivar", "bolivar"]);
    expect(stemWord("swiss")).toBe("swiss");
  });

  it("counts edits, a swap of two letters as one, and stops past the limit", () => {
    expect(editDistance("bhat", "baht", 2)).toBe(1);
    expect(editDistance("japnese", "japanese", 2)).toBe(1);
    expect(editDistance("phillipin", "philippin", 2)).toBe(2);
    expect(editDistance("chinese", "yuan", 2)).toBe(3);
  });

  it("derives territory forms by rule", () => {
    expect(englishAdjectives("singapore")).toContain("singaporean");
    expect(englishAdjectives("kenya")).toContain("kenyan");
    expect(englishAdjectives("pakistan")).toContain("pakistani");
    expect(englishAdjectives("saudi arabia")).toContain("saudi arabian");
    expect(englishAdjectives("mexico")).toContain("mexican");
    expect(englishVariants(["cayman", "islands"])).toEqual([["cayman"]]);
    expect(englishVariants(["dominican", "republic"])).toEqual([["dominican", "rep"]]);
    expect(initials(["united", "arab", "emirates"])).toBe("uae");
    expect(initials(["canada"])).toBeUndefined();
  });
});

describe("the resolver stays out of the server", () => {
  const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
  /** Every module reachable by static imports (not `import type`, not `await import()`) from `entry`. */
  function reachable(entry: string): Set<string> {
    const seen = new Set([entry]);
    const queue = [entry];
    // Static imports, and dynamic ones too: a route's module imported at its first request is still
    // loaded by the server.
    const statement =
      /^\s*(?:import|export)\s+(?!type\b)(?:[^;"']*?\sfrom\s+)?["'](\.[^"']+)["']|\bimport\(\s*["'](\.[^"']+)["']\s*\)/gm;
    while (queue.length) {
      const file = queue.shift()!;
      for (const [, fromStatement, fromCall] of readFileSync(file, "utf8").matchAll(statement)) {
        const spec = fromStatement ?? fromCall;
        const target = resolve(dirname(file), spec!.replace(/\.js$/, ".ts"));
        if (!existsSync(target) || seen.has(target)) continue;
        seen.add(target);
        queue.push(target);
      }
    }
    return seen;
  }

  it("is not imported by `exrates serve`, not even lazily (the CLDR territory data are loaded only on a name's first rule)", () => {
    const modules = reachable(resolve(ROOT, "src/cli/commands/serve.ts"));
    expect(modules.has(resolve(ROOT, "src/feed/currency.ts"))).toBe(true); // the walk reaches the feed kit's codes
    for (const module of ["currency-names.ts", "cldr-territories.ts", "territory-forms.ts", "name-tokens.ts"])
      expect(modules.has(resolve(ROOT, "src/feed", module)), module).toBe(false);
  });
});
