// The types at the boundaries of exrates, declared once and reused by every stage:
// what an adapter describes and returns, what the store keeps, what the publisher writes.
// The shapes of the API's answers (the Bank resource, a published rate, a bank's status, the events)
// are declared once in the client package (packages/client/src/api-types.ts) and re-exported here.
import type { BankName, Frequency, IsoDate, PublishedRate, QuoteType } from "@exrates/client/api-types";

export type {
  AverageGroup,
  BankName,
  BankResource,
  BankState,
  BankStatus,
  Frequency,
  IsoDate,
  NextPublication,
  PairConsensus,
  PairQuote,
  PairUsedFigure,
  PeriodAverageFigures,
  PublishedRate,
  QuoteType,
  RatesCorrected,
  RatesLate,
  RatesPublished,
} from "@exrates/client/api-types";

/** How a bank quotes: what its figures are prices in, and which way round (the cross-bank check reads every bank's). */
export interface BankQuoting {
  baseCurrency: string;
  quoteType: QuoteType;
}

export const FREQUENCIES: readonly Frequency[] = ["Daily", "Weekly", "Monthly", "Quarterly"];

/** ISO weekday: Monday 1 … Sunday 7. */
export type Weekday = 1 | 2 | 3 | 4 | 5 | 6 | 7;

/** A credential an adapter needs from the environment to call its feed live. */
export interface CredentialRequirement {
  /** Environment variable, e.g. `EXRATES_FRED_API_KEY`. */
  env: string;
  /** What it is and where to get it, shown when it is missing. */
  description: string;
}

/**
 * Everything exrates knows about a bank: the Bank resource's facts plus how and when to fetch.
 * The Windows zone id is not written here: it is derived from `timeZone` by a library.
 */
export interface BankDescriptor {
  /** Upper-case letters and digits, 2 to 10 characters. */
  id: string;
  /** English first, then the bank's own language(s). */
  names: BankName[];
  /** Local time of the daily publication, HH:MM:SS, in `timeZone`. */
  dailyUpdateTime: string;
  /** The bank's own currency (the Bank resource's `bankCurrency`). */
  bankCurrency: string;
  /**
   * The currency the feed's rates are quoted against, when it is not `bankCurrency` (a few feeds
   * quote everything against USD). Published as the documents' `baseCurrency`; default bankCurrency.
   */
  baseCurrency?: string;
  /** ISO 3166-1 alpha-2 codes of every country using `bankCurrency`. */
  countryCode: string[];
  /** UN geoscheme region names. */
  region: string[];
  /** IANA zone name. */
  timeZone: string;
  website: string;
  quoteType: QuoteType;
  /**
   * Weekdays on which the bank publishes (the daemon runs on them at dailyUpdateTime). A bank whose
   * lists are dated the next day (CBR, HNB) lists the days it publishes, not the effective dates.
   */
  publicationDays: Weekday[];
  /** First date the feed offers (backfill default start). */
  coverageStart: IsoDate;
  /**
   * Last date the feed offers, for a bank that stopped publishing (a currency replaced by the euro);
   * absent: the feed goes on to today. A backfill never asks beyond it.
   */
  coverageEnd?: IsoDate;
  /**
   * How many days after today, in the bank's zone, an effective date may lie: 1 (the default) for lists
   * dated the next day; more for a bank that sets its rates for the next business day (Friday's for
   * Monday). A later date is held at ingest (`future-date`).
   */
  maxDaysAhead?: number;
  /**
   * How long one fetch (every request of it, retries and bodies included) may take, in seconds; default
   * 120. A body sent a byte at a time never trips the timeout between chunks: this ends it.
   */
  fetchDeadlineSeconds?: number;
  /** The widest date range one fetch may ask for, in days (backfill chunk size). */
  maxRangeDays: number;
  /** The main feed URL, shown as the source of published data. */
  sourceUrl: string;
  /**
   * The source's real cadence; defaults to ["Daily"]. One value: its rates live under
   * `/v1/Banks/{id}/{Frequency}Rates`. A non-daily source's records carry `validTo`.
   */
  supportedFrequencies?: Frequency[];
  /**
   * Set on a source that publishes one more frequency of another bank (NBP's weekly Table B: `"NBP"`):
   * its rates are that bank's `{Frequency}Rates`, its id stays internal (src/feed/sources.ts).
   */
  bankId?: string;
  /** Set when the live endpoint needs a registered key. */
  credential?: CredentialRequirement;
  /** A historical-only source: used by backfill, never scheduled. */
  historicalOnly?: boolean;
  /** Where the bank's closing days differ from its country's public holidays (src/calendar/). */
  calendar?: BankCalendarRules;
  /**
   * A period source's publication cadence (src/calendar/cadence.ts): which of its publicationDays it
   * publishes on (HMRC: the penultimate Thursday of the month) and which period a run's figures start
   * (HMRC: the next month). Absent: every publication day, the run's own date (a daily bank).
   */
  cadence?: Cadence;
}

