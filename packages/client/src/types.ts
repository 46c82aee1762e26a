// What the client's methods return: the API's answers as typed objects. Rates are decimal strings as
// published (`"24.170"`), never binary floats. The shapes shared with the server come from ./api-types.ts.
import type {
  AverageGroup,
  BankAverages,
  BankResource,
  BankStatus,
  Frequency,
  IsoDate,
  PublishedRate,
  QuoteType,
  RatesCorrected,
  RatesLate,
  RatesPublished,
} from "./api-types.js";

export type * from "./api-types.js";

/**
 * The rates of one effective date (of a period source: the set in force from that date, each figure with
 * its `validFrom` and `validTo`).
 */
export interface DailyRates {
  bankId: string;
  /** The currency the rates are quoted against (the bank's own, except for a few feeds; `base` when asked). */
  baseCurrency: string;
  /** Direct: base units per foreign unit(s). Indirect: foreign units per base unit. */
  quoteType: QuoteType;
  /** How often the source publishes: the path the rates were read from (`DailyRates`, `MonthlyRates`...). */
  frequency: Frequency;
  effectiveDate: IsoDate;
  /** Sorted by currency code; `rate` is the exact text, `unitMultiplier` n means per 10^n units. */
  rates: PublishedRate[];
  /** With `base`: the bank's own base and direction the table was re-expressed from (not the bank's figures). */
  derivedFrom?: { baseCurrency: string; quoteType: QuoteType };
  /** With `asOf`: the instant answered for, in UTC. */
  asOf?: string;
  /** With `provenance: true`: the bank's answers the date's figures came from. */
  provenance?: ProvenanceSource[];
}

/**
 * Where a date's figures came from (`provenance: true`, and each figure of a correction): an answer the
 * service fetched from the bank, or a file an operator imported (`exrates import`). Tell them by `kind`.
 */
export type ProvenanceSource = FetchedSource | ImportedSource;

/** An answer the service fetched from the bank. */
export interface FetchedSource {
  /** Absent from servers that predate imported sources: they show every source as fetched. */
  kind?: "fetch";
  /** The URL asked (secrets masked). */
  url: string;
  fetchedAt: string;
  /** The sha256 of the answer's bytes; null for figures stored before answers were hashed. */
  sha256: string | null;
  /** Only when the date's figures came from more than one answer: the currencies from this one. */
  currencies?: string[];
  /** Anything else the server says of the source. */
  [member: string]: unknown;
}

/** A saved answer an operator imported: the service fetched nothing; `declaredUrl` is the importer's word. */
export interface ImportedSource {
  kind: "import";
  /** The file's base name; null for imports recorded before file names were kept. */
  file: string | null;
  /** Who imported it (`exrates import --by`, default the OS user); null for older imports. */
  importedBy: string | null;
  importedAt: string;
  /** The sha256 of the file's bytes. */
  sha256: string | null;
  /** The URL the importer said the file came from (`--url`), unverified; absent when none was given. */
  declaredUrl?: string;
  /** Only when the date's figures came from more than one source: the currencies from this one. */
  currencies?: string[];
  /** Anything else the server says of the source. */
  [member: string]: unknown;
}

/** Latest, or the set in force on a date, as answered. */
export interface RatesAnswer extends DailyRates {
  /** Currencies asked for (`currencies`) that the answer holds no rate of. */
  notQuoted: string[];
}

/** What a rates request may ask besides its dates (each is a query parameter of the API). */
export interface RatesOptions extends CurrencyFilter {
  /** Re-express the table against this currency (ISO 4217), through the bank's own figures. */
  base?: string;
  /** As the service knew it at this instant (RFC 3339, or a Date). */
  asOf?: string | Date;
  /** Name the bank's answers each date's figures came from. */
  provenance?: boolean;
  /**
   * The source's frequency. Without it the client asks the daily path first and, when the API answers that
   * the bank publishes at another frequency, uses that one's path from then on (remembered per bank).
   */
  frequency?: Frequency;
}

/** `convert`: an amount from one currency to another through a bank's table. */
export interface ConvertQuery {
  from: string;
  to: string;
  /** A plain non-negative decimal, as text (`"1250.00"`) or a safe integer. */
  amount: string | number;
  /** The set in force on this date; without it, Latest's. */
  date?: IsoDate;
  signal?: AbortSignal;
}

/** A figure a conversion used. */
export interface UsedFigure {
  currency: string;
  rate: string;
  unit: number;
  effectiveDate: IsoDate;
}

/** `GET /v1/Banks/{id}/Convert`: every decimal a string, exact. */
export interface Conversion {
  bankId: string;
  baseCurrency: string;
  quoteType: QuoteType;
  /** The date asked for, when one was. */
  date?: IsoDate;
  effectiveDate: IsoDate;
  amount: string;
  from: string;
  to: string;
  /** Rounded half away from zero to the target currency's minor units. */
  result: string;
  unrounded: string;
  unroundedExact: boolean;
  rounding: { rule: string; decimals: number };
  formula: string;
  figures: UsedFigure[];
}

/** A closing of a bank's calendar: the date and its name. */
export interface Closing {
  date: IsoDate;
  name: string;
}

/** `GET /v1/Banks/{id}/Calendar?year=`: a bank's publication days and closings for a year. */
export interface BankCalendar {
  bankId: string;
  year: number;
  timeZone: string;
  publicationTime: string;
  country: string | null;
  publicationDays: IsoDate[];
  closings: Closing[];
  observed: { publishedOnClosing: Closing[]; notPublished: IsoDate[] };
}

