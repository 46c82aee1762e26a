// Currency names to codes, by rule and with evidence: one resolver for every adapter.
//
// A label is tried, in order, as:
// 1. an ISO 4217 code or a market code as it stands (`USD`, `CNH`);
// 2. a name ICU gives the currency, in English or in the bank's languages, singular or plural (`US
//    Dollar`, `Danish kroner`, `couronnes danoises`), or ISO 4217's own name where ICU's differs
//    (`Pound Sterling`), folded for case, accents, spacing and punctuation; then the bank's alias table;
// 3. such a name once inflections, abbreviations and small words are normalised (`Danish Krona`,
//    `Dollars des Etats Unis`; name-tokens.ts);
// 4. a territory and a unit (`U.S.A. Dollar`, `Pound Sterling (G.B.)`, `Norwegian Kroner`): the
//    territory by CLDR's names, its adjective or code (territory-forms.ts), the currency the one that
//    territory used on the row's date (CLDR's currency data), among those called by that unit; a
//    territory alone (`Australian`) when it had one currency;
// 5. a unit alone (`Yen`) when exactly one currency in use on that date is called so;
// 6. a close misspelling of exactly one currency's name (`Japnese Yen`; name-tokens.ts, editsAllowed).
// Steps 1 and 2 are exact. Any later step records how the name was resolved (`derivation`:
// `name "U.S.A. Dollar" resolved by territory US`). A label two currencies fit (`Dollar`; a territory that
// had two currencies on that date) is held with the candidates named, never guessed; so is one nothing fits.
import { RowProblem } from "../errors.js";
import type { IsoDate, NameDerivation } from "../types.js";
import { alpha3Codes, currencyEra, currencyUses, inUse, territoryNames, type CurrencyUse } from "./cldr-territories.js";
import { isIsoCurrency, isoCurrencyCodes, isPublishableCurrency } from "./currency.js";
import { foldName } from "./fold.js";
import { MARKET_CODES } from "./market-codes.js";
import { editDistance, editsAllowed, nameStems, nameWords, stemKey } from "./name-tokens.js";
import { noteNameDerivation } from "./rows.js";
import { EXTRA_FORMS, englishAdjectives, englishVariants, initials } from "./territory-forms.js";

/**
 * ISO 4217's own English names where ICU's name differs and no rule reaches it (the standard's list
 * names GBP "Pound Sterling", CNY "Yuan Renminbi"): exact names, like ICU's.
 */
const ISO_NAMES: Readonly<Record<string, readonly string[]>> = {
  AED: ["UAE Dirham"],
  CNY: ["Yuan Renminbi"],
  GBP: ["Pound Sterling"],
  ILS: ["New Israeli Sheqel"],
  VES: ["Bolívar Soberano"],
  XAF: ["CFA Franc BEAC"],
  XDR: ["SDR (Special Drawing Right)", "SDR"], // "SDR" alone: the IMF's and the standard's abbreviation
  XOF: ["CFA Franc BCEAO"],
};

export interface CurrencyNameOptions {
  /** The bank's own labels, folded with foldName, mapped to codes: checked after ICU's exact names. */
  aliases?: Readonly<Record<string, string>>;
  /** The bank's languages whose ICU and CLDR names to try, beside English (always tried last). */
  locales?: readonly string[];
  /** The row's date: which currency a territory used then. Without it, the currencies in use now. */
  date?: IsoDate;
}

/** @deprecated the former name of CurrencyNameOptions. */
export type CurrencyLabels = CurrencyNameOptions;

/** A label's currency, and how it was found when that was not exact. */
export interface CurrencyResolution {
  currency: string;
  derivation?: NameDerivation;
}

/** One name a currency is known by, cut into stems. */
interface KnownName {
  code: string;
  text: string;
  stems: string[];
}

/** What a label matched by territory: the currency, the territory and the form of its name used. */
interface TerritoryMatch {
  code: string;
  territory: string;
}

// ------------------------------------------------------------------ ICU's names (steps 2, 3, 6)

