// Central Bank of The Gambia: indicative exchange rates of the dalasi, one JSON call per currency
// (ajax/indicative-exchange-rates/{ISO}), each answering the whole history as [[epoch_ms, rate], ...]
// (UTC midnights; weekly until 2023, daily since). GMD per unit(s) as published, 2 decimals (Direct).
//
// What the recordings show, and how it is handled (the bank's figures are never altered, only refused):
// - Units the feed does not state (cross-checked through CBG's own USD of the same day, 2026-05-22,
//   USD 72.39): SEK 771.61 and NOK 781.27 give 9.4 and 9.3 per USD only per 100 units, DKK 982
//   (2024-06-03) 6.9 per USD only per 100; XOF 646.22 gives 560 per USD only per 5000 francs (the
//   euro peg implies 550; the ratio has stayed 4880-5020 since 2005, the CFA being quoted per 5000 in
//   The Gambia), so it is divided exactly by 5000 (derivation "unit-normalised"). JPY per 100 and GBP,
//   GNF per 1 are taken from BANKS.md (no recording). Every other recorded currency is per 1
//   (e.g. CAD 52.50 -> 1.38 per USD, INR 0.75 -> 96.5, TWD 2.29 -> 31.6). An unlisted code is refused.
// - "SLL" carries the old leone until the zeros of 2022 and the new leone (SLE, 1000 SLL) from
//   2022-07-12 (3.26 GMD in 2026, 22 SLE per USD): values from 2022-07-01 are published as SLE.
// - DKK reads exactly 1 on most days since 2024-08 (100 DKK are ~1000 GMD): a placeholder, skipped.
// - Zeros are days without a rate. A date given twice with two different figures is refused (both).
// - Isolated data-entry errors (SEK 93.25 among 714-810, SLL 43.26 among 3.26, ZAR 31.49 among
//   3.15 ...): a figure more than 1.5 times away from the median of the 5 figures before it and from
//   that of the 5 after it is not published. A lasting level change (devaluation, redenomination)
//   keeps its figures; the newest figure of a series is judged by those before it only.
import { Decimal } from "decimal.js";

