// The shapes of the API's answers, declared once: the server (its src/types.ts re-exports them) writes
// them and the client reads them. Types only: this module has no code.

/** A calendar date, YYYY-MM-DD (ISO 8601). */
export type IsoDate = string;

/**
 * `Direct`: units of the bank's own currency per unit(s) of the foreign one (CNB: 1 USD = 20.611 CZK).
 * `Indirect`: foreign units per one unit of the bank's own currency (ECB: 1 EUR = 1.0850 USD).
 */
export type QuoteType = "Direct" | "Indirect";

/**
 * How often a source publishes a set of rates: a daily fixing, or one figure per currency valid for a
 * week, a month or a quarter (a period source: its figures carry their validity).
 */
export type Frequency = "Daily" | "Weekly" | "Monthly" | "Quarterly";

/** One language's name of a bank (the Bank resource's `name[]`). */
export interface BankName {
  languageCode: string;
  name: string;
  abbreviatedName: string;
}

/** The Bank resource exactly as the API publishes it (docs/API.md, "Bank"). */
export interface BankResource {
  id: string;
  name: BankName[];
  dailyUpdateTime: string;
  bankCurrency: string;
  countryCode: string[];
  region: string[];
  timeZone: { windowsTimeZoneId: string; ianaTimeZoneName: string };
  supportedFrequencies: string[];
  website: string;
  /** The bank's next publication after its newest published date, by its calendar (published banks only). */
  nextPublication?: NextPublication | null;
}

/** A publication to come: its date, the bank's local time and zone, and the instant (ISO 8601 UTC). */
export interface NextPublication {
  date: IsoDate;
  localTime: string;
  timeZone: string;
  at: string;
}

/** One currency in a published document. */
export interface PublishedRate {
  currency: string;
  rate: string;
  unitMultiplier?: number;
  /** A period source's figure: the first and last day it is in force (both or neither). */
  validFrom?: IsoDate;
  validTo?: IsoDate;
  /** Why the figure was published with a warning (the cross-bank check doubted it); absent without one. */
  warning?: string;
}

// What the API answers beyond the rates documents (GET /v1/status, GET /v1/events and the webhooks).

/** A scheduled bank's state (the first six; "never fetched" before its first try), or why it is not scheduled. */
export type BankState =
  | "up to date"
  | "holiday"
  | "waiting"
  | "late"
  | "failing"
  | "stale"
  | "never fetched"
  | "needs credential"
  | "historical only";

export interface BankStatus {
  id: string;
  name: string;
  timeZone: string;
  dailyUpdateTime: string;
  publicationDays: number[];
  /** How often the source publishes (`supportedFrequencies`): Daily, or a period source's Monthly... */
  frequency: Frequency;
  /** Whether the daemon runs this bank on its schedule. */
  scheduled: boolean;
  state: BankState;
  /** One line for people: "up to date", "holiday: Good Friday", "late by 2 h 05 min: …", "stale: …". */
  summary: string;
  /** The closing that keeps the bank from publishing today (its local date), or null. */
  holiday: string | null;
  /** How long past its time (and the usual allowance) the expected publication is, when state is late. */
  lateByMinutes: number | null;
  /** Whether a run of this bank is fetching now (in this process, or another that still lives). */
  running: boolean;
  /** The environment variable a missing credential would be read from. */
  needs: string | null;
  newestDate: IsoDate | null;
  /** The newest date that should be stored by now (scheduled banks). */
  expectedDate: IsoDate | null;
  stale: boolean;
  lastSuccessAt: string | null;
  lastErrorAt: string | null;
  lastError: string | null;
  lastRun: {
    state: string;
    reason: string;
    startedAt: string;
    finishedAt: string | null;
    message: string | null;
  } | null;
  /** ISO 8601 UTC, and the bank's local time. */
  nextRunAt: string | null;
  nextRunLocal: string | null;
  /** Rows and figures held at ingest (never published until released), and figures published with a warning. */
  anomalies: { held: number; warned: number };
}

/** What an event says, as sent (Latest URLs are paths below the API's base URL, e.g. `/v1/Banks/...`). */
export interface RatesPublished {
  bankId: string;
  effectiveDate: string;
  publishedAt: string;
  /** Currencies whose figure is new or changed, sorted. */
  currencies: string[];
  /** A correction of a date already published. */
  revision: boolean;
  latest: { json: string; xml: string; csv: string; xlsx: string };
}

/**
 * What a `rates.corrected` event says: one ingest changed figures already stored (of any date, not only
 * Latest's). `corrections` is the Corrections resource over the day of the correction (a path below the
 * API's base URL, made absolute when sent), where each figure is listed with both answers' provenance.
 */
export interface RatesCorrected {
  bankId: string;
  /** When the new figures were stored (ISO 8601 UTC). */
  correctedAt: string;
  /** The effective dates whose figures changed, sorted. */
  dates: string[];
  /** The currencies whose figures changed, sorted. */
  currencies: string[];
  /** How many figures changed. */
  figures: number;
  corrections: string;
}

