// `?asOf=<RFC 3339 instant>` on Latest, a date and a range: the figures the service would have served at
// that instant (src/store/as-of.ts): each figure's value from the revision in force then, the dates not
// stored yet left out, Latest being the newest date stored by then. The answer names its instant
// (`asOf` in JSON and XML, the X-As-Of header). An instant more than FINAL_AFTER_MS past cannot gain
// rows any more (every ingest is stored with its start time and commits well within it): its answer
// and ETag are final, and its rendered bytes are kept; a more recent one is tied to the store's state.
import type { IncomingMessage, ServerResponse } from "node:http";

import { LRUCache } from "lru-cache";

import { isIsoDate, rfc3339Millis } from "../../../feed/dates.js";
import type { DaySource, HistoryDay } from "../../../publish/render-history.js";
import { sourceJson } from "../../../publish/provenance.js";
import type { WarnedFigure } from "../../../store/anomalies.js";
import { AsOfReader, type KnownRow, type Provenance } from "../../../store/as-of.js";
import { historyEtag, inForceAmong, type HistoryStore } from "../../../store/history.js";
import type { IsoDate } from "../../../types.js";
import { bridges } from "../../../calendar/publication-gap.js";
import type { MatchedRoute, ServeContext } from "../../context.js";
import { disposition, sendDynamic } from "../../http/dynamic.js";
import type { Format } from "../../http/negotiate.js";
import { BadRequest } from "../../http/query.js";
import { sendProblem } from "../../http/respond.js";
import { sendNoBank } from "../bank-problems.js";
import { notQuotedHeader } from "../currency-filter.js";
import { daysIn, render, renderWhole } from "./render.js";
import { warnDays, warningsOf, warnRows } from "./warnings.js";
import { rateWarningsHeader } from "../../http/rate-warnings.js";
import {
  answerBadRequest,
  bankFacts,
  currentStore,
  rangeParameters,
  readRequest,
  sendNoStore,
  todayAnywhere,
  type BankFacts,
  type HistoryRequest,
} from "./request.js";
import { quoted } from "../../../quote.js";

/** After this long, nothing can be stored any more as known at an instant. */
export const FINAL_AFTER_MS = 10 * 60_000;
// Declared beside the other query readings, which Latest loads without this module.
export { AS_OF } from "../../http/query.js";

/** The instant of `?asOf=`, as UTC with milliseconds (the stored times' form); BadRequest when bad or future. */
export function asOfParameter(params: Map<string, string>, now: number): string | undefined {
  const value = params.get("asof");
  if (value === undefined) return undefined;
  const ms = rfc3339Millis(value);
  if (ms === undefined)
    throw new BadRequest(`asOf: ${quoted(value)} is not an RFC 3339 instant (2026-03-03T15:00:00Z)`);
  if (ms > now) throw new BadRequest(`asOf: ${quoted(value)} is in the future`);
  return new Date(ms).toISOString();
}

interface Answer {
  etag: string;
  lastModified: string;
  headers: Record<string, string>;
  bytes: Buffer;
  generation: number;
  /** An answer for an instant far enough past: valid whatever the store does. */
  final: boolean;
}

/** Rendered day answers, by store. */
const caches = new WeakMap<HistoryStore, LRUCache<string, Answer>>();
const cacheOf = (store: HistoryStore) => {
  let cache = caches.get(store);
  if (!cache)
    caches.set(
      store,
      (cache = new LRUCache<string, Answer>({ maxSize: 32 << 20, sizeCalculation: (a) => a.bytes.length + 256 })),
    );
  return cache;
};

/** What an asOf request has read before it parts: the request, the store, the bank's facts, the instant. */
export interface AsOfContext {
  request: HistoryRequest;
  store: HistoryStore;
  facts: BankFacts;
  /** The instant read: the one asked, or now. */
  asOf: string;
  /** Whether the instant was asked (the answer then names it). */
  asked: boolean;
  final: boolean;
  provenance: boolean;
}

/** `?provenance=`: true or false (any case); BadRequest otherwise, or when asked of CSV or XLSX. */
export function provenanceParameter(params: Map<string, string>, format: Format): boolean {
  const value = params.get("provenance")?.toLowerCase();
  if (value === undefined || value === "false") return false;
  if (value !== "true") throw new BadRequest(`provenance: ${quoted(params.get("provenance")!)} is not true or false`);
  if (format === "csv" || format === "xlsx")
    throw new BadRequest("provenance is given in JSON and XML: ask for .json or .xml");
  return true;
}

