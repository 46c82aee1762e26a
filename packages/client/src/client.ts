// ExratesClient: one method per endpoint of the API (docs/API.md), over the transport of ./http.ts
// (tokens, retries, the ETag cache). A new endpoint is one method: check its options (./options.ts: an
// unknown one is a TypeError), build its path and query, then `this.json(...)` or `this.ratesAt(...)`.
import { ResponseCache, type ResponseCacheOptions } from "./cache.js";
import { ExratesError } from "./errors.js";
import { Transport, type Answer, type DebugEvent } from "./http.js";
import { banksParam, checkOptions, FREQUENCIES, groupParam, RATES_OPTIONS, ratesParams, required } from "./options.js";
import { readRatesDocument } from "./rates.js";
import { rateEvents } from "./sse.js";
import { clientCredentials, providedTokens, type TokenProvider, type TokenSource } from "./tokens.js";
import type {
  BankAverages,
  BankPeriodAverage,
  BankCalendar,
  BankDetail,
  BankListing,
  Conversion,
  ConvertQuery,
  CorrectionsList,
  CurrencyListing,
  DailyRates,
  DownloadedFile,
  EventsQuery,
  FileFormat,
  FileQuery,
  Frequency,
  GroupedRangeQuery,
  IsoDate,
  PairAverages,
  PairAveragesQuery,
  PairOnDateQuery,
  PairRangeQuery,
  PairRangeRates,
  PairRates,
  PublicationKeys,
  RangeQuery,
  RatesAnswer,
  RatesOnDate,
  RatesOptions,
  RatesEvent,
  RatesEventType,
  RatesPublishedEvent,
  ServiceStatus,
} from "./types.js";

export interface ExratesClientOptions {
  /** The API's base URL, e.g. `https://rates.example` (the `/v1/...` paths are below it). */
  baseUrl: string;
  /** The client credentials of `exrates clients create` (or give `token`). */
  clientId?: string;
  clientSecret?: string;
  /** Default: the embedded realm's endpoint, `<baseUrl>/auth/realms/<realm>/protocol/openid-connect/token`. */
  tokenUrl?: string;
  /** Default `exrates`. */
  realm?: string;
  /** Default `exchange-rates`. */
  scope?: string;
  /** Instead of the credentials: a function giving a token (called again with `renew: true` after a 401). */
  token?: TokenProvider;
  /** Retries of a 429, a 503 or a network failure (default 3). */
  retries?: number;
  /** A `Retry-After` longer than this (default 30 000 ms) is not waited for: the error carries `retryAfter`. */
  maxRetryDelayMs?: number;
  /** Per request (default 30 000 ms). */
  timeoutMs?: number;
  /** The ETag cache: its bounds, a cache shared between clients, or `false` for none. */
  cache?: ResponseCache | ResponseCacheOptions | false;
  /** Called for each request, answer, retry, token grant and reconnection (never with a header or a token). */
  debug?: (event: DebugEvent) => void;
  /** Wait before reconnecting the event stream until the server says (default 3000 ms), and its bound. */
  reconnectMs?: number;
  maxReconnectMs?: number;
  /** Another fetch (a proxy's dispatcher, a test's). */
  fetch?: typeof globalThis.fetch;
  /** The clock that times token renewals (epoch ms). */
  now?: () => number;
}

const FORMAT_TYPES: Record<FileFormat, string> = {
  json: "application/json",
  xml: "application/xml",
  csv: "text/csv",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
};

/** The server refuses a range over ten years; the client asks a year at a time and yields as it goes. */
const RANGE_WINDOW_YEARS = 1;

/** The kinds of event the stream sends (EventsQuery.types). */
const EVENT_TYPES: readonly RatesEventType[] = ["rates.published", "rates.corrected", "rates.late"];

