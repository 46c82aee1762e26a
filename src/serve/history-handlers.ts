// The history and discovery endpoints, answered from the store through read-only connections (WAL
// readers: the daemon keeps writing): the set in force on a date (from a cache of rendered answers,
// src/serve/history-cache.ts), a range of dates (read in one snapshot of its own, streamed), `GET
// /v1/banks` with each bank's stored dates, `GET /v1/currencies`, and the `currencies` filter on Latest
// (which stays answered from the published tree). Negotiation, conditional requests and encodings
// follow the published files': the ETag names the rows behind the response (their count, newest
// stored_at and fetch id) and the request that shaped it, so it changes exactly when either does.
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { brotliCompressSync, createBrotliCompress, createGzip, gzipSync } from "node:zlib";

import { isLosslessNumber, parse as parseLossless } from "lossless-json";

import { isPublishableCurrency } from "../feed/currency.js";
import { marketCodeFacts } from "../feed/market-codes.js";
import {
  daysOf,
  daysOfAsync,
  historyCsv,
  historyJson,
  historyXlsxBytes,
  historyXlsxStream,
  historyXml,
  type HistoryDay,
  type HistoryHeader,
  type HistoryXlsxMeta,
} from "../publish/render-history.js";
import { isPostgres, type Store } from "../store/database.js";
import {
  HistoryReader,
  historyEtag,
  type HistoryRow,
  type Eventually,
  type HistoryStore,
  type InForce,
  type RowsVersion,
} from "../store/history.js";
import { PostgresHistoryReader } from "../store/history-postgres.js";
import type { BankResource, IsoDate, QuoteType } from "../types.js";
import { AnswerCaches, BROTLI, ownBytes, type Answer, type AnswerCache, type Encoding } from "./history-cache.js";
import { FORMATS, MEDIA_TYPES, negotiate, pickEncoding, type Format } from "./negotiate.js";
import { PROBLEM_TYPES, sendProblem } from "./respond.js";
import type { ApiHandlers, HistoryRoute, ResourceRoute } from "./routes.js";
import { VARY, type LoadedTree, type Representation } from "./tree.js";

export interface HistoryDeps {
  /** The read-only store, or undefined while there is no database to read. */
  reader: () => HistoryStore | undefined;
  tree: () => LoadedTree | undefined;
  now: () => number;
  /** Every bank the service knows, so that a known bank with no rates is told from an unknown one. */
  knownBanks?: () => Promise<ReadonlyMap<string, BankResource>>;
}

/** The longest range answered, in years. */
export const MAX_RANGE_YEARS = 10;
/** Header listing the requested currencies the response holds no rate of. */
export const NOT_QUOTED_HEADER = "x-currencies-not-quoted";

const CONTENT_TYPES: Record<Format, string> = {
  json: `${MEDIA_TYPES.json}; charset=utf-8`,
  xml: `${MEDIA_TYPES.xml}; charset=utf-8`,
  csv: `${MEDIA_TYPES.csv}; charset=utf-8`,
  xlsx: MEDIA_TYPES.xlsx,
};
const RETRY_SOON = { "retry-after": "5" };
const REOPEN_MS = 5000;

/**
 * The store read-only: on SQLite a connection of its own, opened on first use (and tried again later
 * while the database does not exist); on a shared PostgreSQL store (`store`), the store's own pool.
 */
export function historySource(path: string, now: () => number = Date.now, store?: Store) {
  if (store && isPostgres(store)) {
    const shared = new PostgresHistoryReader(store);
    return { reader: (): HistoryStore | undefined => shared, close: () => shared.close() };
  }
  let reader: HistoryReader | undefined;
  let triedAt = -Infinity;
  return {
    reader(): HistoryStore | undefined {
      if (!reader && now() - triedAt >= REOPEN_MS) {
        triedAt = now();
        try {
          reader = HistoryReader.open(path, { manualRefresh: true });
        } catch {
          reader = undefined;
        }
      }
      return reader;
    },
    close(): void {
      reader?.close();
      reader = undefined;
    },
  };
}

