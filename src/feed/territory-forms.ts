// How a currency label may name a territory, beyond CLDR's own names for it: the adjective ("Norwegian"
// for Norway), an abbreviation ("U.S.A.", "UK", "UAE") or the territory's code. CLDR has no adjectives
// (demonyms), so they are derived: from ICU's English currency names (the words before the unit:
// "Danish" from "Danish Krone", see currency-names.ts), by the suffix rules of English below
// ("Singapore" gives "Singaporean", "Kenya" "Kenyan", "Pakistan" "Pakistani"), and from the short list
// EXTRA_FORMS for what neither covers. A rule may make a word no one uses ("Canadan"): harmless, as a
// form only ever matches a label that uses it, and two territories one form fits are told apart by the
// currency's unit or held as ambiguous.

/**
 * English adjectives of a territory name by suffix rules, on its last word: -a and -ia take -n (Kenya,
 * Australia, Saudi Arabia), -o becomes -an (Mexico), -e takes -an (Singapore, Chile, Zimbabwe), -y
 * becomes -ian (Hungary), -an and -on take or become -ese (Japan, Sudan, Lebanon), -al takes -ese
 * (Nepal, Senegal), and other consonants take -i, -ian or -ese (Pakistan, Israel, Egypt, Brazil).
 */
export function englishAdjectives(name: string): string[] {
  const m = /^(.*?)([a-z]+)$/.exec(name);
  if (!m) return [];
  const [, head, last] = m as unknown as [string, string, string];
  const out = new Set<string>();
  const add = (word: string) => out.add(head + word);
  if (last.endsWith("a")) add(`${last}n`);
  else if (last.endsWith("o")) add(`${last.slice(0, -1)}an`);
  else if (last.endsWith("e")) add(`${last}an`);
  else if (last.endsWith("y")) add(`${last.slice(0, -1)}ian`);
  else if (/[^aeiou]$/.test(last)) {
    if (last.endsWith("on")) add(`${last.slice(0, -2)}ese`);
    if (/(?:an|al)$/.test(last)) add(`${last}ese`);
    for (const suffix of ["i", "ian", "ese"]) add(last + suffix);
  }
  out.delete(name);
  return [...out];
}

/**
 * Territory names and adjectives that neither CLDR nor a rule gives, each with why. Keys are territory
 * codes; the forms are matched like any other (folded, inflections aside).
 */
export const EXTRA_FORMS: Readonly<Record<string, readonly string[]>> = {
  // CLDR names it "United States" and "US"; labels also say America, and the full name.
  US: ["America", "American", "United States of America"],
  // CLDR names it "United Kingdom" and "UK"; "Britain" and "Great Britain" are what labels use ("GB" is its code).
  GB: ["Britain", "Great Britain"],
  // The common English name of the Netherlands, used by older labels ("Holland Guilder").
  NL: ["Holland"],
};

/**
 * Shorter forms labels use for an English territory name (folded words): without a final "Islands" or
 * "Island" ("Cayman Dollar"), and "Rep" for "Republic" ("Dominican Rep. Peso").
 */
export function englishVariants(words: readonly string[]): string[][] {
  const out: string[][] = [];
  if (words.length >= 2 && /^islands?$/.test(words.at(-1)!)) out.push(words.slice(0, -1));
  if (words.includes("republic")) out.push(words.map((w) => (w === "republic" ? "rep" : w)));
  return out;
}

/** The initials of a name of two words or more: "United Arab Emirates" gives "uae". */
export function initials(words: readonly string[]): string | undefined {
  return words.length >= 2 ? words.map((w) => w[0]).join("") : undefined;
}