export class ExratesClient {
  readonly baseUrl: string;
  private readonly transport: Transport;
  private readonly reconnectMs: number;
  private readonly maxReconnectMs: number;
  /** Each bank's frequency, once the API named it (a period source's rates are under its own path). */
  private readonly frequencies = new Map<string, Frequency>();

  constructor(options: ExratesClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    const base = new URL(this.baseUrl);
    if (base.username || base.password)
      throw new TypeError("baseUrl must not carry credentials: give clientId and clientSecret");
    const now = options.now ?? Date.now;
    this.reconnectMs = options.reconnectMs ?? 3000;
    this.maxReconnectMs = options.maxReconnectMs ?? 30_000;
    const debug = options.debug;
    const cache =
      options.cache === false
        ? undefined
        : options.cache instanceof ResponseCache
          ? options.cache
          : new ResponseCache(options.cache);
    let tokens: TokenSource | undefined;
    this.transport = new Transport(
      {
        fetch: options.fetch ?? globalThis.fetch,
        retries: options.retries ?? 3,
        maxRetryDelayMs: options.maxRetryDelayMs ?? 30_000,
        timeoutMs: options.timeoutMs ?? 30_000,
        userAgent: "exrates-client/0.1.0",
        debug,
        sleep,
      },
      { get: () => tokens!.get(), refused: (t) => tokens!.refused(t) },
      cache,
    );
    if (options.token) tokens = providedTokens(options.token, now);
    else {
      if (!options.clientId || !options.clientSecret)
        throw new TypeError("ExratesClient needs clientId and clientSecret, or a token function");
      const realm = options.realm ?? "exrates";
      tokens = clientCredentials({
        tokenUrl:
          options.tokenUrl ?? `${this.baseUrl}/auth/realms/${encodeURIComponent(realm)}/protocol/openid-connect/token`,
        clientId: options.clientId,
        clientSecret: options.clientSecret,
        scope: options.scope ?? "exchange-rates",
        post: (url, body) => this.transport.postForm(url, body),
        now,
        onGrant: (expiresIn) => debug?.({ event: "grant", expiresIn }),
      });
    }
  }

  /** Every bank with published rates, with its first and latest stored dates. */
  async banks(options: { signal?: AbortSignal } = {}): Promise<BankListing[]> {
    checkOptions("banks", options, ["signal"]);
    return (await this.json<{ banks: BankListing[] }>("/v1/banks", {}, options.signal)).banks;
  }

  /** One bank's resource (any bank the service knows, rates published or not). */
  async bank(bankId: string, options: { signal?: AbortSignal } = {}): Promise<BankDetail> {
    checkOptions("bank", options, ["signal"]);
    return this.json<BankDetail>(`/v1/banks/${segment(bankId)}`, {}, options.signal);
  }

  /** Every quoted currency, its English name, and the banks quoting it since when. */
  async currencies(options: { signal?: AbortSignal } = {}): Promise<CurrencyListing[]> {
    checkOptions("currencies", options, ["signal"]);
    return (await this.json<{ currencies: CurrencyListing[] }>("/v1/currencies", {}, options.signal)).currencies;
  }

  /** The bank's latest rates (of a period source: the set in force on its newest effective date). */
  async latest(bankId: string, options: RatesOptions = {}): Promise<RatesAnswer> {
    checkOptions("latest", options, RATES_OPTIONS);
    const params = ratesParams("latest", options);
    const { days, notQuoted, path } = await this.ratesAt(bankId, "/Latest", params, options);
    return { ...single(days, path), notQuoted };
  }

  /** The rates in force on a date: the bank's newest publication on or before it. */
  async onDate(bankId: string, date: IsoDate, options: RatesOptions = {}): Promise<RatesOnDate> {
    checkOptions("onDate", options, RATES_OPTIONS);
    const params = ratesParams("onDate", options);
    const { days, notQuoted, path } = await this.ratesAt(bankId, `/${segment(date)}`, params, options);
    return { ...single(days, path), notQuoted, requestedDate: date };
  }

