// What a date and a range request share before they part: the negotiated format, the parameters and
// the currencies filter; the store, its view refreshed for this request; the bank's facts (how it
// quotes, its names for the XLSX). On SQLite every step answers synchronously (a value, not a
// promise), so a cached date costs no turn of the event loop; PostgreSQL's reads are promises.
import type { IncomingMessage, ServerResponse } from "node:http";

import { publicIdOf } from "../../../feed/sources.js";
import type { HistoryHeader } from "../../../publish/render-history.js";
import type { Eventually, HistoryStore, InForce } from "../../../store/history.js";
import type { IsoDate, QuoteType } from "../../../types.js";
import type { MatchedRoute, ServeContext } from "../../context.js";
import { FORMATS, negotiate, type Format } from "../../http/negotiate.js";
import { BadRequest, dateParameter, formatValues, parameters } from "../../http/query.js";
import { sendProblem } from "../../http/respond.js";
import type { LoadedTree } from "../../state/tree.js";
import { currencyFilter } from "../currency-filter.js";
import { bankResource, parsedLatest } from "../published.js";

/** The longest range answered, in years. */
export const MAX_RANGE_YEARS = 10;

/**
 * A range's `from` (required) and `to` (`openTo` when absent; `askedTo` says whether it was given),
 * refused with a BadRequest when reversed or longer than MAX_RANGE_YEARS.
 */
export function rangeParameters(
  params: Map<string, string>,
  openTo: IsoDate,
): { from: IsoDate; to: IsoDate; askedTo: IsoDate | undefined } {
  const from = dateParameter(params, "from");
  if (!from) throw new BadRequest("from (YYYY-MM-DD) is required");
  const askedTo = dateParameter(params, "to");
  const to = askedTo ?? openTo;
  if (from > to) throw new BadRequest(`from (${from}) is after to (${to})`);
  const limit = `${Number(from.slice(0, 4)) + MAX_RANGE_YEARS}${from.slice(4)}`;
  if (to > limit) throw new BadRequest(`A range is at most ${MAX_RANGE_YEARS} years: to may be ${limit} at the latest`);
  return { from, to, askedTo };
}

export interface HistoryRequest {
  format: Format;
  params: Map<string, string>;
  /** The `currencies` filter, sorted; undefined without it. */
  currencies: string[] | undefined;
}

/** The format, the parameters and the filter; undefined when the negotiation failed (answered). Throws BadRequest. */
export function readRequest(
  req: IncomingMessage,
  res: ServerResponse,
  head: boolean,
  route: MatchedRoute,
  query: string,
): HistoryRequest | undefined {
  const negotiation = negotiate(route.suffix, formatValues(query), req.headers.accept, FORMATS);
  if (!negotiation.ok) {
    const { status, detail, supported } = negotiation;
    sendProblem(res, status, { detail, extra: { supported }, headers: { vary: "Accept" }, head });
    return undefined;
  }
  const params = parameters(query);
  return { format: negotiation.format, params, currencies: currencyFilter(params) };
}

/** A BadRequest answered 400; anything else thrown on. */
export function answerBadRequest(res: ServerResponse, head: boolean, error: unknown): void {
  if (error instanceof BadRequest) return sendProblem(res, 400, { detail: error.message, head });
  throw error;
}

/** The store, its view of the data refreshed for this request; undefined while there is none. */
export function currentStore(ctx: ServeContext): Eventually<HistoryStore | undefined> {
  const reader = ctx.history();
  const turn = reader?.refreshThisTurn();
  return turn instanceof Promise ? turn.then(() => reader) : reader;
}

export function sendNoStore(res: ServerResponse, head: boolean): void {
  sendProblem(res, 503, { detail: "The rate store is not available yet", headers: { "retry-after": "5" }, head });
}

/** How a bank quotes and what its documents name (the XLSX's title), and the key those make in an ETag. */
export interface BankFacts {
  header: HistoryHeader;
  names: { bankName: string; website: string };
  /** What the answer depends on besides the rows: the quoting, and the names in an XLSX. */
  factsKey: string;
}

/** No stored rates for the bank; `seen`: the bank is known to the store or the tree. */
export interface NoFacts {
  none: true;
  seen: boolean;
}

/** The bank's facts, or NoFacts when it has no stored dates. */
export function bankFacts(
  ctx: ServeContext,
  reader: HistoryStore,
  id: string,
  format: Format,
): Eventually<BankFacts | NoFacts> {
  const tree = ctx.tree();
  const header = headerOf(reader, tree, id);
  return header instanceof Promise
    ? header.then((h) => withDates(reader, tree, id, format, h))
    : withDates(reader, tree, id, format, header);
}

function withDates(
  reader: HistoryStore,
  tree: LoadedTree | undefined,
  id: string,
  format: Format,
  header: HistoryHeader | undefined,
): Eventually<BankFacts | NoFacts> {
  if (!header) return { none: true, seen: false };
  const dates = reader.dates(id);
  return dates instanceof Promise
    ? dates.then((d) => factsOf(tree, id, format, header, d))
    : factsOf(tree, id, format, header, dates);
}

function factsOf(
  tree: LoadedTree | undefined,
  id: string,
  format: Format,
  header: HistoryHeader,
  dates: readonly IsoDate[],
): BankFacts | NoFacts {
  if (dates.length === 0) return { none: true, seen: true };
  // A bank's second table (NBP's weekly) is named by its bank's resource.
  const shown = publicIdOf(id);
  const resource = bankResource(tree?.banks.get(shown)?.bank);
  const names = { bankName: resource?.name[0]?.name ?? shown, website: resource?.website ?? "" };
  const factsKey = [
    header.baseCurrency,
    header.quoteType,
    format === "xlsx" ? `${names.bankName} ${names.website}` : "",
  ].join(" ");
  return { header, names, factsKey };
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
  if (quoting) return { bankId: publicIdOf(id), ...quoting };
  const rep = tree?.banks.get(id)?.latest.json;
  return rep ? parsedLatest(rep).header : undefined;
}

/** Today's date where it is latest: in UTC+14, so that no bank's newest date is ever in the future. */
export function todayAnywhere(now: number): IsoDate {
  const minute = Math.floor(now / 60_000);
  if (minute !== today.minute) today = { minute, date: new Date(now + 14 * 3_600_000).toISOString().slice(0, 10) };
  return today.date;
}
/** The last answer of todayAnywhere, by minute (a date changes on a whole minute). */
let today = { minute: NaN, date: "" };

/** 404 for a date with no set in force, naming why and the dates that exist. */
export function notInForce(
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
