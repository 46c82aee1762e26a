// What an adapter file needs besides its own feed knowledge: the contract, a checked definition,
// and the Bank resource derived from its descriptor.
import { findWindows } from "windows-iana";

import {
  FREQUENCIES,
  type BankAdapter,
  type BankDescriptor,
  type BankResource,
  type Frequency,
  type ParseOutput,
} from "../types.js";
import { isIsoDate } from "./dates.js";
import { frequenciesOfBank, frequencySourceOf } from "./sources.js";

/**
 * Declares an adapter; `export default defineAdapter({...})` in adapters/<ID>.ts. The adapter's own
 * type is kept, so its tests see what its `parse` returns (records alone, or a ParsedAnswer).
 */
export function defineAdapter<Output extends ParseOutput>(adapter: BankAdapter<Output>): BankAdapter<Output> {
  return adapter;
}

/**
 * The Windows zone id of an IANA zone, from the CLDR mapping in windows-iana. A current name the
 * mapping does not know yet (Europe/Kyiv) is looked up by the alias ICU resolves it to (Europe/Kiev).
 */
export function windowsZoneOf(iana: string): string | undefined {
  // Looked up once per zone: a publish asks for every bank's (the mapping's search is not free).
  if (windowsZones.has(iana)) return windowsZones.get(iana);
  const zone = findWindowsZone(iana);
  windowsZones.set(iana, zone);
  return zone;
}

const windowsZones = new Map<string, string | undefined>();

function findWindowsZone(iana: string): string | undefined {
  const direct = findWindows(iana)?.[0];
  if (direct) return direct;
  try {
    return findWindows(new Intl.DateTimeFormat("en", { timeZone: iana }).resolvedOptions().timeZone)?.[0];
  } catch {
    return undefined;
  }
}

/** The currency a bank's published rates are quoted against: its own, unless the feed pivots on another. */
export function baseCurrencyOf(bank: BankDescriptor): string {
  return bank.baseCurrency ?? bank.bankCurrency;
}

/** The one frequency a source publishes at (its rates' path: `{Frequency}Rates`); Daily by default. */
export function frequencyOf(bank: Pick<BankDescriptor, "supportedFrequencies">): Frequency {
  return bank.supportedFrequencies?.[0] ?? "Daily";
}

/** The Bank resource (docs/API.md, "Bank") for a descriptor. */
export function toBankResource(bank: BankDescriptor): BankResource {
  return {
    id: bank.id,
    name: bank.names.map((n) => ({ languageCode: n.languageCode, name: n.name, abbreviatedName: n.abbreviatedName })),
    dailyUpdateTime: bank.dailyUpdateTime,
    bankCurrency: bank.bankCurrency,
    countryCode: [...bank.countryCode],
    region: [...bank.region],
    timeZone: { windowsTimeZoneId: windowsZoneOf(bank.timeZone) ?? "UTC", ianaTimeZoneName: bank.timeZone },
    // A bank with a second table (NBP's weekly Table B) lists both frequencies.
    supportedFrequencies: frequenciesOfBank(bank.id, bank.supportedFrequencies ?? ["Daily"]),
    website: bank.website,
  };
}

/**
 * The euro area's members in 2026 (Croatia since 2023, Bulgaria since 1 January 2026): the countryCode of
 * every bank whose own currency is the euro.
 */
export const EURO_AREA: readonly string[] = [
  "AT",
  "BE",
  "BG",
  "CY",
  "DE",
  "EE",
  "ES",
  "FI",
  "FR",
  "GR",
  "HR",
  "IE",
  "IT",
  "LT",
  "LU",
  "LV",
  "MT",
  "NL",
  "PT",
  "SI",
  "SK",
];

/** The United States and the territories and countries whose official currency is the US dollar. */
export const US_DOLLAR_AREA: readonly string[] = [
  "US",
  "AS",
  "BQ",
  "EC",
  "FM",
  "GU",
  "IO",
  "MH",
  "MP",
  "PA",
  "PR",
  "PW",
  "SV",
  "TC",
  "TL",
  "UM",
  "VG",
  "VI",
];

export const REGIONS = ["Africa", "Americas", "Asia", "Europe", "Oceania"] as const;