  /**
   * Every stored date from `from` to `to`, oldest first, read a year at a time (any length of range).
   * With `group` (week, month, quarter, year): each period's average of each currency instead, in one
   * request (a window would cut a period), oldest period first.
   */
  range(bankId: string, query: GroupedRangeQuery): AsyncGenerator<BankPeriodAverage>;
  range(bankId: string, query: RangeQuery): AsyncGenerator<DailyRates>;
  async *range(bankId: string, query: RangeQuery | GroupedRangeQuery): AsyncGenerator<DailyRates | BankPeriodAverage> {
    if (query && typeof query === "object" && "group" in query && query.group !== undefined) {
      const params = groupedParams(query);
      const doc = await this.json<BankAverages>(ratesPath(bankId, "Daily"), params, query.signal);
      const { bankId: id, baseCurrency, quoteType, derivedFrom } = doc;
      const of = { bankId: id, baseCurrency, quoteType, ...(derivedFrom ? { derivedFrom } : {}) };
      for (const average of doc.averages) yield { ...of, ...average };
      return;
    }
    checkOptions("range", query, [...RATES_OPTIONS, "from", "to"]);
    const params = ratesParams("range", query);
    const to = query.to ?? todayAtUtcPlus14();
    for (const [from, until] of windows(required("range", "from", query.from), to)) {
      const { days } = await this.ratesAt(bankId, "", { from, to: until, ...params }, query);
      yield* days;
    }
  }

  /**
   * One pair as every bank (or `banks`) prices it: Latest, the date `date` (as known at `asOf`), every
   * date from `from` to `to`, or with `group` each period's average per bank. Figures are QUOTE per one BASE.
   */
  async pair(base: string, quote: string, query: PairAveragesQuery): Promise<PairAverages>;
  async pair(base: string, quote: string, query: PairRangeQuery): Promise<PairRangeRates>;
  async pair(base: string, quote: string, query?: PairOnDateQuery): Promise<PairRates>;
  async pair(
    base: string,
    quote: string,
    query: PairOnDateQuery | PairRangeQuery | PairAveragesQuery = {},
  ): Promise<PairRates | PairRangeRates | PairAverages> {
    checkOptions("pair", query, ["banks", "date", "asOf", "from", "to", "group", "signal"]);
    const q = query as { date?: string; asOf?: string | Date; from?: string; to?: string; group?: string };
    const path = `/v1/Pairs/${segment(required("pair", "base", base))}/${segment(required("pair", "quote", quote))}`;
    const params: Record<string, string> = banksParam("pair", query.banks);
    if (q.from === undefined) {
      for (const name of ["to", "group"] as const)
        if (q[name] !== undefined) throw new TypeError(`pair: ${name} is read on a range (give from)`);
      if (q.asOf !== undefined) Object.assign(params, ratesParams("pair", { asOf: q.asOf }));
      const tail = q.date === undefined ? "/Latest" : `/${segment(required("pair", "date", q.date))}`;
      return this.json<PairRates>(path + tail, params, query.signal);
    }
    if (q.date !== undefined) throw new TypeError("pair: give date or from, not both");
    if (q.asOf !== undefined) throw new TypeError("pair: asOf is answered for Latest and a date, not a range");
    params.from = required("pair", "from", q.from);
    if (q.to !== undefined) params.to = required("pair", "to", q.to);
    if (q.group !== undefined) params.group = groupParam("pair", q.group);
    return this.json<PairRangeRates | PairAverages>(path, params, query.signal);
  }