/** The API handlers with the history routes added, `/v1/banks` from the store and the filter on Latest. */
export function withHistory(api: ApiHandlers, deps: HistoryDeps): ApiHandlers {
  return {
    ...api,
    history: (req, res, head, route, query) => sendHistory(deps, req, res, head, route, query),
    resource: (req, res, head, route: ResourceRoute, query) => {
      if (route.kind === "banks" && deps.reader())
        return void sendBanks(deps, req, res, head, query).catch(() => res.destroy());
      if (route.kind === "latest" && /(^|&)currencies=/i.test(query))
        return void sendFilteredLatest(deps, req, res, head, route, query).catch(() => res.destroy());
      return api.resource(req, res, head, route, query);
    },
  };
}

// ---------------------------------------------------------------- requests

class BadRequest extends Error {}

/** The query's parameters by lower-case name; a parameter given twice (other than format) is refused. */
function parameters(query: string): Map<string, string> {
  const out = new Map<string, string>();
  if (!query) return out;
  for (const [k, v] of new URLSearchParams(query)) {
    const name = k.toLowerCase();
    if (name === "format") continue;
    if (out.has(name)) throw new BadRequest(`The parameter ${name} is given more than once`);
    out.set(name, v);
  }
  return out;
}

function formatValues(query: string): string[] {
  if (!query || !/(^|&)format=/i.test(query)) return [];
  const values: string[] = [];
  for (const [k, v] of new URLSearchParams(query)) if (k.toLowerCase() === "format") values.push(v);
  return values;
}

/** `currencies=USD,EUR`: the codes, upper case, sorted; undefined without the parameter. */
function currencyFilter(params: Map<string, string>): string[] | undefined {
  const raw = params.get("currencies");
  if (raw === undefined) return undefined;
  const codes = new Set<string>();
  for (const part of raw.split(",")) {
    const code = part.trim().toUpperCase();
    if (!/^[A-Z]{3}$/.test(code) || !isPublishableCurrency(code))
      throw new BadRequest(`currencies: "${part.trim()}" is neither an ISO 4217 currency code nor a market code`);
    codes.add(code);
  }
  return [...codes].sort();
}

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** A real calendar date written YYYY-MM-DD (proleptic Gregorian, as Date is). */
function isDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const year = Number(text.slice(0, 4));
  const month = Number(text.slice(5, 7));
  const day = Number(text.slice(8, 10));
  if (month < 1 || month > 12 || day < 1 || day > DAYS_IN_MONTH[month - 1]!) return false;
  return month !== 2 || day < 29 || (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0));
}

function dateParameter(params: Map<string, string>, name: string): IsoDate | undefined {
  const value = params.get(name);
  if (value === undefined) return undefined;
  if (!isDate(value)) throw new BadRequest(`${name}: "${value}" is not a date (YYYY-MM-DD)`);
  return value;
}

/** Today's date where it is latest: in UTC+14, so that no bank's newest date is ever in the future. */
export function todayAnywhere(now: number): IsoDate {
  const minute = Math.floor(now / 60_000);
  if (minute !== today.minute) today = { minute, date: new Date(now + 14 * 3_600_000).toISOString().slice(0, 10) };
  return today.date;
}
/** The last answer of todayAnywhere, by minute (a date changes on a whole minute). */
let today = { minute: NaN, date: "" };

// ---------------------------------------------------------------- responses

/**
 * A body: text pieces (JSON, XML, CSV; compressed as negotiated), or a binary document's bytes (XLSX);
 * made as they are sent, from days in memory or read chunk by chunk (SQLite) or asynchronously (PostgreSQL).
 */
type Body = { text: Iterable<string> | AsyncIterable<string> } | { binary: Iterable<Buffer> | AsyncIterable<Buffer> };

/** A response made for this request: its ETag and Last-Modified, then (unless 304 or HEAD) its body. */
interface Dynamic {
  format: Format;
  etag: string;
  /** ISO 8601 time of the newest data behind it, if any. */
  lastModified?: string;
  headers?: Record<string, string>;
  body: () => Body | Promise<Body>;
  /** A complete answer's bytes by encoding, when they are already known (the dated answers' cache). */
  bytes?: (encoding: Encoding) => Buffer;
}