/** The names ICU gives a code in each plural category of a locale ("Danish kroner"), besides its display name. */
function pluralNames(code: string, locale: string, samples: number[]): string[] {
  const names = new Set<string>();
  for (const n of samples) {
    const format = new Intl.NumberFormat(locale, {
      style: "currency",
      currency: code,
      currencyDisplay: "name",
      maximumFractionDigits: Number.isInteger(n) ? 0 : 1,
    });
    const part = format.formatToParts(n).find((p) => p.type === "currency");
    if (part) names.add(part.value.trim());
  }
  return [...names];
}

/** One number of each plural category of a locale (1 for `one`, 2 for `two`, 1.5 for a fractional `other`...). */
function pluralSamples(locale: string): number[] {
  const rules = new Intl.PluralRules(locale);
  const seen = new Map<string, number>();
  for (const n of [1, 2, 3, 5, 11, 21, 22, 25, 100, 101, 1000000, 1.5, 0]) {
    const category = rules.select(n);
    if (!seen.has(category)) seen.set(category, n);
  }
  return [...seen.values()];
}

/** The publishable codes ICU names, current codes first (a historical code sharing a name loses). */
function namedCodes(): string[] {
  const current = new Set(Intl.supportedValuesOf("currency"));
  return [...isoCurrencyCodes(), ...MARKET_CODES.keys()].sort(
    (a, b) => Number(current.has(b)) - Number(current.has(a)),
  );
}

type NameKind = "display" | "plural";
const namesByLocale = new Map<string, KnownName[]>();

/**
 * The names ICU gives the publishable codes in a locale: their display names ("US Dollar"), or their
 * names in each plural category ("US dollars"), built apart because the plural ones cost a formatter
 * per code and are needed only when a display name did not match.
 */
function namesIn(locale: string, kind: NameKind): KnownName[] {
  const key = `${kind} ${locale}`;
  let names = namesByLocale.get(key);
  if (names) return names;
  names = [];
  const display = new Intl.DisplayNames(locale, { type: "currency", fallback: "none" });
  const samples = kind === "plural" ? pluralSamples(locale) : [];
  for (const code of namedCodes()) {
    const name = display.of(code);
    if (name === undefined) continue;
    const texts = kind === "display" ? [name] : pluralNames(code, locale, samples).filter((t) => t !== name);
    for (const text of texts) names.push({ code, text, stems: nameStems(text) });
  }
  namesByLocale.set(key, names);
  return names;
}

/** Every name ICU gives the codes in a locale, display and plural. */
const allNamesIn = (locale: string): KnownName[] => [...namesIn(locale, "display"), ...namesIn(locale, "plural")];

/** ISO 4217's names (ISO_NAMES), locale-independent. */
const isoNames = (): KnownName[] =>
  Object.entries(ISO_NAMES).flatMap(([code, texts]) => texts.map((text) => ({ code, text, stems: nameStems(text) })));

const spaceless = (label: string) => foldName(label).replaceAll(" ", "");

const exactByLocale = new Map<string, Map<string, string>>();

/** Folded name (spaces dropped, so that "U.S. Dollar" meets "US Dollar") to code; current codes win. */
function exactNames(locale: string, kind: NameKind): Map<string, string> {
  const key = `${kind} ${locale}`;
  let exact = exactByLocale.get(key);
  if (exact) return exact;
  exact = new Map();
  for (const n of [...namesIn(locale, kind), ...(locale === "en" && kind === "display" ? isoNames() : [])]) {
    const folded = spaceless(n.text);
    if (!exact.has(folded)) exact.set(folded, n.code);
  }
  exactByLocale.set(key, exact);
  return exact;
}

const withEnglish = (locales: readonly string[] = []) => [...new Set([...locales, "en"])];

/**
 * The code of a label by ICU's names (display names, then plural ones) and ISO 4217's, exactly, folded:
 * `US Dollar`, `u.s. dollar`, `Euro`, `Danish kroner`; with `["fr"]`, `Dollar des États-Unis`. English
 * is always tried last. Undefined when no name matches.
 */