  /** An amount converted exactly through the bank's table (Latest's, or the set in force on `date`). */
  async convert(bankId: string, query: ConvertQuery): Promise<Conversion> {
    checkOptions("convert", query, ["from", "to", "amount", "date", "signal"]);
    const { amount, date } = query;
    if (!(typeof amount === "string" || (typeof amount === "number" && Number.isSafeInteger(amount) && amount >= 0)))
      throw new TypeError("convert: amount must be a decimal string (or a non-negative safe integer)");
    const params: Record<string, string> = {
      from: required("convert", "from", query.from),
      to: required("convert", "to", query.to),
      amount: String(amount),
    };
    if (date !== undefined) params.date = required("convert", "date", date);
    return this.json<Conversion>(`/v1/Banks/${segment(bankId)}/Convert`, params, query.signal);
  }

  /** The bank's publication calendar for a year (default: this year, as the server reads it). */
  async calendar(bankId: string, options: { year?: number; signal?: AbortSignal } = {}): Promise<BankCalendar> {
    checkOptions("calendar", options, ["year", "signal"]);
    const { year } = options;
    if (year !== undefined && !Number.isInteger(year)) throw new TypeError("calendar: year must be an integer");
    const params: Record<string, string> = year === undefined ? {} : { year: String(year) };
    return this.json<BankCalendar>(`/v1/Banks/${segment(bankId)}/Calendar`, params, options.signal);
  }

  /** Every revision of a stored figure made from `from` to `to` (UTC dates of the correction). */
  async corrections(
    bankId: string,
    options: { from?: IsoDate; to?: IsoDate; signal?: AbortSignal } = {},
  ): Promise<CorrectionsList> {
    checkOptions("corrections", options, ["from", "to", "signal"]);
    const params: Record<string, string> = {};
    if (options.from !== undefined) params.from = required("corrections", "from", options.from);
    if (options.to !== undefined) params.to = required("corrections", "to", options.to);
    return this.json<CorrectionsList>(`/v1/Banks/${segment(bankId)}/Corrections`, params, options.signal);
  }

  /** The scheduler's view of every bank (`exrates start` serves it; `exrates serve` answers 404). */
  async status(options: { signal?: AbortSignal } = {}): Promise<ServiceStatus> {
    checkOptions("status", options, ["signal"]);
    return this.json<ServiceStatus>("/v1/status", {}, options.signal);
  }

  /** The public keys the published generations are signed with (a JWK set). */
  async publicationKeys(options: { signal?: AbortSignal } = {}): Promise<PublicationKeys> {
    checkOptions("publicationKeys", options, ["signal"]);
    return this.json<PublicationKeys>("/v1/publications/jwks.json", {}, options.signal);
  }

  /**
   * A file of the served generation, byte for byte: `manifest.json`, `manifest.json.jws`,
   * `publication-jwks.json` or any path the manifest lists (`v1/Banks/CNB/DailyRates/Latest.json`).
   */
  async publicationFile(path: string, options: { signal?: AbortSignal } = {}): Promise<DownloadedFile> {
    checkOptions("publicationFile", options, ["signal"]);
    const rest = required("publicationFile", "path", path).split("/").map(segment).join("/");
    const answer = await this.transport.get(this.url(`/v1/publications/current/${rest}`, {}), "*/*", options.signal);
    return downloaded(answer);
  }

  /** The API's OpenAPI 3.1 document. */
  async openapi(options: { signal?: AbortSignal } = {}): Promise<Record<string, unknown>> {
    checkOptions("openapi", options, ["signal"]);
    return this.json<Record<string, unknown>>("/v1/openapi.json", {}, options.signal);
  }