/** What a `rates.late` event says: a bank past its publication time and allowance without the day's rates. */
export interface RatesLate {
  bankId: string;
  /** The table awaited, for a bank with more than one (NBP: `Weekly`); absent for a bank's only table. */
  frequency?: string;
  /** The publication awaited. */
  expectedDate: string;
  /** When it was due (ISO 8601 UTC), and in the bank's local time. */
  dueAt: string;
  dueLocal: string;
  /** How late it was when the event was recorded. */
  lateByMinutes: number;
  newestDate: string | null;
}

// A pair across banks and averages of a period (`GET /v1/Pairs/...`, `group=` on a daily range).

/** How a bank's figure of a pair was made: as published, its inverse, or crossed through the bank's currency. */
export type PairQuote = "direct" | "inverse" | "cross";

/** A figure of the bank a pair figure was made from, as the bank published it. */
export interface PairUsedFigure {
  currency: string;
  rate: string;
  /** The units of `currency` the figure is for (1, 100...). */
  unit: string;
  /** How the bank's figure reads: "CZK per 100 JPY". */
  reads: string;
}

/** The digits a derived figure keeps and its rounding rule. */
export interface DerivedRounding {
  digits: number;
  rule: string;
}

/** One bank's figure of a pair in an answer: QUOTE per one BASE, judged against the consensus. */
export interface PairBankFigure {
  bankId: string;
  rate: string;
  effectiveDate: IsoDate;
  /** When the bank's figures of that date were stored. */
  publishedAt?: string;
  quote: PairQuote;
  /** True for inverse and cross: not a figure the bank published. */
  derived: boolean;
  /** The bank's own currency (a cross goes through it). */
  through: string;
  from: PairUsedFigure[];
  rounding?: DerivedRounding;
  /** Published on the consensus date (the median is of these). */
  sameDay: boolean;
  outlier: boolean;
  reason?: string;
}

/** The consensus of the banks' same-day figures of a pair. */
export interface PairConsensus {
  /** The date of the figures the median is of: the newest effective date at least two banks share (else the newest). */
  date: IsoDate;
  banks: number;
  median: string;
  min: string;
  max: string;
  /** (max - min) / median, to 10 significant digits half away from zero. */
  dispersion: string;
  /** Relative distance from the median beyond which a figure is an outlier (the cross-bank check's band). */
  band: number;
  /** Other same-day banks a figure needs against it to be an outlier. */
  minBanks: number;
  outliers: string[];
}

/** One date of a pair: every bank's figure, the consensus, and the banks that cannot price it. */
export interface PairDay {
  date?: IsoDate;
  consensus?: PairConsensus;
  banks: PairBankFigure[];
  /** Banks asked for that have no figure of the pair, with why. */
  unpriced?: Array<{ bankId: string; reason: string }>;
}

/** `GET /v1/Pairs/{BASE}/{QUOTE}/Latest` or `/{date}`. */
export interface PairRates extends PairDay {
  base: string;
  quote: string;
  asOf?: string;
  rounding: DerivedRounding;
}

/** `GET /v1/Pairs/{BASE}/{QUOTE}?from&to`: each date with a figure of some bank. */
export interface PairRangeRates {
  base: string;
  quote: string;
  from: IsoDate;
  to: IsoDate;
  rounding: DerivedRounding;
  days: PairDay[];
}

/** The periods of `group=`: ISO weeks, calendar months, quarters and years. */
export type AverageGroup = "week" | "month" | "quarter" | "year";

/** One period's average of one series (a currency of a bank's table, or a bank's figure of a pair). */
export interface PeriodAverageFigures {
  /** 2026-W05, 2026-03, 2026-Q1, 2026. */
  period: string;
  start: IsoDate;
  end: IsoDate;
  /** The range cuts the period: the average is of its days within the range only. */
  partial: boolean;
  /** The mean per one unit, to the answer's `rounding`. */
  mean: string;
  /** The mean as written is the exact mean. */
  exact: boolean;
  /** The exact sum of the figures averaged. */
  sum: string;
  days: number;
  first: IsoDate;
  last: IsoDate;
  min: string;
  max: string;
  /** The figure of the period's last published day within the range. */
  endOfPeriod: string;
}

/** `GET /v1/Banks/{id}/DailyRates?from&to&group=`: per period and currency. */
export interface BankAverages {
  bankId: string;
  baseCurrency: string;
  quoteType: QuoteType;
  /** With `base=`: the bank's own base currency the figures were re-expressed from. */
  derivedFrom?: string;
  group: AverageGroup;
  from: IsoDate;
  to: IsoDate;
  unit: number;
  rounding: DerivedRounding;
  averages: Array<PeriodAverageFigures & { currency: string }>;
}

/** `GET /v1/Pairs/{BASE}/{QUOTE}?from&to&group=`: per period and bank. */
export interface PairAverages {
  base: string;
  quote: string;
  group: AverageGroup;
  from: IsoDate;
  to: IsoDate;
  unit: number;
  rounding: DerivedRounding;
  note?: string;
  averages: Array<PeriodAverageFigures & { bankId: string }>;
}
