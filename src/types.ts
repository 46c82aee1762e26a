// The types at the boundaries of exrates, declared once and reused by every stage:
// what an adapter describes and returns, what the store keeps, what the publisher writes.

/** A calendar date, YYYY-MM-DD (ISO 8601). */
export type IsoDate = string;

/**
 * `Direct`: units of the bank's own currency per unit(s) of the foreign one (CNB: 1 USD = 20.611 CZK).
 * `Indirect`: foreign units per one unit of the bank's own currency (ECB: 1 EUR = 1.0850 USD).
 */
export type QuoteType = "Direct" | "Indirect";

/** How a bank quotes: what its figures are prices in, and which way round (the cross-bank check reads every bank's). */
export interface BankQuoting {
  baseCurrency: string;
  quoteType: QuoteType;
}

/**
 * How often a source publishes a set of rates: a daily fixing, or one figure per currency valid for a
 * week, a month or a quarter (a period source: its figures carry their validity).
 */
export type Frequency = "Daily" | "Weekly" | "Monthly" | "Quarterly";
export const FREQUENCIES: readonly Frequency[] = ["Daily", "Weekly", "Monthly", "Quarterly"];

/** ISO weekday: Monday 1 … Sunday 7. */
export type Weekday = 1 | 2 | 3 | 4 | 5 | 6 | 7;

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
}

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
  /** The widest date range one fetch may ask for, in days (backfill chunk size). */
  maxRangeDays: number;
  /** The main feed URL, shown as the source of published data. */
  sourceUrl: string;
  /**
   * The source's real cadence; defaults to ["Daily"]. One value: its rates live under
   * `/v1/Banks/{id}/{Frequency}Rates`. A non-daily source's records carry `validTo`.
   */
  supportedFrequencies?: Frequency[];
  /** Set when the live endpoint needs a registered key. */
  credential?: CredentialRequirement;
  /** A historical-only source: used by backfill, never scheduled. */
  historicalOnly?: boolean;
}

/**
 * How a stored figure was derived from what the bank published, when it is not the
 * published text itself. Kept in storage so that every non-verbatim figure is flagged.
 */
export type Derivation =
  | "inverted" // the bank quoted the other direction; inverted to 10 significant digits
  | "mean" // exact mean of the bank's buying and selling rates
  | "unit-normalised" // per-N quote with N not a power of ten, divided exactly to 1 unit
  | "per-troy-ounce" // per-gram metal price times 31.1034768
  | "float-recovered"; // the feed sent a binary float (4.2660999999999998): the bank's digits recovered, 15 significant

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
 * - `unknown-currency`: the code or label is not a known ISO 4217 currency and the adapter maps it to none;
 * - `unknown-unit`: the number of units the figure applies to cannot be established;
 * - `conflict`: the answer gives the same date and currency twice with different figures (neither is taken);
 * - `bad-row`: any other problem confined to one row (a missing field, the base currency against itself).
 * Ingest adds the cross-bank kinds (see src/ingest/sanity.ts): `unit-slip`, `direction-slip`,
 * `off-consensus` (held) and `jump` (published with a warning).
 */
export type RowProblemKind = "bad-rate" | "bad-date" | "unknown-currency" | "unknown-unit" | "conflict" | "bad-row";
export type CrossCheckKind = "unit-slip" | "direction-slip" | "off-consensus" | "jump";
export type AnomalyKind = RowProblemKind | CrossCheckKind;

/** What a held row said, as the answer gave it (raw text, not normalised). */
export interface RowFields {
  effectiveDate?: string;
  currency?: string;
  rate?: string;
}

/** A row of an answer that was left out, with the reason. */
export interface HeldRow extends RowFields {
  kind: RowProblemKind;
  reason: string;
  /** Where in the answer: `row 12`, `sheet "2024" row 40`, `<Cube time="2026-03-02">`... */
  source: string;
}

/** What `parse` makes of one answer: the rows taken and the rows held. */
export interface ParsedAnswer {
  records: RateRecord[];
  held: HeldRow[];
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
   * For a form and its answer that share one URL: which requests are the navigation ones
   * (`(request) => request.method === "GET"`). Used like `navigation`.
   */
  navigationRequest?: (request: Pick<FeedDocument, "url" | "method">) => boolean;
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

/** A parser returns its records alone (nothing held) or a ParsedAnswer. */
export type ParseOutput = RateRecord[] | ParsedAnswer;

/** One currency in a published document. */
export interface PublishedRate {
  currency: string;
  rate: string;
  unitMultiplier?: number;
  /** A period source's figure: the first and last day it is in force (both or neither). */
  validFrom?: IsoDate;
  validTo?: IsoDate;
}

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