/** The shared start of the three: undefined when answered already (a bad format, no store, no bank). */
export async function beginAsOf(
  ctx: ServeContext,
  req: IncomingMessage,
  res: ServerResponse,
  head: boolean,
  route: MatchedRoute,
  query: string,
): Promise<AsOfContext | undefined> {
  const request = readRequest(req, res, head, route, query);
  if (!request) return undefined;
  const now = ctx.now();
  const asked = asOfParameter(request.params, now);
  const provenance = provenanceParameter(request.params, request.format);
  if (request.params.has("base"))
    throw new BadRequest("base cannot be combined with asOf or provenance: they answer the bank's own figures");
  const asOf = asked ?? new Date(now).toISOString();
  const store = await currentStore(ctx);
  if (!store) return void sendNoStore(res, head);
  const facts = await bankFacts(ctx, store, route.id!, request.format);
  if ("none" in facts)
    return void sendNoBank(ctx, res, head, route.id!, facts.seen, `No rates stored for bank ${route.id}`);
  const final = asked !== undefined && Date.parse(asOf) < now - FINAL_AFTER_MS;
  return { request, store, facts, asOf, asked: asked !== undefined, final, provenance };
}

/** Latest or a date, as known at `?asOf=`. */
export async function sendAsOfDay(
  ctx: ServeContext,
  req: IncomingMessage,
  res: ServerResponse,
  head: boolean,
  route: MatchedRoute,
  query: string,
): Promise<void> {
  try {
    if (route.kind !== "latest" && !isIsoDate(route.date!))
      throw new BadRequest(`${quoted(route.date!)} is not a date (YYYY-MM-DD)`);
    const begun = await beginAsOf(ctx, req, res, head, route, query);
    if (!begun) return;
    const { request, store, facts, asOf, asked, final, provenance } = begun;
    const id = route.id!;
    const reader = AsOfReader.of(store);
    const { dates, since } = await reader.datesKnown(id, asOf);
    if (dates.length === 0) return notYet(res, head, id, asOf, since);
    let date: IsoDate;
    if (route.kind === "latest") date = dates[dates.length - 1]!;
    else {
      // The same reach as the dated lookup's: the bank's weekly gap plus the holiday allowance.
      const spec = await ctx.descriptor(id);
      const reach = (before: IsoDate, on: IsoDate) => bridges(spec, before, on);
      const found = inForceAmong(dates, route.date!, todayAnywhere(Date.parse(asOf)), reach);
      if (found.kind === "none") {
        const extra = { asOf, firstDate: found.first, latestDate: found.latest };
        const detail = `${id} had no set in force on ${route.date} as known at ${asOf}; stored dates then ran from ${found.first} to ${found.latest}`;
        return sendProblem(res, 404, { detail, extra, head });
      }
      date = found.effectiveDate;
    }
    const { format, currencies } = request;
    const instant = asked ? asOf : "now";
    const key = [route.kind, id, date, instant, format, currencies?.join(",") ?? "*", facts.factsKey, provenance].join(
      "\u0000",
    );
    const cache = cacheOf(store);
    const generation = store.generation();
    let answer = cache.get(key);
    if (!answer || !(answer.final || answer.generation === generation)) {
      let rows: KnownRow[] = await reader.day(id, date, asOf);
      if (currencies) {
        const keep = new Set(currencies);
        rows = rows.filter((r) => keep.has(r.currency));
      }
      const lastModified = rows.reduce((max, r) => (r.storedAt > max ? r.storedAt : max), "");
      // Warnings known by then about the very figures known then.
      const { byFigure, count } = warningsOf(
        knownFigures(await reader.warnedKnown(id, date, date, asOf), rows),
        undefined,
      );
      const header = { ...(asked ? { ...facts.header, asOf } : facts.header), ...(count ? { warnings: count } : {}) };
      const meta = { ...facts.names, from: date, to: date, storedAt: lastModified };
      const day = {
        date,
        rows,
        ...(provenance ? { sources: sourcesOf(rows, await reader.provenance(fetchIds(rows))) } : {}),
      };
      answer = {
        etag: historyEtag("asof", key, final ? "final" : generation),
        lastModified,
        headers: {
          ...(asked ? { "x-as-of": asOf } : {}),
          ...(currencies ? notQuotedHeader(currencies, new Set(rows.map((r) => r.currency))) : {}),
          ...rateWarningsHeader(count),
          ...disposition(format, `${id}-${date}`),
        },
        bytes: renderWhole(format, header, [{ ...day, rows: warnRows(date, rows, byFigure) }], meta),
        generation,
        final,
      };
      cache.set(key, answer);
    }
    return sendCached(req, res, head, format, answer);
  } catch (error) {
    return answerBadRequest(res, head, error);
  }
}

function sendCached(req: IncomingMessage, res: ServerResponse, head: boolean, format: Format, a: Answer) {
  const bytes = a.bytes;
  return sendDynamic(req, res, head, {
    format,
    etag: a.etag,
    lastModified: a.lastModified,
    headers: a.headers,
    body: () => (format === "xlsx" ? { binary: [bytes] } : { text: [bytes.toString("utf8")] }),
  });
}