export function currencyFromName(label: string, locales: readonly string[] = ["en"]): string | undefined {
  const key = spaceless(label);
  for (const kind of ["display", "plural"] as const)
    for (const locale of withEnglish(locales)) {
      const code = exactNames(locale, kind).get(key);
      if (code !== undefined) return code;
    }
  return undefined;
}

// ------------------------------------------------------------------ territories (steps 4, 5)

/** A currency's own territory: the one whose code its code starts with (US for USD, EU for EUR), if any. */
function ownTerritory(code: string): string | undefined {
  const t = code.slice(0, 2);
  return currencyUses()
    .get(t)
    ?.some((u) => u.code === code)
    ? t
    : undefined;
}

let usedBy: Map<string, Set<string>> | undefined;

/** Currency code to the territories CLDR lists it for. */
function territoriesUsing(): Map<string, Set<string>> {
  if (usedBy) return usedBy;
  usedBy = new Map();
  for (const [territory, uses] of currencyUses())
    for (const u of uses) usedBy.set(u.code, (usedBy.get(u.code) ?? new Set()).add(territory));
  return usedBy;
}

/** A currency no territory owns but several use (XOF, XAF, XCD): any of them may name it. */
const stateless = (code: string) => ownTerritory(code) === undefined && territoriesUsing().has(code);

/** The currencies a territory used as legal tender on the date that are its own or stateless ones. */
function territoryCurrencies(territory: string, date: IsoDate | undefined): CurrencyUse[] {
  return (currencyUses().get(territory) ?? []).filter(
    (u) => u.tender && inUse(u, date) && (ownTerritory(u.code) === territory || stateless(u.code)),
  );
}

/** True when some territory used the currency as legal tender on the date, or none lists it at all (XDR, XAU). */
function eligible(code: string, date: IsoDate | undefined): boolean {
  const territories = territoriesUsing().get(code);
  if (!territories) return isIsoCurrency(code) || MARKET_CODES.has(code);
  for (const t of territories)
    if (
      currencyUses()
        .get(t)!
        .some((u) => u.code === code && u.tender && inUse(u, date))
    )
      return true;
  return false;
}

/** What the territory step knows for a set of locales: territory forms, and units per currency. */
interface TerritoryIndex {
  /** Stem key of a form (name, adjective, code, initials) to the territories it names. */
  forms: Map<string, Set<string>>;
  /** The longest form, in stems. */
  longest: number;
  /** Currency code to the stem keys of its units ("dollar", "pound sterling"). */
  units: Map<string, Set<string>>;
  /** Unit stem key to the codes called so. */
  unitCodes: Map<string, Set<string>>;
  /** Adjective-and-unit names of the currencies (for misspellings): "Norwegian" + "krone". */
  spelled: KnownName[];
}

const territoryIndexes = new Map<string, TerritoryIndex>();

function addTo<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  if (set) set.add(value);
  else map.set(key, new Set([value]));
}

/** The English adjective of a territory from ICU's names of its own tender currencies ("danish" for DK). */
function minedAdjective(territory: string, english: KnownName[]): string[] | undefined {
  const own = (currencyUses().get(territory) ?? []).filter((u) => u.tender && ownTerritory(u.code) === territory);
  const names = own.flatMap((u) => {
    const n = english.find((k) => k.code === u.code);
    return n ? [nameStems(n.text.replace(/\s*\(.*\)\s*$/, ""))] : [];
  });
  if (names.length === 0) return undefined;
  // The names that start alike (most of them): their common start, leaving each at least its unit.
  const byFirst = new Map<string, string[][]>();
  for (const n of names) byFirst.set(n[0]!, [...(byFirst.get(n[0]!) ?? []), n]);
  const group = [...byFirst.values()].sort((a, b) => b.length - a.length)[0]!;
  const shortest = Math.min(...group.map((n) => n.length));
  let common = 0;
  while (common < shortest - 1 && group.every((n) => n[common] === group[0]![common])) common++;
  return common > 0 ? group[0]!.slice(0, common) : undefined;
}

