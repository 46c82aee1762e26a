// What the client's methods return: the API's answers as typed objects. Rates are decimal strings as
// published (`"24.170"`), never binary floats. The shapes shared with the server come from ./api-types.ts.
import type { BankResource, BankStatus, IsoDate, PublishedRate, QuoteType, RatesPublished } from "./api-types.js";

export type * from "./api-types.js";

/** The rates of one effective date. */
export interface DailyRates {
  bankId: string;
  /** The currency the rates are quoted against (the bank's own, except for a few feeds). */
  baseCurrency: string;
  /** Direct: base units per foreign unit(s). Indirect: foreign units per base unit. */
  quoteType: QuoteType;
  effectiveDate: IsoDate;
  /** Sorted by currency code; `rate` is the exact text, `unitMultiplier` n means per 10^n units. */
  rates: PublishedRate[];
}

/** Latest, or the set in force on a date, as answered. */
export interface RatesAnswer extends DailyRates {
  /** Currencies asked for (`currencies`) that the answer holds no rate of. */
  notQuoted: string[];
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
  /** Each bank quoting it, and the first and latest dates it did. */
  banks: Array<{ bankId: string; since: IsoDate; latest: IsoDate }>;
}

/** `GET /v1/status` (served by `exrates start` only). */
export interface ServiceStatus {
  banks: BankStatus[];
  scheduler?: { instance: string; leader: boolean; leaderInstance: string | null };
}

/** A `rates.published` event of `GET /v1/events`. */
export type RatesPublishedEvent = RatesPublished & { id: number };

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

export interface RangeQuery extends CurrencyFilter {
  from: IsoDate;
  /** Default: today where the day starts first (UTC+14), as the server reads it. */
  to?: IsoDate;
}

/** Which file: Latest (no date), a date, or a range (`from`, optional `to`). */
export type FileQuery = CurrencyFilter & { format: FileFormat } & (
    | { date?: undefined; from?: undefined }
    | { date: IsoDate; from?: undefined }
    | { from: IsoDate; to?: IsoDate; date?: undefined }
  );

export interface EventsQuery {
  /** Only these banks' events. */
  banks?: readonly string[];
  /** Start after this event id (events are kept 8 days); without it, from the moment of connecting. */
  lastEventId?: string | number;
  signal?: AbortSignal;
}