/** One figure of a correction, with where it came from. */
export interface CorrectedFigure {
  rate: string;
  unitMultiplier?: number;
  storedAt: string;
  source: ProvenanceSource;
}

/** `GET /v1/Banks/{id}/Corrections`: every revision of a stored figure in a span of correction dates. */
export interface CorrectionsList {
  bankId: string;
  from: IsoDate;
  to: IsoDate;
  corrections: Array<{ effectiveDate: IsoDate; currency: string; previous: CorrectedFigure; current: CorrectedFigure }>;
}

/** The public keys the publications are signed with (`GET /v1/publications/jwks.json`), a JWK set. */
export interface PublicationKeys {
  keys: Array<Record<string, unknown>>;
}

/** The set in force on a date: `effectiveDate` is the publication in force, on or before `requestedDate`. */
export interface RatesOnDate extends RatesAnswer {
  requestedDate: IsoDate;
}

/**
 * An entry of `GET /v1/banks`: the Bank resource with its first and latest stored dates. Before the
 * server has a database it lists only `id`, `name` and `latestEffectiveDate`.
 */
export type BankListing = Pick<BankResource, "id" | "name"> &
  Partial<Omit<BankResource, "id" | "name">> & {
    firstEffectiveDate?: IsoDate;
    latestEffectiveDate?: IsoDate;
  };

/** `GET /v1/banks/{id}`: the Bank resource; under `exrates start` with the bank's status row. */
export interface BankDetail extends BankResource {
  status?: BankStatus;
}

/** An entry of `GET /v1/currencies`. */
export interface CurrencyListing {
  code: string;
  /** The English name (absent when ICU has none). */
  name?: string;
  /** Each bank quoting it, and the first and latest dates it did; `frequency` names a bank's second table (NBP: Weekly). */
  banks: Array<{ bankId: string; frequency?: string; since: IsoDate; latest: IsoDate }>;
}

/** `GET /v1/status` (served by `exrates start` only). */
export interface ServiceStatus {
  banks: BankStatus[];
  scheduler?: { instance: string; leader: boolean; leaderInstance: string | null };
}

/** A `rates.published` event of `GET /v1/events`. */
export type RatesPublishedEvent = RatesPublished & { id: number; type: "rates.published" };

/** The kinds of event the stream sends. */
export type RatesEventType = "rates.published" | "rates.corrected" | "rates.late";

/** Any event of the stream, told apart by `type`. */
export type RatesEvent =
  | (RatesPublished & { id: number; type: "rates.published" })
  | (RatesCorrected & { id: number; type: "rates.corrected" })
  | (RatesLate & { id: number; type: "rates.late" });

export type FileFormat = "json" | "xml" | "csv" | "xlsx";

/** A published file as sent: its bytes untouched. */
export interface DownloadedFile {
  bytes: Buffer;
  contentType: string;
  /** From `Content-Disposition` (CSV and XLSX). */
  filename?: string;
  etag?: string;
  /** True when the server answered 304 and the bytes came from the client's cache. */
  fromCache: boolean;
}

/** Every rates request may keep only some currencies (ISO 4217 codes). */
export interface CurrencyFilter {
  currencies?: readonly string[];
  signal?: AbortSignal;
}

export interface RangeQuery extends RatesOptions {
  from: IsoDate;
  /** Default: today where the day starts first (UTC+14), as the server reads it. */
  to?: IsoDate;
}

/** Which file: Latest (no date), a date, or a range (`from`, optional `to`). */
export type FileQuery = RatesOptions & { format: FileFormat } & (
    | { date?: undefined; from?: undefined }
    | { date: IsoDate; from?: undefined }
    | { from: IsoDate; to?: IsoDate; date?: undefined }
  );

export interface EventsQuery {
  /** Only these banks' events. */
  banks?: readonly string[];
  /**
   * The kinds of event wanted (default `["rates.published"]`): `rates.corrected` (figures already stored
   * changed) and `rates.late` (a publication past its time) come only when named here.
   */
  types?: readonly RatesEventType[];
  /** Start after this event id (events are kept 8 days); without it, from the moment of connecting. */
  lastEventId?: string | number;
  signal?: AbortSignal;
}

/** `range(id, { from, to?, group })`: a daily range averaged per period (`asOf`, `provenance` are not combined). */
export type GroupedRangeQuery = Omit<RangeQuery, "asOf" | "provenance" | "frequency"> & {
  group: AverageGroup;
};

/** What `range(id, { group })` yields: one period's average of one currency, with the table it is of. */
export type BankPeriodAverage = BankAverages["averages"][number] &
  Pick<BankAverages, "bankId" | "baseCurrency" | "quoteType" | "derivedFrom">;

/** `pair(base, quote, ...)`: Latest (no date), a date, or a range (`from`, optional `to`, optional `group`). */
export interface PairQuery {
  /** Only these banks (their ids); every bank with stored rates when absent. */
  banks?: readonly string[];
  signal?: AbortSignal;
}

/** Latest or the set in force on `date`, as known at `asOf` when given. */
export interface PairOnDateQuery extends PairQuery {
  date?: IsoDate;
  asOf?: string | Date;
  from?: undefined;
  group?: undefined;
}

/** Every date from `from` to `to` (default: today, as the server reads it). */
export interface PairRangeQuery extends PairQuery {
  from: IsoDate;
  to?: IsoDate;
  date?: undefined;
  group?: undefined;
}

/** A range averaged per period and bank. */
export interface PairAveragesQuery extends PairQuery {
  from: IsoDate;
  to?: IsoDate;
  group: AverageGroup;
  date?: undefined;
}