const answers = new WeakMap<HistoryStore, AnswerCaches>();
const versionKey = (v: RowsVersion) => `${v.rows}/${v.maxStoredAt}/${v.maxFetchId}`;

const encodedEtag = (etag: string, encoding: "gzip" | "br") => `${etag.slice(0, -1)}-${encoding}"`;

function notModified(req: IncomingMessage, etag: string, lastModifiedSeconds: number | undefined): boolean {
  const inm = req.headers["if-none-match"];
  if (inm !== undefined) {
    if (inm.trim() === "*") return true;
    const known = new Set([etag, encodedEtag(etag, "gzip"), encodedEtag(etag, "br")]);
    return inm.split(",").some((tag) => known.has(tag.trim().replace(/^W\//, "")));
  }
  const ims = req.headers["if-modified-since"];
  if (ims === undefined || lastModifiedSeconds === undefined) return false;
  const since = Date.parse(ims);
  return Number.isFinite(since) && lastModifiedSeconds * 1000 <= since;
}

const BLOCK = 64 * 1024;

/** Joins small pieces into blocks of at least BLOCK characters (a day's piece is small; a block is sent). */
async function* blocks(pieces: Iterable<string> | AsyncIterable<string>): AsyncGenerator<string> {
  let text = "";
  for await (const piece of pieces) {
    text += piece;
    if (text.length >= BLOCK) {
      yield text;
      text = "";
    }
  }
  if (text) yield text;
}

async function sendDynamic(req: IncomingMessage, res: ServerResponse, head: boolean, d: Dynamic): Promise<void> {
  const encoding =
    d.format === "xlsx" ? "identity" : pickEncoding(req.headers["accept-encoding"], { br: true, gzip: true });
  const etag = encoding === "identity" ? d.etag : encodedEtag(d.etag, encoding);
  const stamp = d.lastModified ? Date.parse(d.lastModified) : NaN;
  const seconds = Number.isFinite(stamp) ? Math.floor(stamp / 1000) : undefined;
  const common: Record<string, string> = {
    etag,
    vary: VARY,
    "cache-control": "private",
    ...(seconds !== undefined ? { "last-modified": new Date(seconds * 1000).toUTCString() } : {}),
    ...d.headers,
  };
  if (notModified(req, d.etag, seconds)) {
    res.writeHead(304, common);
    res.end();
    return;
  }
  const headers: Record<string, string | number> = {
    "content-type": CONTENT_TYPES[d.format],
    ...common,
    ...(encoding !== "identity" ? { "content-encoding": encoding } : {}),
    "x-content-type-options": "nosniff",
  };
  if (head) {
    res.writeHead(200, headers);
    res.end();
    return;
  }
  if (d.bytes) {
    const bytes = d.bytes(encoding);
    res.writeHead(200, { ...headers, "content-length": bytes.length });
    res.end(bytes);
    return;
  }
  const body = await d.body();
  if ("binary" in body) return sendBytes(res, headers, body.binary);
  // Text goes in blocks of BLOCK characters; a document that fits one block goes out whole, with its length.
  const text = blocks(body.text);
  const first = await text.next();
  const second = first.done ? first : await text.next();
  if (second.done) {
    const whole = first.done ? "" : first.value;
    const bytes =
      encoding === "gzip"
        ? gzipSync(whole)
        : encoding === "br"
          ? brotliCompressSync(whole, BROTLI)
          : Buffer.from(whole);
    res.writeHead(200, { ...headers, "content-length": bytes.length });
    res.end(bytes);
    return;
  }
  res.writeHead(200, headers);
  const source = Readable.from(
    (async function* () {
      yield first.value as string;
      yield second.value;
      yield* text;
    })(),
  );
  if (encoding === "identity") return pipeline(source, res);
  const compressor = encoding === "gzip" ? createGzip() : createBrotliCompress(BROTLI);
  return pipeline(source, compressor, res);
}

/** Bytes as they are made: whole with their length when they fit one block, else streamed. */
async function sendBytes(
  res: ServerResponse,
  headers: Record<string, string | number>,
  pieces: Iterable<Buffer> | AsyncIterable<Buffer>,
): Promise<void> {
  const iterator = (async function* () {
    yield* pieces;
  })();
  const start: Buffer[] = [];
  let size = 0;
  let next = await iterator.next();
  while (!next.done && size < BLOCK) {
    start.push(next.value);
    size += next.value.length;
    next = await iterator.next();
  }
  if (next.done) {
    const bytes = Buffer.concat(start);
    res.writeHead(200, { ...headers, "content-length": bytes.length });
    res.end(bytes);
    return;
  }
  res.writeHead(200, headers);
  const pending = next.value;
  return pipeline(
    Readable.from(
      (async function* () {
        yield Buffer.concat(start);
        yield pending;
        yield* iterator;
      })(),
    ),
    res,
  );
}

function sendJsonDocument(
  req: IncomingMessage,
  res: ServerResponse,
  head: boolean,
  body: Buffer,
  lastModified: string,
) {
  const etag = historyEtag(createHash("sha256").update(body).digest("hex"));
  return sendDynamic(req, res, head, {
    format: "json",
    etag,
    lastModified,
    body: () => ({ text: [body.toString("utf8")] }),
  });
}

/**
 * A document's rendering in `format`, streamed: rows are read as the bytes go out, from days in
 * memory or read chunk by chunk (SQLite), or read asynchronously (PostgreSQL).
 */
function render(
  format: Format,
  header: HistoryHeader,
  days: () => Iterable<HistoryDay> | AsyncIterable<HistoryDay>,
  meta: HistoryXlsxMeta,
): () => Body {
  return () => {
    const source = days();
    switch (format) {
      case "json":
        return { text: historyJson(header, source) };
      case "xml":
        return { text: historyXml(header, source) };
      case "csv":
        return { text: historyCsv(header, source) };
      case "xlsx":
        return { binary: historyXlsxStream(header, source, meta) };
    }
  };
}

/** A short document's rendering in `format`, whole. */
function renderWhole(format: Format, header: HistoryHeader, days: HistoryDay[], meta: HistoryXlsxMeta): Buffer {
  switch (format) {
    case "json":
      return Buffer.from([...historyJson(header, days)].join(""));
    case "xml":
      return Buffer.from([...historyXml(header, days)].join(""));
    case "csv":
      return Buffer.from([...historyCsv(header, days)].join(""));
    case "xlsx":
      return historyXlsxBytes(header, days, meta);
  }
}

// ---------------------------------------------------------------- the bank's facts from the tree

const bankResources = new WeakMap<Representation, BankResource>();

function bankResource(rep: Representation | undefined): BankResource | undefined {
  if (!rep) return undefined;
  let resource = bankResources.get(rep);
  if (!resource) {
    resource = JSON.parse(rep.identity.body.toString("utf8")) as BankResource;
    bankResources.set(rep, resource);
  }
  return resource;
}

interface ParsedLatest {
  header: HistoryHeader;
  day: HistoryDay;
}
const latestDocuments = new WeakMap<Representation, ParsedLatest>();

/** Latest.json read back, each rate's text exactly as published. */
function parsedLatest(rep: Representation): ParsedLatest {
  let parsed = latestDocuments.get(rep);
  if (!parsed) {
    const doc = parseLossless(rep.identity.body.toString("utf8")) as {
      bankId: string;
      baseCurrency: string;
      quoteType: QuoteType;
      rates: Record<string, Record<string, { rate: unknown; unitMultiplier?: unknown }>>;
    };
    const [date, day] = Object.entries(doc.rates)[0] ?? ["", {}];
    const rows: HistoryRow[] = Object.entries(day).map(([currency, r]) => ({
      effectiveDate: date,
      currency,
      rate: isLosslessNumber(r.rate) ? r.rate.value : String(r.rate),
      unitMultiplier: isLosslessNumber(r.unitMultiplier) ? Number(r.unitMultiplier.value) : 0,
    }));
    parsed = {
      header: { bankId: doc.bankId, baseCurrency: doc.baseCurrency, quoteType: doc.quoteType },
      day: { date, rows },
    };
    latestDocuments.set(rep, parsed);
  }
  return parsed;
}

/** How a bank quotes: as recorded at ingest, else as its Latest.json says. */
function headerOf(
  reader: HistoryStore,
  tree: LoadedTree | undefined,
  id: string,
): Eventually<HistoryHeader | undefined> {
  const quoting = reader.quoting(id);
  return quoting instanceof Promise ? quoting.then((q) => headerFrom(q, tree, id)) : headerFrom(quoting, tree, id);
}

function headerFrom(
  quoting: { baseCurrency: string; quoteType: QuoteType } | undefined,
  tree: LoadedTree | undefined,
  id: string,
): HistoryHeader | undefined {
  if (quoting) return { bankId: id, ...quoting };
  const rep = tree?.banks.get(id)?.latest.json;
  return rep ? parsedLatest(rep).header : undefined;
}

const notQuotedHeader = (requested: string[] | undefined, present: Set<string>): Record<string, string> => {
  const missing = (requested ?? []).filter((c) => !present.has(c));
  return missing.length ? { [NOT_QUOTED_HEADER]: missing.join(",") } : {};
};

// ---------------------------------------------------------------- the endpoints

async function sendHistory(
  deps: HistoryDeps,
  req: IncomingMessage,
  res: ServerResponse,
  head: boolean,
  route: HistoryRoute,
  query: string,
): Promise<void> {
  try {
    if (route.kind === "dated" && !isDate(route.date))
      throw new BadRequest(`"${route.date}" is not a date (YYYY-MM-DD)`);
    const offered = route.kind === "currencies" ? (["json"] as const) : FORMATS;
    const negotiation = negotiate(route.suffix, formatValues(query), req.headers.accept, offered);
    if (!negotiation.ok) {
      const { status, detail, supported } = negotiation;
      return sendProblem(res, status, { detail, extra: { supported }, headers: { vary: "Accept" }, head });
    }
    const params = parameters(query);
    const currencies = route.kind === "currencies" ? undefined : currencyFilter(params);
    const reader = deps.reader();
    // A value from SQLite is used as it is (no await: the SQLite path stays synchronous), a promise
    // from PostgreSQL awaited.
    const turn = reader?.refreshThisTurn();
    if (turn instanceof Promise) await turn;
    if (!reader)
      return sendProblem(res, 503, { detail: "The rate store is not available yet", headers: RETRY_SOON, head });
    if (route.kind === "currencies") return await sendCurrencies(reader, req, res, head);
    const tree = deps.tree();
    const headerRead = headerOf(reader, tree, route.id);
    const header = headerRead instanceof Promise ? await headerRead : headerRead;
    const datesRead = header && reader.dates(route.id);
    const dates = datesRead instanceof Promise ? await datesRead : datesRead;
    if (!header || dates!.length === 0)
      return sendNoBank(deps, res, head, route.id, header !== undefined, `No rates stored for bank ${route.id}`);
    const resource = bankResource(tree?.banks.get(route.id)?.bank);
    const names = { bankName: resource?.name[0]?.name ?? route.id, website: resource?.website ?? "" };
    const format = negotiation.format;
    const factsKey = [
      header.baseCurrency,
      header.quoteType,
      format === "xlsx" ? `${names.bankName} ${names.website}` : "",
    ].join(" ");

    if (route.kind === "dated") {
      const inForce = reader.inForce(route.id, route.date, todayAnywhere(deps.now()));
      const found = inForce instanceof Promise ? await inForce : inForce;
      if (found.kind === "none") return notInForce(res, head, route.id, route.date, found);
      const date = found.effectiveDate;
      const location = `/v1/Banks/${route.id}/DailyRates/${date}${route.suffix ? `.${route.suffix}` : ""}${query ? `?${query}` : ""}`;
      let caches = answers.get(reader);
      if (!caches) answers.set(reader, (caches = new AnswerCaches()));
      const cache = caches.for(currencies !== undefined);
      const key = [route.id, date, format, currencies?.join(",") ?? "*", factsKey].join("\u0000");
      const id = route.id;
      const made = ({ rows, version }: { rows: HistoryRow[]; version: RowsVersion }): Answer => {
        const meta = { ...names, from: date, to: date, storedAt: version.maxStoredAt };
        return {
          etag: historyEtag("date", key, version.rows, version.maxStoredAt, version.maxFetchId),
          lastModified: version.maxStoredAt,
          headers: currencies ? notQuotedHeader(currencies, new Set(rows.map((r) => r.currency))) : {},
          version: versionKey(version),
          identity: ownBytes(renderWhole(format, header, [{ date, rows }], meta)),
        };
      };
      // SQLite's reads are synchronous: its cache lookup stays so; PostgreSQL's are awaited.
      const answer =
        reader instanceof HistoryReader
          ? cache.answer(
              key,
              reader.generation(),
              () => versionKey(reader.versionOf(id, date, date, currencies)),
              () => made(reader.ratesWithVersion(id, date, currencies)),
            )
          : await cache.answerAsync(
              key,
              reader.generation(),
              async () => versionKey(await reader.versionOf(id, date, date, currencies)),
              async () => made(await reader.ratesWithVersion(id, date, currencies)),
            );
      return sendAnswer(req, res, head, cache, key, answer, format, location, `${id}-${date}`);
    }

    const from = dateParameter(params, "from");
    if (!from) throw new BadRequest("from (YYYY-MM-DD) is required");
    const to = dateParameter(params, "to") ?? todayAnywhere(deps.now());
    if (from > to) throw new BadRequest(`from (${from}) is after to (${to})`);
    const limit = `${Number(from.slice(0, 4)) + MAX_RANGE_YEARS}${from.slice(4)}`;
    if (to > limit)
      throw new BadRequest(`A range is at most ${MAX_RANGE_YEARS} years: to may be ${limit} at the latest`);
    // One read transaction for the version, the currencies and every row: the ETag names the body.
    const snapshot = await reader.snapshot();
    res.once("close", () => snapshot.release());
    try {
      const version = await snapshot.versionOf(route.id, from, to, currencies);
      const present = currencies ? await snapshot.quotedIn(route.id, from, to, currencies) : new Set<string>();
      const id = route.id;
      return await sendDynamic(req, res, head, {
        format,
        etag: historyEtag(
          "range",
          id,
          from,
          to,
          format,
          currencies?.join(",") ?? "*",
          factsKey,
          version.rows,
          version.maxStoredAt,
          version.maxFetchId,
        ),
        lastModified: version.maxStoredAt,
        headers: { ...notQuotedHeader(currencies, present), ...disposition(format, `${id}-${from}-${to}`) },
        body: render(format, header, () => daysIn(snapshot.range(id, from, to, currencies)), {
          ...names,
          from,
          to,
          storedAt: version.maxStoredAt,
        }),
      });
    } finally {
      snapshot.release();
    }
  } catch (error) {
    if (error instanceof BadRequest) return sendProblem(res, 400, { detail: error.message, head });
    throw error;
  }
}

/** A range's chunks as days: read synchronously (SQLite) or asynchronously (PostgreSQL). */
function daysIn(
  chunks: Iterable<HistoryRow[]> | AsyncIterable<HistoryRow[]>,
): Iterable<HistoryDay> | AsyncIterable<HistoryDay> {
  return Symbol.asyncIterator in chunks ? daysOfAsync(chunks) : daysOf(chunks);
}

/** The headers of a cached answer in one encoding, made once: only Content-Location differs between requests. */
interface AnswerHeaders {
  ok: Record<string, string | number>;
  notModified: Record<string, string>;
}
const answerHeaders = new WeakMap<Answer, Partial<Record<Encoding, AnswerHeaders>>>();

/** A cached dated answer: 304 when the client has it, else its bytes in the best encoding both sides have. */
function sendAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  head: boolean,
  cache: AnswerCache,
  key: string,
  answer: Answer,
  format: Format,
  location: string,
  fileName: string,
): void {
  const encoding: Encoding =
    format === "xlsx" ? "identity" : pickEncoding(req.headers["accept-encoding"], { br: true, gzip: true });
  const bytes = head ? undefined : cache.encoded(key, answer, encoding);
  let byEncoding = answerHeaders.get(answer);
  if (!byEncoding) answerHeaders.set(answer, (byEncoding = {}));
  let headers = byEncoding[encoding];
  if (!headers) {
    const stamp = answer.lastModified ? Date.parse(answer.lastModified) : NaN;
    const common: Record<string, string> = {
      etag: encoding === "identity" ? answer.etag : encodedEtag(answer.etag, encoding),
      vary: VARY,
      "cache-control": "private",
      ...(Number.isFinite(stamp) ? { "last-modified": new Date(Math.floor(stamp / 1000) * 1000).toUTCString() } : {}),
      ...answer.headers,
      ...disposition(format, fileName),
    };
    headers = byEncoding[encoding] = {
      notModified: common,
      ok: {
        "content-type": CONTENT_TYPES[format],
        ...common,
        ...(encoding !== "identity" ? { "content-encoding": encoding } : {}),
        "x-content-type-options": "nosniff",
        "content-length": cache.encoded(key, answer, encoding).length,
      },
    };
  }
  const stamp = answer.lastModified && req.headers["if-modified-since"] ? Date.parse(answer.lastModified) : NaN;
  if (notModified(req, answer.etag, Number.isFinite(stamp) ? Math.floor(stamp / 1000) : undefined)) {
    res.writeHead(304, { ...headers.notModified, "content-location": location });
    res.end();
    return;
  }
  res.writeHead(200, { ...headers.ok, "content-location": location });
  res.end(bytes);
}

function disposition(format: Format, name: string): Record<string, string> {
  return format === "csv" || format === "xlsx"
    ? { "content-disposition": `attachment; filename="${name}.${format}"` }
    : {};
}

function notInForce(
  res: ServerResponse,
  head: boolean,
  id: string,
  date: IsoDate,
  found: Extract<InForce, { kind: "none" }>,
): void {
  const why = {
    "no-data": `No rates are stored for bank ${id}`,
    "before-first": `${date} is before ${id}'s first stored date`,
    future: `${date} is in the future`,
    gap: `${id} published nothing in force on ${date}: its previous set (${found.before}) is older than its publication gap`,
  }[found.reason];
  const range = found.first ? `; stored dates run from ${found.first} to ${found.latest}` : "";
  const extra = {
    firstDate: found.first,
    latestDate: found.latest,
    ...(found.before ? { previousDate: found.before } : {}),
    ...(found.after ? { nextDate: found.after } : {}),
  };
  sendProblem(res, 404, { detail: `${why}${range}`, extra, head });
}

let displayNames: Intl.DisplayNames | undefined;
const currencyBodies = new WeakMap<object, Buffer>();

async function sendCurrencies(reader: HistoryStore, req: IncomingMessage, res: ServerResponse, head: boolean) {
  const { list, maxStoredAt } = await reader.currencies();
  let body = currencyBodies.get(list);
  if (!body) {
    displayNames ??= new Intl.DisplayNames(["en"], { type: "currency", fallback: "none" });
    const currencies = list.map((c) => ({
      code: c.currency,
      ...(displayNames!.of(c.currency) ? { name: displayNames!.of(c.currency) } : {}),
      ...marketCodeFacts(c.currency),
      banks: c.banks.map((b) => ({ bankId: b.bankId, since: b.since, latest: b.latest })),
    }));
    body = Buffer.from(`${JSON.stringify({ currencies }, null, 2)}\n`, "utf8");
    currencyBodies.set(list, body);
  }
  return sendJsonDocument(req, res, head, body, maxStoredAt);
}

/** `GET /v1/banks`: every published bank's Bank resource with its first and latest stored dates. */
async function sendBanks(deps: HistoryDeps, req: IncomingMessage, res: ServerResponse, head: boolean, query: string) {
  const negotiation = negotiate(undefined, formatValues(query), req.headers.accept, ["json"]);
  if (!negotiation.ok) {
    const { status, detail, supported } = negotiation;
    return sendProblem(res, status, { detail, extra: { supported }, headers: { vary: "Accept" }, head });
  }
  const tree = deps.tree();
  const reader = deps.reader()!;
  await reader.refresh();
  if (!tree) return sendProblem(res, 503, { detail: "No rates published yet", headers: RETRY_SOON, head });
  const spans = new Map((await reader.banks()).map((b) => [b.bankId, b]));
  const banks = [...tree.banks.values()]
    .filter((entry) => entry.bank)
    .sort((a, b) => (a.id < b.id ? -1 : 1))
    .map((entry) => {
      const span = spans.get(entry.id);
      const latest = span?.latest ?? entry.effectiveDate;
      return {
        ...bankResource(entry.bank)!,
        ...(span ? { firstEffectiveDate: span.first } : {}),
        ...(latest ? { latestEffectiveDate: latest } : {}),
      };
    });
  const body = Buffer.from(`${JSON.stringify({ banks }, null, 2)}\n`, "utf8");
  return sendJsonDocument(req, res, head, body, await reader.lastFetchAt());
}

/** Latest, from the published tree, with only the asked currencies. */
async function sendFilteredLatest(
  deps: HistoryDeps,
  req: IncomingMessage,
  res: ServerResponse,
  head: boolean,
  route: Extract<ResourceRoute, { kind: "latest" }>,
  query: string,
): Promise<void> {
  let currencies: string[] | undefined;
  const negotiation = negotiate(route.suffix, formatValues(query), req.headers.accept, FORMATS);
  if (!negotiation.ok) {
    const { status, detail, supported } = negotiation;
    return sendProblem(res, status, { detail, extra: { supported }, headers: { vary: "Accept" }, head });
  }
  try {
    currencies = currencyFilter(parameters(query));
  } catch (error) {
    if (error instanceof BadRequest) return sendProblem(res, 400, { detail: error.message, head });
    throw error;
  }
  const tree = deps.tree();
  if (!tree) return sendProblem(res, 503, { detail: "No rates published yet", headers: RETRY_SOON, head });
  const entry = tree.banks.get(route.id);
  const rep = entry?.latest.json;
  if (!rep)
    return sendNoBank(deps, res, head, route.id, entry !== undefined, `No rates published for bank ${route.id}`);
  const { header, day } = parsedLatest(rep);
  const keep = new Set(currencies);
  const rows = day.rows.filter((r) => keep.has(r.currency));
  const format = negotiation.format;
  const resource = bankResource(entry.bank);
  const storedAt = new Date(rep.lastModifiedSeconds * 1000).toISOString();
  return sendDynamic(req, res, head, {
    format,
    etag: historyEtag(
      "latest",
      rep.etag,
      format,
      [...keep].join(","),
      format === "xlsx" ? (resource?.name[0]?.name ?? "") : "",
    ),
    lastModified: storedAt,
    headers: {
      ...notQuotedHeader(currencies, new Set(rows.map((r) => r.currency))),
      ...disposition(format, `${route.id}-${day.date}`),
    },
    body: render(format, header, () => [{ date: day.date, rows }], {
      bankName: resource?.name[0]?.name ?? route.id,
      website: resource?.website ?? "",
      from: day.date,
      to: day.date,
      storedAt,
    }),
  });
}

/** 404 for a bank without rates: a known bank (no-rates-yet) or an unknown one, as the Latest routes answer. */
async function sendNoBank(
  deps: HistoryDeps,
  res: ServerResponse,
  head: boolean,
  id: string,
  seen: boolean,
  detail: string,
): Promise<void> {
  const known = seen || ((await deps.knownBanks?.())?.has(id) ?? false);
  sendProblem(res, 404, {
    type: known ? PROBLEM_TYPES.noRatesYet : PROBLEM_TYPES.unknownBank,
    detail: known ? detail : `Unknown bank ${id}`,
    extra: { bank: id },
    head,
  });
}
