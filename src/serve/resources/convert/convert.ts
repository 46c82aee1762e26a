// `GET /v1/Banks/{bankId}/Convert[.format]?from=&to=&amount=[&date=]`: an amount converted through the
// bank's table, exactly (src/publish/cross.ts): Latest's (from the published tree) without a date, else
// the set in force on the date (the previous publication on a day without one, as a dated request).
// JSON, XML or CSV; the answer names the figures used, the formula and the rounding.
import type { IncomingMessage, ServerResponse } from "node:http";

import { amountProblem, convert, missingFrom, type Table } from "../../../publish/cross.js";
import { conversionCsv, conversionJson, conversionXml } from "../../../publish/render-conversion.js";
import { historyEtag, type HistoryRow, type HistoryStore, type RowsVersion } from "../../../store/history.js";
import { inForceOn, versionOfFigures } from "../../../store/periods.js";
import type { IsoDate } from "../../../types.js";
import type { Handler, MatchedRoute, ServeContext } from "../../context.js";
import { sendTextNow } from "../../http/dynamic.js";
import { negotiate, type Format } from "../../http/negotiate.js";
import { BadRequest, dateParameter, formatValues, parameters } from "../../http/query.js";
import { sendProblem } from "../../http/respond.js";
import { withNotice } from "../../state/bank-notices.js";
import { sendNoBank, sendNoRates } from "../bank-problems.js";
import { currencyParameter, sendNotQuoted } from "../cross-rates.js";
import { frequencyOfBank } from "../frequency.js";
import {
  answerBadRequest,
  bankFacts,
  currentStore,
  notInForce,
  sendNoStore,
  todayAnywhere,
  type BankFacts,
} from "../history/request.js";
import { parsedLatest, type ParsedLatest } from "../published.js";

/** The formats of a conversion (one row of figures: no spreadsheet). */
export const CONVERT_FORMATS: readonly Format[] = ["json", "xml", "csv"];

interface ConvertRequest {
  format: Format;
  amount: string;
  from: string;
  to: string;
  date: IsoDate | undefined;
}

/** The request's parameters; BadRequest for a missing or bad one. */
function readConvert(format: Format, query: string): ConvertRequest {
  const params = parameters(query);
  const amount = params.get("amount");
  if (amount === undefined) throw new BadRequest("amount is required (a plain decimal, such as 1250.00)");
  const problem = amountProblem(amount);
  if (problem) throw new BadRequest(problem);
  const from = currencyParameter(params, "from");
  const to = currencyParameter(params, "to");
  if (!from || !to) throw new BadRequest("from and to (ISO 4217 currency codes) are required");
  return { format, amount, from, to, date: dateParameter(params, "date") };
}

export const convertHandler: Handler = (ctx, req, res, head, route, query) => {
  // Through Latest with the answer already made, nothing waits: no promise (the store is not read).
  try {
    const negotiation = negotiate(route.suffix, formatValues(query), req.headers.accept, CONVERT_FORMATS);
    if (!negotiation.ok) {
      const { status, detail, supported } = negotiation;
      return sendProblem(res, status, { detail, extra: { supported }, headers: { vary: "Accept" }, head });
    }
    const request = readConvert(negotiation.format, query);
    const answered =
      request.date === undefined
        ? convertLatest(ctx, req, res, head, route, request)
        : convertOn(ctx, req, res, head, route, request, request.date);
    return answered && answered.catch((error) => answerBadRequest(res, head, error));
  } catch (error) {
    return answerBadRequest(res, head, error);
  }
};

/** Each published Latest.json's table, made once per generation. */
const latestTables = new WeakMap<ParsedLatest, Table>();

function tableOf(parsed: ParsedLatest): Table {
  let table = latestTables.get(parsed);
  if (!table) {
    table = {
      header: parsed.header,
      date: parsed.day.date,
      figures: new Map(parsed.day.rows.map((r) => [r.currency, r])),
    };
    latestTables.set(parsed, table);
  }
  return table;
}

/** A conversion made through a Latest, in one format: its text and ETag (the figures do not change under it). */
interface MadeConversion {
  text: string;
  etag: string;
}

/**
 * Conversions through Latest already made, by the published file's ETag, format, amount and pair:
 * a client that converts the same figures again (an invoice booked twice, a page refreshed) costs a
 * lookup. A new generation's ETag makes new keys; the map is cleared when full.
 */
const latestConversions = new Map<string, MadeConversion>();
const LATEST_CONVERSIONS_KEPT = 4096;

/** Through Latest, from the published tree. */
function convertLatest(
  ctx: ServeContext,
  req: IncomingMessage,
  res: ServerResponse,
  head: boolean,
  route: MatchedRoute,
  request: ConvertRequest,
): void | Promise<void> {
  const tree = ctx.tree();
  if (!tree) return sendProblem(res, 503, { detail: "No rates published yet", headers: { "retry-after": "5" }, head });
  const rep = tree.banks.get(route.id!)?.latest.json;
  if (!rep) return sendNoRates(ctx, res, head, route.id!);
  const lastModified = new Date(rep.lastModifiedSeconds * 1000).toISOString();
  const key = `${rep.etag}\u0000${request.format}\u0000${request.amount}\u0000${request.from}\u0000${request.to}`;
  const made = latestConversions.get(key);
  // A bank late, failing or stale says so in headers (src/serve/state/bank-notices.ts), as Latest does.
  const send = (etag: string, text: string) => {
    withNotice(res, ctx.bankNotice?.(route.id!));
    return sendTextNow(req, res, head, { format: request.format, etag, lastModified }, text);
  };
  if (made) return send(made.etag, made.text);
  const table = tableOf(parsedLatest(rep));
  const etag = historyEtag("convert", rep.etag, request.format, request.amount, request.from, request.to);
  const missing = missingCurrencies(table, request);
  if (missing.length) return sendMissing(ctx, res, head, table, request, missing);
  const text = conversionText(table, request);
  if (key.length <= 256) {
    if (latestConversions.size >= LATEST_CONVERSIONS_KEPT) latestConversions.clear();
    latestConversions.set(key, { text, etag });
  }
  return send(etag, text);
}