  /**
   * Each publication of new rates, for as long as the loop runs: the stream is opened again after a
   * drop, a server restart or an expired token, from the last event received (`Last-Event-ID`).
   */
  events(query?: Omit<EventsQuery, "types">): AsyncGenerator<RatesPublishedEvent>;
  /** The events of the kinds named in `types`, told apart by their `type`. */
  events(query: EventsQuery & { types: readonly RatesEventType[] }): AsyncGenerator<RatesEvent>;
  events(query: EventsQuery = {}): AsyncGenerator<RatesEvent> {
    checkOptions("events", query, ["banks", "lastEventId", "signal", "types"]);
    const types = new Set<RatesEventType>(query.types ?? ["rates.published"]);
    for (const type of types)
      if (!EVENT_TYPES.includes(type))
        throw new TypeError(`events: unknown event type "${String(type)}" (known: ${EVENT_TYPES.join(", ")})`);
    const url = this.url("/v1/events", query.banks?.length ? { banks: query.banks.join(",") } : {});
    return rateEvents(this.transport, {
      url,
      types,
      lastEventId: query.lastEventId === undefined ? undefined : String(query.lastEventId),
      signal: query.signal,
      reconnectMs: this.reconnectMs,
      maxReconnectMs: this.maxReconnectMs,
    });
  }

  /** A published file's bytes as sent: Latest, a date (`date`) or a range (`from`, `to`) in any format. */
  async file(bankId: string, query: FileQuery): Promise<DownloadedFile> {
    checkOptions("file", query, [...RATES_OPTIONS, "format", "date", "from", "to"]);
    const accept = FORMAT_TYPES[query.format];
    if (!accept) throw new TypeError(`file: format must be one of ${Object.keys(FORMAT_TYPES).join(", ")}`);
    const tail = query.from !== undefined ? "" : `/${query.date === undefined ? "Latest" : segment(query.date)}`;
    const params: Record<string, string> = { format: query.format, ...ratesParams("file", query) };
    if (query.from !== undefined) Object.assign(params, { from: query.from }, query.to ? { to: query.to } : {});
    const answer = await this.atFrequency(bankId, query.frequency, (frequency) =>
      this.transport.get(this.url(ratesPath(bankId, frequency) + tail, params), accept, query.signal),
    );
    return downloaded(answer);
  }

  /** A rates document under the path of the bank's frequency (learnt from the API when not given). */
  protected ratesAt(
    bankId: string,
    tail: string,
    params: Record<string, string>,
    options: RatesOptions,
  ): Promise<{ days: DailyRates[]; notQuoted: string[]; path: string }> {
    return this.atFrequency(bankId, options.frequency, async (frequency) => {
      const path = ratesPath(bankId, frequency) + tail;
      return { ...(await this.rates(path, params, options.signal, frequency)), path };
    });
  }

  /**
   * Runs `request` at the bank's frequency: the one given, else the one learnt, else Daily; when the API
   * answers that the bank publishes at another frequency (`other-frequency`, naming it), that one is
   * remembered for the bank and asked. A frequency given and refused is the API's refusal.
   */
  private async atFrequency<T>(
    bankId: string,
    given: Frequency | undefined,
    request: (frequency: Frequency) => Promise<T>,
  ): Promise<T> {
    const key = bankId.toUpperCase();
    const frequency = given ?? this.frequencies.get(key) ?? "Daily";
    try {
      return await request(frequency);
    } catch (error) {
      const other = given ? undefined : otherFrequency(error);
      if (!other || other === frequency) throw error;
      this.frequencies.set(key, other);
      return request(other);
    }
  }

  /** A JSON answer without decimals (lists, resources, status). */
  protected async json<T>(path: string, params: Record<string, string>, signal?: AbortSignal): Promise<T> {
    const answer = await this.transport.get(this.url(path, params), "application/json", signal);
    try {
      return JSON.parse(answer.body.toString("utf8")) as T;
    } catch {
      throw new ExratesError({
        type: "about:blank",
        title: "Unreadable answer",
        status: answer.status,
        detail: "the answer is not JSON",
        request: `GET ${path}`,
      });
    }
  }

  /** A rates document, read losslessly, with the currencies it was asked for and does not hold. */
  protected async rates(
    path: string,
    params: Record<string, string>,
    signal?: AbortSignal,
    frequency: Frequency = "Daily",
  ): Promise<{ days: DailyRates[]; notQuoted: string[] }> {
    const answer = await this.transport.get(this.url(path, params), "application/json", signal);
    const notQuoted = (answer.headers["x-currencies-not-quoted"] ?? "").split(",").map((c) => c.trim());
    return {
      days: readRatesDocument(answer.body.toString("utf8"), `GET ${path}`, frequency),
      notQuoted: notQuoted.filter(Boolean),
    };
  }