/** Every problem with a descriptor, as sentences; empty when it is sound. */
export function descriptorProblems(bank: BankDescriptor): string[] {
  const problems: string[] = [];
  const need = (ok: boolean, what: string) => ok || problems.push(what);
  need(/^[A-Z][A-Z0-9]{1,9}$/.test(bank.id), `id "${bank.id}" is not 2-10 upper-case letters and digits`);
  need(bank.names.length > 0 && bank.names[0]?.languageCode === "en", "the first name must be the English one");
  for (const n of bank.names) {
    need(/^[a-z]{2,3}$/.test(n.languageCode), `language code "${n.languageCode}" is not ISO 639`);
    need(n.name.trim() !== "" && n.abbreviatedName.trim() !== "", `a ${n.languageCode} name or abbreviation is empty`);
  }
  need(
    /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/.test(bank.dailyUpdateTime),
    `dailyUpdateTime "${bank.dailyUpdateTime}" is not HH:MM:SS`,
  );
  need(/^[A-Z]{3}$/.test(bank.bankCurrency), `bankCurrency "${bank.bankCurrency}" is not a currency code`);
  if (bank.baseCurrency !== undefined)
    need(/^[A-Z]{3}$/.test(bank.baseCurrency), `baseCurrency "${bank.baseCurrency}" is not a currency code`);
  need(
    bank.countryCode.length > 0 && bank.countryCode.every((c) => /^[A-Z]{2}$/.test(c)),
    "countryCode must be ISO 3166-1 alpha-2 codes",
  );
  need(
    bank.region.length > 0 && bank.region.every((r) => (REGIONS as readonly string[]).includes(r)),
    `region must be among ${REGIONS.join(", ")}`,
  );
  let zoneOk = true;
  try {
    new Intl.DateTimeFormat("en", { timeZone: bank.timeZone });
  } catch {
    zoneOk = false;
  }
  need(zoneOk, `timeZone "${bank.timeZone}" is not an IANA zone`);
  need(zoneOk && windowsZoneOf(bank.timeZone) !== undefined, `no Windows zone is known for "${bank.timeZone}"`);
  const frequencies = bank.supportedFrequencies ?? ["Daily"];
  need(
    frequencies.length === 1 && FREQUENCIES.includes(frequencies[0]!),
    `supportedFrequencies must be one of ${FREQUENCIES.join(", ")}`,
  );
  const listed = frequencySourceOf(bank.id);
  need(
    listed === undefined
      ? bank.bankId === undefined
      : bank.bankId === listed.bank && frequencies[0] === listed.frequency,
    listed
      ? `a source of ${listed.bank}'s ${listed.frequency} rates must say bankId "${listed.bank}" and that frequency`
      : "bankId is only for a source listed in src/feed/sources.ts",
  );
  const cadence = bank.cadence;
  if (cadence) {
    need(frequencies[0] !== "Daily", "a cadence is for a period source (supportedFrequencies other than Daily)");
    const n = "n" in cadence.days ? cadence.days.n : "count" in cadence.days ? cadence.days.count : 1;
    need(Number.isInteger(n) && n >= 1 && n <= 5, "a cadence's n or count must be 1 to 5");
  }
  need(/^https?:\/\//.test(bank.website), "website must be a URL");
  need(/^https?:\/\//.test(bank.sourceUrl), "sourceUrl must be a URL");
  need(
    bank.publicationDays.length > 0 && bank.publicationDays.every((d) => d >= 1 && d <= 7),
    "publicationDays must be ISO weekdays 1-7",
  );
  need(isIsoDate(bank.coverageStart), `coverageStart "${bank.coverageStart}" is not a date`);
  if (bank.coverageEnd !== undefined)
    need(
      isIsoDate(bank.coverageEnd) && bank.coverageEnd >= bank.coverageStart,
      `coverageEnd "${bank.coverageEnd}" is not a date on or after coverageStart`,
    );
  need(Number.isInteger(bank.maxRangeDays) && bank.maxRangeDays >= 1, "maxRangeDays must be a positive integer");
  if (bank.fetchDeadlineSeconds !== undefined)
    need(
      Number.isFinite(bank.fetchDeadlineSeconds) && bank.fetchDeadlineSeconds >= 1 && bank.fetchDeadlineSeconds <= 3600,
      "fetchDeadlineSeconds must be from 1 to 3600",
    );
  if (bank.maxDaysAhead !== undefined)
    need(
      Number.isInteger(bank.maxDaysAhead) && bank.maxDaysAhead >= 0 && bank.maxDaysAhead <= 31,
      "maxDaysAhead must be a whole number of days from 0 to 31",
    );
  if (bank.credential)
    need(/^EXRATES_[A-Z0-9_]+$/.test(bank.credential.env), "credential env must start with EXRATES_");
  const calendar = bank.calendar;
  if (calendar?.holidays !== undefined && calendar.holidays !== false)
    need(/^[A-Z]{2}(-[A-Z0-9]{1,3})?$/.test(calendar.holidays), "calendar.holidays must be a country code (and state)");
  if (calendar?.lateAfterMinutes !== undefined)
    need(calendar.lateAfterMinutes > 0, "calendar.lateAfterMinutes must be positive");
  return problems;
}