/** Removes `part` from `stems` where it stands as a run; undefined when it is not there. */
function without(stems: readonly string[], part: readonly string[]): string[] | undefined {
  for (let i = 0; i + part.length <= stems.length; i++)
    if (part.every((p, k) => stems[i + k] === p)) return [...stems.slice(0, i), ...stems.slice(i + part.length)];
  return undefined;
}

/** The forms a territory's name takes in labels: CLDR's names, adjectives, codes, initials, EXTRA_FORMS. */
function territoryForms(territory: string, locales: readonly string[], english: KnownName[]): string[][] {
  const forms: string[][] = [];
  const add = (text: string) => {
    const stems = nameStems(text);
    if (stems.length) forms.push(stems);
  };
  for (const locale of locales)
    for (const name of territoryNames(locale)?.get(territory) ?? []) {
      add(name);
      add(name.replace(/\s*\(.*\)/, ""));
      if (locale === "en") {
        const words = nameWords(name);
        const short = initials(words);
        if (short) add(short);
        for (const variant of englishVariants(words)) add(variant.join(" "));
        for (const adjective of englishAdjectives(words.join(" "))) add(adjective);
      }
    }
  add(territory);
  for (const [alpha3, alpha2] of alpha3Codes()) if (alpha2 === territory) add(alpha3);
  for (const extra of EXTRA_FORMS[territory] ?? []) add(extra);
  const mined = minedAdjective(territory, english);
  if (mined) forms.push(mined);
  return forms;
}

/**
 * The unit stems of a known name of a currency: the name less its territory's form, if it holds one,
 * and less the years ICU adds to a former currency's name ("Zimbabwean Dollar (2009–2024)"): the date
 * of the row already says which of a territory's currencies was in use.
 */
function unitOf(name: KnownName, forms: readonly string[][], whole: boolean): string[] | undefined {
  const stems = name.stems.filter((s) => !/^\d+$/.test(s));
  for (const form of [...forms].sort((a, b) => b.length - a.length)) {
    const rest = without(stems, form);
    if (rest && rest.length) return rest;
  }
  return whole ? stems : undefined;
}

function buildTerritoryIndex(locales: readonly string[]): TerritoryIndex {
  const index: TerritoryIndex = { forms: new Map(), longest: 0, units: new Map(), unitCodes: new Map(), spelled: [] };
  const english = namesIn("en", "display");
  const formsOf = new Map<string, string[][]>();
  for (const territory of currencyUses().keys()) {
    const forms = territoryForms(territory, locales, english);
    formsOf.set(territory, forms);
    for (const form of forms) {
      addTo(index.forms, stemKey(form), territory);
      index.longest = Math.max(index.longest, form.length);
    }
  }
  const known = [...locales.flatMap(allNamesIn), ...isoNames()];
  const unitsOf = new Map<string, Map<string, string[]>>();
  for (const name of known) {
    const own = ownTerritory(name.code);
    let unit: string[] | undefined;
    if (own) unit = unitOf(name, formsOf.get(own)!, name.text === ISO_NAMES[name.code]?.[0] || name.stems.length === 1);
    else if (stateless(name.code) && english.includes(name)) unit = name.stems.slice(-1);
    if (!unit) continue;
    addTo(index.units, name.code, stemKey(unit));
    addTo(index.unitCodes, stemKey(unit), name.code);
    if (own) unitsOf.set(name.code, (unitsOf.get(name.code) ?? new Map<string, string[]>()).set(unit.join(" "), unit));
  }
  // Every form of a currency's own territory with each of its units, for misspellings ("Singaporian Dollar").
  for (const [code, units] of unitsOf)
    for (const form of formsOf.get(ownTerritory(code)!)!)
      for (const unit of units.values())
        index.spelled.push({ code, text: [...form, ...unit].join(" "), stems: [...form, ...unit] });
  return index;
}