/** Through the set in force on a date, from the store. */
async function convertOn(
  ctx: ServeContext,
  req: IncomingMessage,
  res: ServerResponse,
  head: boolean,
  route: MatchedRoute,
  request: ConvertRequest,
  date: IsoDate,
): Promise<void> {
  const id = route.id!;
  const reader = await currentStore(ctx);
  if (!reader) return sendNoStore(res, head);
  const facts = await bankFacts(ctx, reader, id, "json");
  if ("none" in facts) return sendNoBank(ctx, res, head, id, facts.seen, `No rates stored for bank ${id}`);
  const frequency = await frequencyOfBank(ctx, id);
  if (frequency && frequency !== "Daily") return convertInPeriod(ctx, req, res, head, reader, facts, request, date);
  const found = await reader.inForce(id, date, todayAnywhere(ctx.now()));
  if (found.kind === "none") return notInForce(res, head, id, date, found);
  const wanted = [request.from, request.to].filter((c) => c !== facts.header.baseCurrency);
  const { rows, version } = await reader.ratesWithVersion(id, found.effectiveDate, [...new Set(wanted)].sort());
  const table = datedTable(facts, found.effectiveDate, rows);
  return answerDated(ctx, req, res, head, request, table, version, [
    "convert",
    id,
    date,
    found.effectiveDate,
    facts.factsKey,
  ]);
}

/** A period source's conversion on a date: through the figures in force on it (src/store/periods.ts). */
async function convertInPeriod(
  ctx: ServeContext,
  req: IncomingMessage,
  res: ServerResponse,
  head: boolean,
  reader: HistoryStore,
  facts: BankFacts,
  request: ConvertRequest,
  date: IsoDate,
): Promise<void> {
  const id = facts.header.bankId;
  const figures = await reader.periodFigures(id, date, date);
  const set = inForceOn(figures, date);
  if (!set) {
    const detail = `No figure of ${id} is in force on ${date}`;
    return sendProblem(res, 404, { detail, extra: { bank: id, date }, head });
  }
  const table = datedTable(facts, set.date, set.rows);
  return answerDated(ctx, req, res, head, request, table, versionOfFigures(figures), [
    "convert-period",
    id,
    date,
    facts.factsKey,
  ]);
}

/** A dated conversion's table: the bank's header and the figures of the set in force. */
function datedTable(facts: BankFacts, date: IsoDate, rows: readonly HistoryRow[]): Table {
  return { header: facts.header, date, figures: new Map(rows.map((r) => [r.currency, r])) };
}

/**
 * The tail the daily and the period conversions on a date share: the ETag over `key` (kind, bank, date
 * asked, for a daily bank the date in force, and the bank's facts), the request and the rows' version,
 * then the answer, last modified when the newest of those rows was stored.
 */
function answerDated(
  ctx: ServeContext,
  req: IncomingMessage,
  res: ServerResponse,
  head: boolean,
  request: ConvertRequest,
  table: Table,
  version: RowsVersion,
  key: string[],
): void | Promise<void> {
  const { format, amount, from, to } = request;
  const etag = historyEtag(...key, format, amount, from, to, version.rows, version.maxStoredAt, version.maxFetchId);
  return answer(ctx, req, res, head, table, request, etag, version.maxStoredAt);
}

/** The conversion in the negotiated format, or 404 naming a currency the table does not quote. */
function answer(
  ctx: ServeContext,
  req: IncomingMessage,
  res: ServerResponse,
  head: boolean,
  table: Table,
  request: ConvertRequest,
  etag: string,
  lastModified: string,
): void | Promise<void> {
  const missing = missingCurrencies(table, request);
  if (missing.length) return sendMissing(ctx, res, head, table, request, missing);
  return sendTextNow(req, res, head, { format: request.format, etag, lastModified }, conversionText(table, request));
}

const missingCurrencies = (table: Table, request: ConvertRequest) =>
  missingFrom(table, [...new Set([request.from, request.to])]);

async function sendMissing(
  ctx: ServeContext,
  res: ServerResponse,
  head: boolean,
  table: Table,
  request: ConvertRequest,
  missing: string[],
): Promise<void> {
  const asked = request.date ?? table.date;
  return sendNotQuoted(await currentStore(ctx), res, head, table.header.bankId, missing, asked, table.date);
}

/** The conversion's document in the request's format. */
function conversionText(table: Table, request: ConvertRequest): string {
  const conversion = convert(table, request.amount, request.from, request.to, request.date);
  return request.format === "xml"
    ? conversionXml(conversion)
    : request.format === "csv"
      ? conversionCsv(conversion)
      : conversionJson(conversion);
}