import {
  FeedError,
  decodeText,
  defineAdapter,
  jsonNumberText,
  parseJsonExact,
  perUnits,
  readDecimal,
  type FeedDocument,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "CBG";
const ENDPOINT = "https://www.cbg.gm/ajax/indicative-exchange-rates";
const DAY_MS = 86_400_000n;

/** The units each currency's figure is for (established as explained above). */
export const CBG_UNITS: Readonly<Record<string, number>> = {
  AED: 1,
  AUD: 1,
  BRL: 1,
  CAD: 1,
  CHF: 1,
  CNY: 1,
  DKK: 100,
  EGP: 1,
  EUR: 1,
  GBP: 1,
  GNF: 1,
  HKD: 1,
  INR: 1,
  JPY: 100,
  LKR: 1,
  NGN: 1,
  NOK: 100,
  NZD: 1,
  PHP: 1,
  SAR: 1,
  SEK: 100,
  SGD: 1,
  SLL: 1,
  THB: 1,
  TRY: 1,
  TWD: 1,
  USD: 1,
  XOF: 5000,
  ZAR: 1,
};
/** Figures that stand for "no rate" in one currency's series. */
export const CBG_PLACEHOLDERS: Readonly<Record<string, string>> = { DKK: "1" };
/** The day the new leone (SLE) replaced the old one (SLL) at 1000:1. */
const SLE_FROM = "2022-07-01";
const WINDOW = 5;
const TOLERANCE = new Decimal("1.5");

interface Point {
  date: string;
  rate: string;
}

/** The median of some decimals (the lower middle one for an even count). */
function median(values: Decimal[]): Decimal | undefined {
  const sorted = [...values].sort((a, b) => a.cmp(b));
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/**
 * Drops a figure more than TOLERANCE times away from both the median of the WINDOW figures before it
 * and that of the WINDOW figures after it (only one side at either end of the series): an isolated
 * error goes, the first figure of a lasting new level agrees with those after it and stays.
 */
export function withoutSpikes(points: Point[]): Point[] {
  const values = points.map((p) => new Decimal(p.rate));
  const far = (v: Decimal, m: Decimal | undefined) => m !== undefined && (v.gt(m) ? v.div(m) : m.div(v)).gt(TOLERANCE);
  return points.filter((_p, i) => {
    const v = values[i]!;
    const before = median(values.slice(Math.max(0, i - WINDOW), i));
    const after = median(values.slice(i + 1, i + 1 + WINDOW));
    if (before === undefined && after === undefined) return true;
    return !((before === undefined || far(v, before)) && (after === undefined || far(v, after)));
  });
}

function currencyOf(url: string): string {
  const code = /indicative-exchange-rates\/([A-Z]{3})(?:[?#]|$)/.exec(url)?.[1];
  if (!code) throw new FeedError(ID, `cannot tell the currency from the URL ${url}`);
  if (CBG_UNITS[code] === undefined)
    throw new FeedError(ID, `the unit of ${code} is not established (per 1, 100 or more?)`);
  return code;
}

const cbg = defineAdapter({
  bank: {
    id: ID,
    names: [{ languageCode: "en", name: "Central Bank of The Gambia", abbreviatedName: "CBG" }],
    dailyUpdateTime: "11:00:00",
    bankCurrency: "GMD",
    countryCode: ["GM"],
    region: ["Africa"],
    timeZone: "Africa/Banjul",
    website: "https://www.cbg.gm",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "2000-01-07",
    // Every call answers the whole history of its currency.
    maxRangeDays: 3660,
    sourceUrl: `${ENDPOINT}/USD`,
  },

  async fetch(_range, { http }) {
    const docs: FeedDocument[] = [];
    for (const code of Object.keys(CBG_UNITS))
      docs.push(await http.get(`${ENDPOINT}/${code}`, { accept: "application/json" }));
    return docs;
  },

  parse(body, { url }) {
    const code = currencyOf(url);
    const json = parseJsonExact(ID, decodeText(ID, body));
    if (!Array.isArray(json)) throw new FeedError(ID, "not an indicative rate history: not a JSON array");
    const byDate = new Map<string, Set<string>>();
    for (const [i, pair] of (json as unknown[]).entries()) {
      if (!Array.isArray(pair) || pair.length !== 2)
        throw new FeedError(ID, `${code} entry ${i} is not [epoch_ms, rate]`);
      const ms = jsonNumberText(pair[0]) ?? "";
      if (!/^\d{9,13}$/.test(ms) || BigInt(ms) % DAY_MS !== 0n)
        throw new FeedError(ID, `${code} entry ${i}: "${ms}" is not a UTC midnight in epoch milliseconds`);
      const date = new Date(Number(BigInt(ms) / DAY_MS) * 86_400_000).toISOString().slice(0, 10);
      const raw = jsonNumberText(pair[1]) ?? "";
      const rate = readDecimal(raw);
      if (rate === undefined) throw new FeedError(ID, `${code} on ${date}: "${raw}" is not a decimal`);
      if (!/[1-9]/.test(rate) || CBG_PLACEHOLDERS[code] === rate) continue; // no rate that day
      byDate.set(date, (byDate.get(date) ?? new Set()).add(new Decimal(rate).toFixed()));
      byDate.set(`${date} text`, (byDate.get(`${date} text`) ?? new Set()).add(rate));
    }
    const series: Record<string, Point[]> = {};
    for (const [key, values] of byDate) {
      if (key.endsWith(" text") || values.size !== 1) continue; // a date with two different figures is refused
      const date = key;
      const currency = code === "SLL" && date >= SLE_FROM ? "SLE" : code;
      (series[currency] ??= []).push({ date, rate: [...byDate.get(`${date} text`)!][0]! });
    }
    const records: RateRecord[] = [];
    for (const [currency, points] of Object.entries(series)) {
      points.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
      for (const p of withoutSpikes(points))
        records.push({ effectiveDate: p.date, currency, ...perUnits(p.rate, CBG_UNITS[code]!) });
    }
    return records;
  },
});

export default cbg;