function territoryIndex(locales: readonly string[]): TerritoryIndex {
  const key = locales.join(",");
  let index = territoryIndexes.get(key);
  if (!index) territoryIndexes.set(key, (index = buildTerritoryIndex(locales)));
  return index;
}

/** Step 4: every currency a territory named in the label used on the date, whose unit is the rest of the label. */
function byTerritory(stems: readonly string[], index: TerritoryIndex, date: IsoDate | undefined): TerritoryMatch[] {
  const matches: TerritoryMatch[] = [];
  for (let length = Math.min(index.longest, stems.length); length >= 1; length--)
    for (let start = 0; start + length <= stems.length; start++) {
      const territories = index.forms.get(stemKey(stems.slice(start, start + length)));
      if (!territories) continue;
      const rest = stemKey([...stems.slice(0, start), ...stems.slice(start + length)]);
      for (const territory of territories)
        for (const use of territoryCurrencies(territory, date))
          if (rest === "" || index.units.get(use.code)?.has(rest))
            if (!matches.some((m) => m.code === use.code)) matches.push({ code: use.code, territory });
    }
  return matches;
}

// ------------------------------------------------------------------ resolution

class Ambiguous extends Error {
  constructor(
    readonly codes: string[],
    readonly how: string,
  ) {
    super(how);
  }
}

/** One code from candidates, or an Ambiguous naming them, or undefined for none. */
function single(codes: Iterable<string>, how: string): string | undefined {
  const unique = [...new Set(codes)].sort();
  if (unique.length > 1) throw new Ambiguous(unique, how);
  return unique[0];
}

/** Step 3: a known name once normalised (order, inflection, abbreviation, small words). */
function byNormalisedName(stems: string[], known: KnownName[], date: IsoDate | undefined): KnownName | undefined {
  const key = stemKey(stems);
  const hits = known.filter((n) => stemKey(n.stems) === key && eligible(n.code, date));
  const code = single(
    hits.map((n) => n.code),
    "normalised name",
  );
  return code === undefined ? undefined : hits.find((n) => n.code === code);
}

/** Step 6: names within the edits each word allows, word by word (same number of words). */
function byMisspelling(
  stems: string[],
  known: KnownName[],
  date: IsoDate | undefined,
): [KnownName, number] | undefined {
  const found: Array<[KnownName, number]> = [];
  for (const name of known) {
    if (name.stems.length !== stems.length) continue;
    let total = 0;
    for (let i = 0; i < stems.length && total <= 2; i++) {
      const allowed = Math.min(editsAllowed(stems[i]!), 2 - total);
      const edits = editDistance(stems[i]!, name.stems[i]!, allowed);
      total = edits > allowed ? 3 : total + edits;
    }
    if (total > 0 && total <= 2 && eligible(name.code, date)) found.push([name, total]);
  }
  const code = single(
    found.map(([n]) => n.code),
    "misspelling",
  );
  return code === undefined ? undefined : found.filter(([n]) => n.code === code).sort((a, b) => a[1] - b[1])[0];
}

/** Steps 3 to 6 for one label; a resolution with its derivation, or undefined. Throws Ambiguous. */
function byRule(label: string, locales: readonly string[], date: IsoDate | undefined): CurrencyResolution | undefined {
  const stems = nameStems(label);
  if (stems.length === 0) return undefined;
  const quoted = `name "${label}" resolved by` as const;
  const known = [...locales.flatMap(allNamesIn), ...isoNames()];
  const named = byNormalisedName(stems, known, date);
  if (named) return { currency: named.code, derivation: `${quoted} normalisation as "${named.text}"` };
  const index = territoryIndex(locales);
  const matches = byTerritory(stems, index, date);
  const territorial = single(
    matches.map((m) => m.code),
    `territory ${[...new Set(matches.map((m) => m.territory))].join(", ")}`,
  );
  if (territorial) {
    const { territory } = matches[0]!;
    return { currency: territorial, derivation: `${quoted} territory ${territory}` };
  }
  const unit = single(
    [...(index.unitCodes.get(stemKey(stems)) ?? [])].filter((c) => eligible(c, date) && territoriesUsing().has(c)),
    "unit",
  );
  if (unit) return { currency: unit, derivation: `${quoted} unit, the one currency so called` };
  const misspelt = byMisspelling(stems, [...known, ...index.spelled], date);
  if (misspelt) {
    const [name, edits] = misspelt;
    return {
      currency: name.code,
      derivation: `${quoted} spelling, ${edits} edit${edits > 1 ? "s" : ""} from "${name.text}"`,
    };
  }
  return undefined;
}

