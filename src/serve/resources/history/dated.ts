// `GET /v1/Banks/{bankId}/DailyRates/{date}[.format]`: the set of rates in force on a date (the bank's
// newest effective date on or before it, within its publication gap), its own date named in
// Content-Location. Rendered answers are kept (answer-cache.ts) and checked against their rows'
// version after any commit, so the same date asked again costs no read and no rendering.
import type { IncomingMessage, ServerResponse } from "node:http";

import { closingOn } from "../../../calendar/calendar.js";
import { isIsoDate } from "../../../feed/dates.js";
import {
  HistoryReader,
  historyEtag,
  type Eventually,
  type HistoryRow,
  type HistoryStore,
  type InForce,
  type RateWarning,
  type RowsVersion,
} from "../../../store/history.js";
import type { IsoDate } from "../../../types.js";
import type { Handler, ServeContext } from "../../context.js";
import { CONTENT_TYPES, disposition, encodedEtag, notModified } from "../../http/dynamic.js";
import { pickEncoding, VARY, type Encoding, type Format } from "../../http/negotiate.js";
import { BadRequest } from "../../http/query.js";
import { sendProblem } from "../../http/respond.js";
import { sendNoBank } from "../bank-problems.js";
import { baseParameter } from "../cross-rates.js";
import { notQuotedHeader } from "../currency-filter.js";
import { sendOtherFrequency, treeFrequency } from "../frequency.js";
import { AS_OF, sendAsOfDay } from "./as-of.js";
import { dayIndexBytes, DayIndexes } from "./day-indexes.js";
import { AnswerCaches, ownBytes, type Answer, type AnswerCache } from "./answer-cache.js";
import { sendRebasedDate } from "./rebased.js";
import { bridges, maxBridgeDays, missingPublicationDays, type GapSpec } from "../../../calendar/publication-gap.js";
import { renderWhole } from "./render.js";
import { warningsOf, warnRows } from "./warnings.js";
import { rateWarningsHeader } from "../../http/rate-warnings.js";
import { answerBadRequest, bankFacts, currentStore, readRequest, sendNoStore, todayAnywhere } from "./request.js";
import { quoted } from "../../../quote.js";

/** The store's first look: the previous set whatever the gap (the bank's own gap is checked after). */
const ANY_GAP = () => true;
/** Each store's caches of rendered answers. */
const answers = new WeakMap<HistoryStore, AnswerCaches>();
/** Each store's indexes of banks' days, read by the answers the caches miss. */
const dayIndexes = new WeakMap<HistoryStore, DayIndexes>();
const indexesOf = (store: HistoryStore) => {
  let indexes = dayIndexes.get(store);
  if (!indexes) dayIndexes.set(store, (indexes = new DayIndexes(dayIndexBytes())));
  return indexes;
};
const versionKey = (v: RowsVersion) => `${v.rows}/${v.maxStoredAt}/${v.maxFetchId}`;

export const dated: Handler = async (ctx, req, res, head, route, query) => {
  const id = route.id!;
  const published = treeFrequency(ctx, id);
  // A period source's rates are under its own frequency's path, as known now or at any instant.
  if (published && published !== "Daily") return sendOtherFrequency(res, head, id, "Daily", published);
  if (query && AS_OF.test(query)) return sendAsOfDay(ctx, req, res, head, route, query);
  try {
    if (!isIsoDate(route.date!)) throw new BadRequest(`${quoted(route.date!)} is not a date (YYYY-MM-DD)`);
    const request = readRequest(req, res, head, route, query);
    if (!request) return;
    const { format, currencies } = request;
    // A value from SQLite is used as it is (no await: the SQLite path stays synchronous), a promise
    // from PostgreSQL awaited.
    let reader = currentStore(ctx);
    if (reader instanceof Promise) reader = await reader;
    if (!reader) return sendNoStore(res, head);
    let facts = bankFacts(ctx, reader, id, format);
    if (facts instanceof Promise) facts = await facts;
    if ("none" in facts) return sendNoBank(ctx, res, head, id, facts.seen, `No rates stored for bank ${id}`);
    const { header, names, factsKey } = facts;
    const base = baseParameter(request.params, header);

    const asked = route.date!;
    let lookup = inForceWithin(ctx, reader, id, asked);
    if (lookup instanceof Promise) lookup = await lookup;
    const { found, spec } = lookup;
    if (found.kind === "none") return notInForce(res, head, id, asked, found, spec);
    const date = found.effectiveDate;
    const location = `/v1/Banks/${id}/DailyRates/${date}${route.suffix ? `.${route.suffix}` : ""}${query ? `?${query}` : ""}`;
    if (base) {
      const rebased = { id, asked: route.date!, date, format, currencies, base, facts, location };
      return await sendRebasedDate(req, res, head, reader, rebased);
    }
    let caches = answers.get(reader);
    if (!caches) answers.set(reader, (caches = new AnswerCaches()));
    const cache = caches.for(currencies !== undefined);
    const key = [id, date, format, currencies?.join(",") ?? "*", factsKey].join("\u0000");
    const made = (
      { rows, version }: { rows: HistoryRow[]; version: RowsVersion },
      warned: readonly RateWarning[],
    ): Answer => {
      const meta = { ...names, from: date, to: date, storedAt: version.maxStoredAt };
      // Figures published with a warning: flagged in the document, counted in X-Rate-Warnings.
      const { byFigure, count } = warningsOf(warned, currencies);
      const flagged = count ? { ...header, warnings: count } : header;
      return {
        etag: historyEtag("date", key, version.rows, version.maxStoredAt, version.maxFetchId),
        lastModified: version.maxStoredAt,
        headers: {
          ...(currencies ? notQuotedHeader(currencies, new Set(rows.map((r) => r.currency))) : {}),
          ...rateWarningsHeader(count),
        },
        version: versionKey(version),
        identity: ownBytes(renderWhole(format, flagged, [{ date, rows: warnRows(date, rows, byFigure) }], meta)),
      };
    };
    // SQLite's reads are synchronous: its cache lookup stays so; PostgreSQL's are awaited. A miss reads
    // the bank's index of days in memory (day-indexes.ts), the store only for a bank too large to index.
    const store = reader;
    const indexes = indexesOf(store);
    const answer =
      store instanceof HistoryReader
        ? cache.answer(
            key,
            store.generation(),
            () => versionKey(store.versionOf(id, date, date, currencies)),
            () => {
              const days = indexes.of(store, id);
              if (days) return made(days.day(date, currencies), days.warnings(date));
              return made(store.ratesWithVersion(id, date, currencies), store.warnings(id, date, date));
            },
          )
        : await cache.answerAsync(
            key,
            store.generation(),
            async () => versionKey(await store.versionOf(id, date, date, currencies)),
            async () => {
              const days = indexes.of(store, id);
              if (days) return made(days.day(date, currencies), days.warnings(date));
              return made(await store.ratesWithVersion(id, date, currencies), await store.warnings(id, date, date));
            },
          );
    // A date with no publication of its own that the bank's calendar closes says why (`X-Closed`).
    const closed = date === route.date ? undefined : await closingName(ctx, id, route.date!);
    const extra: Record<string, string> = { "content-location": location };
    if (closed) extra["x-closed"] = closed;
    return sendAnswer(req, res, head, cache, key, answer, format, extra, `${id}-${date}`);
  } catch (error) {
    return answerBadRequest(res, head, error);
  }
};