/**
 * The days a period source publishes on, among its publication days (its `publicationDays` weekdays
 * that are not closings): every one (`weekly`: the BIS's Wednesday), the nth-last day of the month on
 * one of those weekdays (`nthLastInMonth`, n = 2: HMRC's penultimate Thursday), each of the last
 * `count` publication days of the month (`lastInMonth`: InforEuro's last days of the month before), or
 * each of the first `count` publication days after a quarter ends (`afterQuarterEnd`: the US Treasury).
 */
export type CadenceDays =
  | { kind: "weekly" }
  | { kind: "nthLastInMonth"; n: number }
  | { kind: "lastInMonth"; count: number }
  | { kind: "afterQuarterEnd"; count: number };

/**
 * The effective date of the newest figures once a run on a day has published (what the daemon expects
 * stored after it): that day (`runDay`), the first of the next month (`nextMonthStart`: HMRC, InforEuro),
 * the last day of the month before (`previousMonthEnd`: the BIS's end-of-month observation), the last
 * day of the quarter before (`previousQuarterEnd`), or the first of the next quarter (`nextQuarterStart`).
 */
export type CadenceCovers =
  "runDay" | "nextMonthStart" | "previousMonthEnd" | "previousQuarterEnd" | "nextQuarterStart";

/** A period source's publication cadence (BankDescriptor.cadence). */
export interface Cadence {
  days: CadenceDays;
  covers: CadenceCovers;
}

/** A closing day of a bank's own: a date-holidays rule ("12-26", "easter -2") and its name. */
export interface ClosingRule {
  rule: string;
  name: string;
}

/**
 * A bank's publication calendar beyond its working days. By default the bank closes on the public
 * holidays of the country of `countryCode` whose zone is its `timeZone` (date-holidays).
 */
export interface BankCalendarRules {
  /** The date-holidays country ("CH", or "US-NY" with a state) whose holidays close the bank; false: none. */
  holidays?: string | false;
  /** Closing days of the bank's own (TARGET2's for the ECB), beside or instead of the country's. */
  closings?: readonly ClosingRule[];
  /** How long after dailyUpdateTime a missing publication is late rather than awaited (default 60). */
  lateAfterMinutes?: number;
}

/** How a figure was computed from what the bank published, when it is not the published text itself. */
export type FigureDerivation =
  | "inverted" // the bank quoted the other direction; inverted to 10 significant digits
  | "mean" // exact mean of the bank's buying and selling rates
  | "unit-normalised" // per-N quote with N not a power of ten, divided exactly to 1 unit
  | "per-troy-ounce" // per-gram metal price times 31.1034768
  | "float-recovered" // the feed sent a binary float (4.2660999999999998): the bank's digits recovered, 15 significant
  | UnitDerivation;

/**
 * The unit of a figure whose answer did not state it, established by the ingest from other banks'
 * figures (src/ingest/units.ts): `unit 100 by evidence of 2 banks (...)`.
 */
export type UnitDerivation = `unit ${string}`;

/**
 * How the currency of a figure was found when the bank's label was not a code or a name exactly
 * (src/feed/currency-names.ts): `name "U.S.A. Dollar" resolved by territory US`.
 */
export type NameDerivation = `name ${string}`;

/**
 * How a stored figure was derived from what the bank published, when it is not the published text
 * itself or its currency was named by rule: a figure derivation, a name derivation, or both
 * (`mean; name "..." resolved by ...`). Kept in storage so that every non-verbatim figure is flagged.
 */
export type Derivation = FigureDerivation | NameDerivation | `${FigureDerivation}; ${NameDerivation}`;