/** 404: nothing of the bank was stored yet at the instant; says since when it has data. */
export function notYet(res: ServerResponse, head: boolean, id: string, asOf: string, since: string | undefined): void {
  const detail = since
    ? `Nothing of bank ${id} was stored yet at ${asOf}: it has data since ${since}`
    : `No rates are stored for bank ${id}`;
  sendProblem(res, 404, { detail, extra: { bank: id, asOf, ...(since ? { dataSince: since } : {}) }, head });
}

/** The warned figures that are among `rows` (the figures known at the instant). */
const knownFigures = (warned: readonly WarnedFigure[], rows: readonly KnownRow[]) =>
  warned.filter((w) =>
    rows.some((r) => r.currency === w.currency && r.rate === w.rate && r.unitMultiplier === w.unitMultiplier),
  );

/**
 * A range's warnings known at the instant about the figures known then, before its first byte (CSV and
 * XLSX have a column for them): only the dates with a warning are read, and warnings are rare.
 */
async function warnedKnownIn(
  reader: AsOfReader,
  id: string,
  from: IsoDate,
  to: IsoDate,
  asOf: string,
  currencies: readonly string[] | undefined,
) {
  const keep = currencies ? new Set(currencies) : undefined;
  const warned = (await reader.warnedKnown(id, from, to, asOf)).filter((w) => !keep || keep.has(w.currency));
  const found: WarnedFigure[] = [];
  for (const date of new Set(warned.map((w) => w.effectiveDate))) {
    const rows = await reader.day(id, date, asOf);
    found.push(
      ...knownFigures(
        warned.filter((w) => w.effectiveDate === date),
        rows,
      ),
    );
  }
  return warningsOf(found, undefined);
}

/** A range, as known at `?asOf=`: read chunk by chunk as it is sent. */
export async function sendAsOfRange(
  ctx: ServeContext,
  req: IncomingMessage,
  res: ServerResponse,
  head: boolean,
  route: MatchedRoute,
  query: string,
): Promise<void> {
  try {
    const begun = await beginAsOf(ctx, req, res, head, route, query);
    if (!begun) return;
    const { request, store, facts, asOf, asked, final, provenance } = begun;
    const { format, params, currencies } = request;
    const id = route.id!;
    const { from, to } = rangeParameters(params, todayAnywhere(Date.parse(asOf)));
    const reader = AsOfReader.of(store);
    const { dates, since } = await reader.datesKnown(id, asOf);
    if (dates.length === 0) return notYet(res, head, id, asOf, since);
    const keep = currencies ? new Set(currencies) : undefined;
    const present = new Set<string>();
    const sources = new Map<number, Provenance>();
    async function* chunks() {
      for await (const chunk of reader.range(id, from, to, asOf)) {
        const rows = keep ? chunk.filter((r) => keep.has(r.currency)) : chunk;
        for (const r of rows) present.add(r.currency);
        if (provenance)
          for (const [fetchId, p] of await reader.provenance(fetchIds(rows).filter((f) => !sources.has(f))))
            sources.set(fetchId, p);
        if (rows.length) yield rows;
      }
    }
    const { byFigure, count } = await warnedKnownIn(reader, id, from, to, asOf, currencies);
    async function* days() {
      for await (const day of warnDays(daysIn(chunks()), byFigure) as AsyncIterable<HistoryDay>)
        yield provenance ? { ...day, sources: sourcesOf(day.rows as KnownRow[], sources) } : day;
    }
    const key = [id, from, to, asked ? asOf : "now", format, currencies?.join(",") ?? "*", facts.factsKey];
    const header = { ...(asked ? { ...facts.header, asOf } : facts.header), ...(count ? { warnings: count } : {}) };
    return await sendDynamic(req, res, head, {
      format,
      etag: historyEtag("asof-range", ...key, String(provenance), final ? "final" : store.generation()),
      headers: {
        ...(asked ? { "x-as-of": asOf } : {}),
        ...rateWarningsHeader(count),
        ...disposition(format, `${id}-${from}-${to}`),
      },
      body: render(format, header, days, {
        ...facts.names,
        from,
        to,
        storedAt: asOf,
      }),
    });
  } catch (error) {
    return answerBadRequest(res, head, error);
  }
}

const fetchIds = (rows: readonly KnownRow[]) => [...new Set(rows.map((r) => r.fetchId))];

/**
 * A date's sources: the answers or imported files its figures came from (secrets masked), oldest first;
 * each names its currencies only when there are several.
 */
export function sourcesOf(rows: readonly KnownRow[], provenance: ReadonlyMap<number, Provenance>): DaySource[] {
  const byFetch = new Map<number, string[]>();
  for (const r of rows) byFetch.set(r.fetchId, [...(byFetch.get(r.fetchId) ?? []), r.currency]);
  const several = byFetch.size > 1;
  return [...byFetch]
    .sort(([a], [b]) => a - b)
    .map(([fetchId, currencies]) => ({
      ...sourceJson(provenance.get(fetchId) ?? { kind: "fetch", url: "", at: "", sha256: null }),
      ...(several ? { currencies } : {}),
    }));
}