  private url(path: string, params: Record<string, string>): URL {
    const url = new URL(this.baseUrl + path);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    return url;
  }
}

/** A path segment as given, escaped (a slash in an id is the server's 400, not another path). */
const segment = (value: string): string => encodeURIComponent(value);

/** The rates path of a bank at a frequency: `/v1/Banks/CNB/DailyRates`, `/v1/Banks/HMRC/MonthlyRates`. */
const ratesPath = (bankId: string, frequency: Frequency): string => `/v1/Banks/${segment(bankId)}/${frequency}Rates`;

/** The query of a grouped range (a daily source's: a period source's figures are already per period). */
function groupedParams(query: GroupedRangeQuery): Record<string, string> {
  checkOptions("range", query, ["currencies", "base", "signal", "from", "to", "group"]);
  const params: Record<string, string> = {
    ...ratesParams("range", query),
    from: required("range", "from", query.from),
    group: groupParam("range", query.group),
  };
  if (query.to !== undefined) params.to = required("range", "to", query.to);
  return params;
}

/** The frequency an `other-frequency` refusal names, if `error` is one. */
function otherFrequency(error: unknown): Frequency | undefined {
  if (!(error instanceof ExratesError) || error.type !== "urn:exrates:problem:other-frequency") return undefined;
  const named = (error.extensions.supportedFrequencies as unknown[] | undefined)?.[0];
  return FREQUENCIES.find((f) => f === named);
}

/** A file as sent: its bytes, type, name and ETag. */
function downloaded(answer: Answer): DownloadedFile {
  const filename = /filename="([^"]+)"/.exec(answer.headers["content-disposition"] ?? "")?.[1];
  return {
    bytes: answer.body,
    contentType: answer.headers["content-type"] ?? "",
    ...(filename ? { filename } : {}),
    ...(answer.headers.etag ? { etag: answer.headers.etag } : {}),
    fromCache: answer.fromCache,
  };
}

function single(days: DailyRates[], path: string): DailyRates {
  const day = days[0];
  if (days.length !== 1 || !day)
    throw new ExratesError({
      type: "about:blank",
      title: "Unreadable answer",
      status: 200,
      detail: `expected one effective date, got ${days.length}`,
      request: `GET ${path}`,
    });
  return day;
}

/** [from, to] cut into windows of RANGE_WINDOW_YEARS (the last may be shorter). */
export function windows(from: IsoDate, to: IsoDate): Array<[IsoDate, IsoDate]> {
  // A malformed or reversed range is the server's 400: asked once as given.
  if (!isDate(from) || !isDate(to) || to < from) return [[from, to]];
  const out: Array<[IsoDate, IsoDate]> = [];
  let start = from;
  while (start <= to) {
    const next = addYears(start, RANGE_WINDOW_YEARS);
    const end = addDays(next, -1) < to ? addDays(next, -1) : to;
    out.push([start, end]);
    start = next;
  }
  return out;
}

/** A real calendar date (Date.parse rolls 2025-02-30 over to March). */
function isDate(value: string): boolean {
  const at = /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : NaN;
  return !Number.isNaN(at) && new Date(at).toISOString().slice(0, 10) === value;
}

function addYears(date: IsoDate, years: number): IsoDate {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  // 29 February plus a year is 1 March: the next window starts the day after the last one ended.
  return new Date(Date.UTC(y + years, m - 1, d)).toISOString().slice(0, 10);
}

function addDays(date: IsoDate, days: number): IsoDate {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

function todayAtUtcPlus14(): IsoDate {
  return new Date(Date.now() + 14 * 3_600_000).toISOString().slice(0, 10);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