/** One normalised rate, the unit of everything downstream of an adapter. */
export interface RateRecord {
  effectiveDate: IsoDate;
  /** ISO 4217 code (or XAU/XAG/XPT/XPD/XDR). */
  currency: string;
  /** Exact decimal text: digits, optional point, no exponent, no thousands separators. */
  rate: string;
  /** The rate applies to 10^unitMultiplier units; omitted when 0. */
  unitMultiplier?: number;
  derivation?: Derivation;
  /**
   * A period source's figure (monthly, quarterly...): the last day it is valid for; it is valid from
   * `effectiveDate`. Absent for a daily source. An amendment with a later effective date ends the
   * period of the figure it replaces for that currency (read time: src/store/periods.ts).
   */
  validTo?: IsoDate;
  /**
   * Where in the answer the record was read (`row 12`), when the adapter says; used only to name the
   * place of a record the ingest gate holds. Never stored.
   */
  source?: string;
}

/**
 * Why a row of a bank's answer was held (left out, kept for review) rather than stored:
 * - `bad-rate`: the figure is not a positive decimal number;
 * - `bad-date`: the date does not exist or cannot be read;
 * - `future-date`: the date lies beyond what the bank can have published by the time of the ingest (its
 *   tomorrow, or `maxDaysAhead` days ahead), such as 9999-12-31: it would stay Latest for good;
 * - `unknown-currency`: the code or label is not a known ISO 4217 currency and the adapter maps it to none;
 * - `unknown-unit`: the number of units the figure applies to cannot be established;
 * - `conflict`: the answer gives the same date and currency twice with different figures (neither is taken);
 * - `bad-row`: any other problem confined to one row (a missing field, the base currency against itself).
 * Ingest adds the cross-bank kinds (see src/ingest/sanity.ts): `unit-slip`, `direction-slip`,
 * `off-consensus` (held) and `jump` (published with a warning).
 */
export type RowProblemKind =
  "bad-rate" | "bad-date" | "future-date" | "unknown-currency" | "unknown-unit" | "conflict" | "bad-row";
export type CrossCheckKind = "unit-slip" | "direction-slip" | "off-consensus" | "jump";
export type AnomalyKind = RowProblemKind | CrossCheckKind;

/** What a held row said, as the answer gave it (raw text, not normalised). */
export interface RowFields {
  effectiveDate?: string;
  currency?: string;
  rate?: string;
}

/**
 * A figure read whole but for its unit (the answer does not state it, the adapter does not know it):
 * the ingest may establish the unit from other banks' figures (docs/ANOMALIES.md, "Units by evidence").
 */
export interface UnitlessFigure {
  effectiveDate: IsoDate;
  currency: string;
  /** The figure as a plain decimal, for an unknown number of units. */
  rate: string;
  derivation?: Derivation;
}

/** A row of an answer that was left out, with the reason. */
export interface HeldRow extends RowFields {
  kind: RowProblemKind;
  reason: string;
  /** Set on an `unknown-unit` row whose figure was read whole: its unit may be established by evidence. */
  unitless?: UnitlessFigure;
  /** The derivation of the record held, when it had one (a figure computed, a currency named by rule). */
  derivation?: Derivation;
  /** Where in the answer: `row 12`, `sheet "2024" row 40`, `<Cube time="2026-03-02">`... */
  source: string;
  /** A period source's row: the last day its figure is valid for, as given (kept so that a release keeps it). */
  validTo?: string;
}

/** What `parse` makes of one answer: the rows taken and the rows held. */
export interface ParsedAnswer {
  records: RateRecord[];
  held: HeldRow[];
  /**
   * Set only when the answer itself says that the bank published nothing for what was asked (a holiday
   * page, "No Results Found", an empty result table): why, in words. An answer with no record, no held
   * row and no such statement is refused ("no rates found in this answer"): nothing is silently empty.
   */
  noPublication?: string;
}

/** One HTTP answer of a bank's feed, as fetched (or as read from a saved file). */
export interface FeedDocument {
  /**
   * `navigation`: a page fetched only to find the data (a landing page linking to the day's file, a form
   * to post). Recorded for provenance, never handed to `parse`. Absent for an answer carrying rates.
   */
  role?: "navigation";
  /** The bank's URL (never the mirror's), with secrets still in it: redact before logging. */
  url: string;
  method: "GET" | "POST";
  /**
   * What a POST sent (a urlencoded form, a SOAP envelope), handed to `parse` with the answer, for an
   * answer that does not repeat what was asked (BFM names the currency only in its form). Never logged
   * nor stored: a form may carry a session's tokens.
   */
  requestBody?: string;
  status: number;
  contentType: string;
  body: Buffer;
  startedAt: Date;
  finishedAt: Date;
}