/**
 * The set in force on a date, within the bank's normal gap (publication-gap.ts). The bank's publication
 * days are read only when the date has no set of its own (a weekend, a holiday); on SQLite, with the
 * adapters loaded, no step is a promise.
 */
function inForceWithin(
  ctx: ServeContext,
  reader: HistoryStore,
  id: string,
  asked: IsoDate,
): Eventually<{ found: InForce; spec: GapSpec | undefined }> {
  const today = todayAnywhere(ctx.now());
  const first = reader.inForce(id, asked, today, ANY_GAP);
  const checked = (found: InForce): Eventually<{ found: InForce; spec: GapSpec | undefined }> => {
    if (found.kind !== "found" || found.effectiveDate === asked) return { found, spec: undefined };
    const descriptor = ctx.descriptor(id);
    const judged = (spec: GapSpec | undefined): Eventually<{ found: InForce; spec: GapSpec | undefined }> => {
      if (bridges(spec, found.effectiveDate, asked)) return { found, spec };
      const gap = reader.inForce(id, asked, today, (before, on) => bridges(spec, before, on));
      return gap instanceof Promise ? gap.then((g) => ({ found: g, spec })) : { found: gap, spec };
    };
    return descriptor instanceof Promise ? descriptor.then(judged) : judged(descriptor);
  };
  return first instanceof Promise ? first.then(checked) : checked(first);
}

/** The name of the closing that keeps the bank from publishing on `date` (ASCII, for a header), if any. */
async function closingName(ctx: Parameters<Handler>[0], id: string, date: string): Promise<string | undefined> {
  const bank = await ctx.descriptor(id);
  const name = bank ? closingOn(bank, date) : undefined;
  return name?.normalize("NFKD").replace(/[^\x20-\x7e]/g, "");
}

/** The headers of a cached answer in one encoding, made once: only Content-Location (and X-Closed) differ between requests. */
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
  perRequest: Record<string, string>,
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
    res.writeHead(304, { ...headers.notModified, ...perRequest });
    res.end();
    return;
  }
  res.writeHead(200, { ...headers.ok, ...perRequest });
  res.end(bytes);
}

/** 404 for a date with no set in force, naming why and the dates that exist. */
function notInForce(
  res: ServerResponse,
  head: boolean,
  id: string,
  date: IsoDate,
  found: Extract<InForce, { kind: "none" }>,
  spec: GapSpec | undefined,
): void {
  const missing = found.reason === "gap" && found.before ? missingPublicationDays(spec, found.before, date) : undefined;
  const why = {
    "no-data": `No rates are stored for bank ${id}`,
    "before-first": `${date} is before ${id}'s first stored date`,
    future: `${date} is in the future`,
    gap: `${id} has no set in force on ${date}: its last stored set before it is ${found.before}, and ${missing?.count} of its publication days since have no set (${listOf(missing)}); a lookup reaches back at most ${maxBridgeDays(spec)} days`,
  }[found.reason];
  const range = found.first ? `; stored dates run from ${found.first} to ${found.latest}` : "";
  const extra = {
    firstDate: found.first,
    latestDate: found.latest,
    ...(found.before ? { previousDate: found.before } : {}),
    ...(found.after ? { nextDate: found.after } : {}),
    ...(missing ? { missingPublicationDays: missing.listed, missingPublicationDayCount: missing.count } : {}),
  };
  sendProblem(res, 404, { detail: `${why}${range}`, extra, head });
}

function listOf(missing: { count: number; listed: IsoDate[] } | undefined): string {
  if (!missing) return "";
  return missing.listed.join(", ") + (missing.count > missing.listed.length ? ", ..." : "");
}
