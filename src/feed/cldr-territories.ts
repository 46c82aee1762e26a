// CLDR's territory facts, read from the installed cldr-core and cldr-localenames-full packages when a
// currency name first needs them (never at import: the packages are 35 MB of JSON, and only the
// languages asked for are read):
// - which currencies each territory used, from when to when, and whether as legal tender
//   (cldr-core supplemental/currencyData.json);
// - ISO 3166 alpha-3 codes (cldr-core supplemental/codeMappings.json);
// - the territories' names in a language (cldr-localenames-full main/<language>/territories.json).
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

import type { IsoDate } from "../types.js";

const require = createRequire(import.meta.url);

function cldrJson<T>(specifier: string): T {
  return JSON.parse(readFileSync(require.resolve(specifier), "utf8")) as T;
}

/** One currency a territory used: from and to (inclusive, CLDR's dates), and whether it was legal tender. */
export interface CurrencyUse {
  code: string;
  from?: IsoDate;
  to?: IsoDate;
  tender: boolean;
}

type RegionCurrencies = Record<string, Array<Record<string, { _from?: string; _to?: string; _tender?: string }>>>;

let uses: Map<string, CurrencyUse[]> | undefined;

/** Territory (alpha-2, or EU) to the currencies it used, as CLDR lists them. */
export function currencyUses(): ReadonlyMap<string, readonly CurrencyUse[]> {
  if (uses) return uses;
  const data = cldrJson<{ supplemental: { currencyData: { region: RegionCurrencies } } }>(
    "cldr-core/supplemental/currencyData.json",
  );
  uses = new Map();
  for (const [region, list] of Object.entries(data.supplemental.currencyData.region)) {
    // ZZ, "unknown region", lists units and metals (XDR, XAU) no territory uses.
    if (!/^[A-Z]{2}$/.test(region) || region === "ZZ") continue;
    const out: CurrencyUse[] = [];
    for (const entry of list)
      for (const [code, use] of Object.entries(entry)) {
        const u: CurrencyUse = { code, tender: use._tender !== "false" };
        if (use._from) u.from = use._from;
        if (use._to) u.to = use._to;
        out.push(u);
      }
    uses.set(region, out);
  }
  return uses;
}

let boundaries: string[] | undefined;

/**
 * Which stretch between CLDR's currency dates a date falls in: two dates of one stretch (or both
 * absent) answer every `inUse` question alike, so what is worked out for one holds for the other.
 */
export function currencyEra(date: IsoDate | undefined): string {
  if (date === undefined) return "now";
  boundaries ??= [...new Set([...currencyUses().values()].flat().flatMap((u) => [u.from ?? "", u.to ?? ""]))]
    .filter(Boolean)
    .sort();
  let before = 0; // boundaries earlier than the date
  let hi = boundaries.length;
  while (before < hi) {
    const mid = (before + hi) >> 1;
    if (boundaries[mid]! < date) before = mid + 1;
    else hi = mid;
  }
  return boundaries[before] === date ? `${before}=` : String(before);
}

/** True when the use covers the date; without a date, when it has not ended (CLDR lists no end). */
export function inUse(use: CurrencyUse, date: IsoDate | undefined): boolean {
  if (date === undefined) return use.to === undefined;
  return (use.from === undefined || use.from <= date) && (use.to === undefined || date <= use.to);
}

let alpha3: Map<string, string> | undefined;

/** ISO 3166 alpha-3 code to alpha-2 (`USA` to `US`), for the territories CLDR maps. */
export function alpha3Codes(): ReadonlyMap<string, string> {
  if (alpha3) return alpha3;
  const data = cldrJson<{ supplemental: { codeMappings: Record<string, { _alpha3?: string }> } }>(
    "cldr-core/supplemental/codeMappings.json",
  );
  alpha3 = new Map();
  for (const [code, m] of Object.entries(data.supplemental.codeMappings))
    if (/^[A-Z]{2}$/.test(code) && m._alpha3) alpha3.set(m._alpha3, code);
  return alpha3;
}

const namesByLocale = new Map<string, Map<string, string[]> | null>();

/** The CLDR folder of a locale: itself (`pt-PT`) when CLDR has it, else its language (`pt`), else none. */
function localeFolder(locale: string): string | undefined {
  const root = dirname(require.resolve("cldr-localenames-full/package.json"));
  for (const candidate of [locale, locale.split("-")[0]!])
    if (existsSync(join(root, "main", candidate, "territories.json"))) return candidate;
  return undefined;
}

/**
 * Territory (alpha-2) to its names in a language, the usual one first, then CLDR's short and variant
 * forms (`UK`, `Ivory Coast`, `Czech Republic`). Undefined when CLDR has no names in that language.
 */
export function territoryNames(locale: string): ReadonlyMap<string, readonly string[]> | undefined {
  const cached = namesByLocale.get(locale);
  if (cached !== undefined) return cached ?? undefined;
  const folder = localeFolder(locale);
  let names: Map<string, string[]> | null = null;
  if (folder) {
    type Territories = { main: Record<string, { localeDisplayNames: { territories: Record<string, string> } }> };
    const data = cldrJson<Territories>(`cldr-localenames-full/main/${folder}/territories.json`);
    names = new Map();
    for (const [key, name] of Object.entries(data.main[folder]!.localeDisplayNames.territories)) {
      const code = key.split("-alt-")[0]!;
      if (!/^[A-Z]{2}$/.test(code)) continue;
      const list = names.get(code) ?? [];
      if (key === code) list.unshift(name);
      else list.push(name);
      names.set(code, list);
    }
  }
  namesByLocale.set(locale, names);
  return names ?? undefined;
}
