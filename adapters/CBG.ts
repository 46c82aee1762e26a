// Central Bank of The Gambia: the indicative exchange rates of the dalasi.
// - Endpoint: GET https://www.cbg.gm/ajax/indicative-exchange-rates/{ISO}, one call per currency, each
//   answering that currency's whole history as JSON `[[epoch_ms, rate], ...]`, newest first, the times
//   UTC midnights (weekly figures until 2023, daily since), the rates JSON numbers with 2 decimals.
// - Quotes: GMD per unit(s) of the currency (Direct), kept as published. The feed does not state the
//   units; they were established by cross-checking each currency through the bank's own USD of the same
//   day (2026-05-22, USD 72.39): SEK 771.61 and NOK 781.27 give 9.4 and 9.3 per USD only per 100 units,
//   DKK 982 (2024-06-03) 6.9 per USD only per 100; XOF 646.22 gives 560 per USD only per 5000 francs
//   (the euro peg implies 550; the ratio has stayed 4880-5020 since 2005, the CFA franc being quoted per
//   5000 in The Gambia), so XOF is divided exactly by 5000 (derivation "unit-normalised"). JPY is taken
//   per 100 and GBP, GNF per 1 without a recording to check them. Every other recorded currency is per 1
//   (CAD 52.50 -> 1.38 per USD, INR 0.75 -> 96.5, TWD 2.29 -> 31.6). A currency outside the table has
//   no unit the answer states: its rows are held (unknown-unit) with their figure, and the ingest
//   establishes the unit from other banks' figures where they settle it (docs/ANOMALIES.md).
// - The feed states no publication time: polled on working days from 11:00 Banjul time (UTC).
// Quirks met in real answers:
// - "SLL" carries the old leone until the redenomination of 2022 and the new leone (SLE, 1000 SLL) from
//   2022-07-12 (3.26 GMD in 2026, 22 SLE per USD): figures from 2022-07-01 are published as SLE.
// - DKK reads exactly 1 on most days since 2024-08 (100 DKK are ~1000 GMD): a placeholder, skipped.
// - Zeros are days without a rate: skipped. An exact copy of an entry is one entry.
// - A date given twice with two different figures: both are passed on, and the ingest gate holds them
//   as a conflict (neither is published).
// - Isolated data-entry errors (SEK 93.25 among 714-810, SLL 43.26 among 3.26, ZAR 31.49 among
//   3.15 ...): a figure more than 1.5 times away from the median of the 5 figures before it and from
//   that of the 5 after it is held (bad-rate, with both medians in the reason). A lasting level change
//   (devaluation, redenomination) keeps its figures; the newest figure of a series is judged by those
//   before it only.
// Each entry is one row: an entry that is not a pair, a time that is not a UTC midnight or a rate that is
// not a number holds that entry. A body that is not a JSON array is refused whole.
import type { Decimal } from "decimal.js";

import {
  AnswerRows,
  FeedError,
  defineAdapter,
  jsonNumberText,
  parseJsonExact,
  perUnits,
  requireDate,
  requireDecimal,
  rowProblem,
  unitNotEstablished,
  type FeedDocument,
  type RateRecord,
} from "../src/feed/kit.js";
import { Exact } from "../src/feed/decimal.js";

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
const TOLERANCE = new Exact("1.5");

interface Point {
  date: string;
  rate: string;
  /** Where the entry stood in the answer: `[12]`. */
  source?: string;
}

/** A figure judged an isolated error, with the medians it was compared with. */
export interface Spike<P extends Point = Point> {
  point: P;
  reason: string;
}