/** What `parse` knows besides the bytes. */
export interface ParseContext {
  /** The URL the body was fetched from; adapters with several endpoints dispatch on it. */
  url: string;
  contentType?: string;
  /** How it was asked for (`exrates parse --method`; GET when unknown). */
  method?: "GET" | "POST";
  /** What the POST sent (FeedDocument.requestBody, or `exrates parse --form key=value`), when known. */
  requestBody?: string;
}

/** What to fetch: the newest publication, or an inclusive date range (one chunk). */
export type FetchRange = { kind: "latest" } | { kind: "range"; from: IsoDate; to: IsoDate };

/** The shared HTTP client adapters fetch through (see src/feed/http.ts). */
export interface HttpClient {
  get(url: string, init?: HttpRequestInit): Promise<FeedDocument>;
  post(url: string, body: string, init?: HttpRequestInit): Promise<FeedDocument>;
  /** A client that keeps cookies between its requests, for pages that need a session. */
  session(): HttpClient;
}

export interface HttpRequestInit {
  headers?: Record<string, string>;
  /** Accept header; each adapter says what its feed serves. */
  accept?: string;
  /** Ends the request (and its retries) when aborted: the fetch's total deadline, a shutdown. */
  signal?: AbortSignal;
}

export interface FetchContext {
  http: HttpClient;
  /** The environment, for credentials (`EXRATES_<ID>_API_KEY`). */
  env: Readonly<Record<string, string | undefined>>;
  signal?: AbortSignal;
}

/**
 * One bank: its descriptor, how to fetch, and a pure parser. One file per bank in adapters/.
 * `Output` is what this adapter's parse returns (records alone, or a ParsedAnswer).
 */
export interface BankAdapter<Output extends ParseOutput = ParseOutput> {
  bank: BankDescriptor;
  /**
   * URLs of pages `fetch` reads only to find the data (landing pages, forms). `fetch` marks their
   * answers `role: "navigation"`; a saved answer from such a URL is treated the same (never parsed).
   */
  navigation?: RegExp;
  /**
   * For a form and its answer that share one URL: tells the form page by what it holds (the search
   * form and no rate table), never by the request method alone, so that a saved copy read by
   * `exrates parse` is told apart the same way. Used like `navigation`.
   */
  navigationAnswer?: (answer: Pick<FeedDocument, "url" | "method" | "contentType" | "body">) => boolean;
  /** Calls the bank's endpoints for the range and returns every answer, in order. */
  fetch(range: FetchRange, ctx: FetchContext): Promise<FeedDocument[]>;
  /**
   * Pure: bytes in, normalised records out. An answer that is not the bank's data (HTML, truncated,
   * another bank, a changed layout) throws (or rejects with) FeedError; a bad row is held
   * (`ParsedAnswer.held`, see src/feed/rows.ts) and costs only itself. May be async for formats whose
   * readers are (XLSX through exceljs, PDF).
   */
  parse(body: Uint8Array, ctx: ParseContext): Output | Promise<Output>;
}

/**
 * What publishing a bank needs of its adapter: the descriptor alone (its fetch and parse are not), which
 * the registry's `loadBanks` gives without loading the adapters' code when the build has listed them.
 */
export type BankEntry = Pick<BankAdapter, "bank">;

/** A parser returns its records alone (nothing held) or a ParsedAnswer. */
export type ParseOutput = RateRecord[] | ParsedAnswer;

/** The latest rates of a bank as the publisher renders them in JSON, XML, CSV and XLSX (docs/API.md). */
export interface LatestRatesDocument {
  bankId: string;
  baseCurrency: string;
  quoteType: QuoteType;
  effectiveDate: IsoDate;
  /** The source's frequency; a non-daily document's rates carry validFrom/validTo. */
  frequency?: Frequency;
  /** Sorted by currency code. */
  rates: PublishedRate[];
  /** When the newest of these figures was stored (ISO 8601 UTC); part of the data, so output stays deterministic. */
  publishedAt: string;
  sourceUrl: string;
}