function unknown(bankId: string, label: string, reason: string): RowProblem {
  return new RowProblem(bankId, "unknown-currency", reason, { currency: label });
}

/**
 * Resolutions by rule, by locales, era of the date (currencyEra) and label: a history repeats its
 * labels on thousands of dates, nearly all in one era.
 */
const ruleCache = new Map<string, CurrencyResolution | Ambiguous | null>();

/**
 * The currency of a label and, when it was not exact, how it was found (module comment: steps 1-6).
 * An unknown or ambiguous label throws a RowProblem (`unknown-currency`) naming the candidates, which
 * holds the row inside a row reader.
 */
export function resolveCurrencyName(
  bankId: string,
  label: string,
  options: CurrencyNameOptions = {},
): CurrencyResolution {
  const trimmed = label.trim();
  if (/^[A-Z]{3}$/.test(trimmed) && isPublishableCurrency(trimmed)) return { currency: trimmed };
  const locales = withEnglish(options.locales);
  const exact = currencyFromName(trimmed, locales) ?? options.aliases?.[foldName(trimmed)];
  if (exact !== undefined && isPublishableCurrency(exact)) return { currency: exact };
  const key = `${locales.join(",")}\u0000${currencyEra(options.date)}\u0000${trimmed}`;
  let found = ruleCache.get(key);
  if (found === undefined) {
    try {
      found = byRule(trimmed, locales, options.date) ?? null;
    } catch (error) {
      if (!(error instanceof Ambiguous)) throw error;
      found = error;
    }
    if (ruleCache.size > 10_000) ruleCache.clear();
    ruleCache.set(key, found);
  }
  if (found instanceof Ambiguous) {
    const on = options.date ? ` on ${options.date}` : "";
    throw unknown(
      bankId,
      trimmed,
      `currency "${trimmed}" fits ${found.codes.length} currencies by ${found.how}${on} (${found.codes.join(", ")}): held, not guessed`,
    );
  }
  if (found === null) throw unknown(bankId, trimmed, `currency "${trimmed}" is not a known ISO 4217 code or name`);
  return found;
}

/**
 * The code of a label read inside a row reader (`rows.read`): as resolveCurrencyName, and a resolution
 * by rule is recorded on that row's records as their `derivation`. Outside a row reader a resolution by
 * rule could not be recorded: it is refused (use resolveCurrencyName and carry its derivation).
 */
export function resolveCurrency(bankId: string, label: string, options: CurrencyNameOptions = {}): string {
  const resolution = resolveCurrencyName(bankId, label, options);
  if (resolution.derivation !== undefined && !noteNameDerivation(resolution.currency, resolution.derivation))
    throw unknown(
      bankId,
      label.trim(),
      `currency "${label.trim()}" is resolved only by rule (${resolution.derivation}), outside a row where it cannot be recorded`,
    );
  return resolution.currency;
}

/**
 * The code of a resolution made before the row (a column's label, resolved once with
 * resolveCurrencyName), for a record of the row being read: its derivation, if any, is recorded on
 * that row's records of the currency, as resolveCurrency does.
 */
export function currencyOf(resolution: CurrencyResolution): string {
  if (resolution.derivation !== undefined) noteNameDerivation(resolution.currency, resolution.derivation);
  return resolution.currency;
}