/** The median of some decimals (the lower middle one for an even count). */
function median(values: Decimal[]): Decimal | undefined {
  const sorted = [...values].sort((a, b) => a.cmp(b));
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/**
 * Splits a series (sorted by date) into the figures kept and the isolated errors: a figure more than
 * TOLERANCE times away from both the median of the WINDOW figures before it and that of the WINDOW
 * figures after it (only one side at either end of the series). The first figure of a lasting new level
 * agrees with those after it and stays.
 */
export function splitSpikes<P extends Point>(points: P[]): { kept: P[]; spikes: Array<Spike<P>> } {
  const values = points.map((p) => new Exact(p.rate));
  const far = (v: Decimal, m: Decimal | undefined) => m !== undefined && (v.gt(m) ? v.div(m) : m.div(v)).gt(TOLERANCE);
  const kept: P[] = [];
  const spikes: Array<Spike<P>> = [];
  points.forEach((point, i) => {
    const v = values[i]!;
    const before = median(values.slice(Math.max(0, i - WINDOW), i));
    const after = median(values.slice(i + 1, i + 1 + WINDOW));
    const isolated =
      (before !== undefined || after !== undefined) &&
      (before === undefined || far(v, before)) &&
      (after === undefined || far(v, after));
    if (!isolated) return kept.push(point);
    const medians = [
      before === undefined ? undefined : `${before.toFixed()} before`,
      after === undefined ? undefined : `${after.toFixed()} after`,
    ].filter((m) => m !== undefined);
    spikes.push({
      point,
      reason: `${point.rate} on ${point.date} is more than ${TOLERANCE.toFixed()} times away from the median of the ${WINDOW} figures around it (${medians.join(", ")}): an isolated data-entry error`,
    });
  });
  return { kept, spikes };
}

/** The currency of an answer, from its URL: an answer that cannot be placed is refused. */
function currencyOf(url: string): string {
  const code = /indicative-exchange-rates\/([A-Z]{3})(?:[?#]|$)/.exec(url)?.[1];
  if (!code) throw new FeedError(ID, `cannot tell the currency from the URL ${url}`);
  return code;
}

/** An epoch-milliseconds UTC midnight as ISO; undefined when it is none. */
function isoOf(ms: string): string | undefined {
  const midnight = /^\d{9,13}$/.test(ms) && BigInt(ms) % DAY_MS === 0n;
  return midnight ? new Date(Number(BigInt(ms) / DAY_MS) * 86_400_000).toISOString().slice(0, 10) : undefined;
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
    const units = CBG_UNITS[code];
    const json = parseJsonExact(ID, body);
    if (!Array.isArray(json)) throw new FeedError(ID, "not an indicative rate history: not a JSON array");
    const rows = new AnswerRows(ID);
    /** Each date's distinct figures (by value), in the answer's order. */
    const byDate = new Map<string, Array<Point & { value: string }>>();
    (json as unknown[]).forEach((pair, i) => {
      const entry = Array.isArray(pair) ? (pair as unknown[]) : [];
      const ms = jsonNumberText(entry[0]) ?? "";
      const raw = jsonNumberText(entry[1]) ?? "";
      const source = `[${i}]`;
      const iso = isoOf(ms);
      rows.read(
        source,
        () => {
          if (entry.length !== 2) rowProblem(ID, "bad-row", "the entry is not an [epoch_ms, rate] pair");
          const date = requireDate(ID, iso, `${ms} (not a UTC midnight in epoch milliseconds)`);
          const rate = requireDecimal(ID, raw, `${code} rate`);
          if (!/[1-9]/.test(rate) || CBG_PLACEHOLDERS[code] === rate) return undefined; // no rate that day
          if (units === undefined) {
            const reason = `the unit of ${code} is not established (per 1, 100 or more?)`;
            unitNotEstablished(ID, { effectiveDate: date, currency: code, rate }, reason);
          }
          const value = new Exact(rate).toFixed();
          const figures = byDate.get(date) ?? [];
          if (!figures.some((f) => f.value === value)) figures.push({ date, rate, value, source });
          byDate.set(date, figures);
          return undefined;
        },
        // A held row shows the date a person can read whenever the entry's time is one.
        { effectiveDate: iso ?? ms, currency: code, rate: raw },
      );
    });
    if (units === undefined) return rows.result();
    const record = (currency: string, p: Point): RateRecord => ({
      effectiveDate: p.date,
      currency,
      ...perUnits(p.rate, units),
    });
    const series = new Map<string, Point[]>();
    for (const [date, figures] of byDate) {
      const currency = code === "SLL" && date >= SLE_FROM ? "SLE" : code;
      // Two different figures for one date: both go on, with their place, and the ingest gate holds them
      // as a conflict.
      if (figures.length > 1)
        for (const p of figures) rows.read(p.source!, () => ({ ...record(currency, p), source: p.source }));
      else series.set(currency, [...(series.get(currency) ?? []), figures[0]!]);
    }
    for (const [currency, points] of series) {
      points.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
      const { kept, spikes } = splitSpikes(points);
      for (const p of kept) rows.read(p.source!, () => record(currency, p));
      for (const { point, reason } of spikes)
        rows.hold(point.source!, "bad-rate", reason, { effectiveDate: point.date, currency, rate: point.rate });
    }
    return rows.result();
  },
});

export default cbg;
