// `GET /v1/Banks/{bankId}/DailyRates/Latest[.format]` (and `MonthlyRates/Latest`... for a period
// source, its figures with their validity): a bank's newest rates, in the format negotiated,
// answered from the published tree in memory: the hot path, a negotiation, a map lookup and a write
// of bytes held ready with their headers. With `currencies=`, only the asked currencies, and with
// `base=`, the table re-expressed against another currency: rendered from the published Latest.json,
// read back once per generation.
import type { IncomingMessage, ServerResponse } from "node:http";

import { rebasedHeader } from "../../../publish/cross.js";
import type { HistoryDay } from "../../../publish/render-history.js";
import { historyEtag } from "../../../store/history.js";
import type { Frequency } from "../../../types.js";
import type { Handler, MatchedRoute, ServeContext } from "../../context.js";
import { disposition, sendDynamic } from "../../http/dynamic.js";
import { FORMATS, negotiate, type Negotiation } from "../../http/negotiate.js";
import { BadRequest, formatValues, parameters } from "../../http/query.js";
import { sendProblem, sendRepresentation } from "../../http/respond.js";
import { rateWarningsHeader } from "../../http/rate-warnings.js";
import { sendNoBank, sendNoRates } from "../bank-problems.js";
import { currencyFilter, notQuotedHeader } from "../currency-filter.js";
import { baseParameter, rebasedPublished, sendNotQuoted } from "../cross-rates.js";
import { sendOtherFrequency, treeFrequency } from "../frequency.js";
import { AS_OF, sendAsOfDay } from "../history/as-of.js";
import { render } from "../history/render.js";
import { sendPeriodAsOf } from "../periods/as-of.js";
import { currentStore } from "../history/request.js";
import { bankResource, parsedLatest } from "../published.js";

const RETRY_SOON = { "retry-after": "5" };
const MADE_PER_REQUEST = /(^|&)(currencies|base)=/i;

/**
 * Latest under the path of one frequency (`DailyRates`, `MonthlyRates`...): a bank published under
 * another is a 404 naming its own.
 */
export const latestAt =
  (frequency: Frequency): Handler =>
  (ctx, req, res, head, route, query) => {
    if (query && AS_OF.test(query)) {
      if (frequency !== "Daily") return sendPeriodAsOf(ctx, req, res, head, route, query, frequency);
      const published = treeFrequency(ctx, route.id!);
      if (published && published !== "Daily") return sendOtherFrequency(res, head, route.id!, "Daily", published);
      return sendAsOfDay(ctx, req, res, head, route, query);
    }
    if (query && MADE_PER_REQUEST.test(query))
      return void sendFilteredLatest(ctx, req, res, head, route, query, frequency).catch(() => res.destroy());
    const negotiation = query
      ? negotiate(route.suffix, formatValues(query), req.headers.accept, FORMATS)
      : negotiatedOnce(route.suffix, req.headers.accept);
    if (!negotiation.ok) {
      const { status, detail, supported } = negotiation;
      return sendProblem(res, status, { detail, extra: { supported }, headers: { vary: "Accept" }, head });
    }
    const tree = ctx.tree();
    if (!tree) return sendProblem(res, 503, { detail: "No rates published yet", headers: RETRY_SOON, head });
    const entry = tree.banks.get(route.id!);
    const rep = entry?.latest[negotiation.format];
    if (!rep) return sendNoRates(ctx, res, head, route.id!);
    if (entry?.frequency !== frequency)
      return sendOtherFrequency(res, head, route.id!, frequency, entry?.frequency ?? "Daily");
    sendRepresentation(req, res, rep);
  };

export const latest: Handler = latestAt("Daily");

/** Negotiations without a query: by suffix (Accept does not count then), else by Accept; cleared when full. */
const bySuffix = new Map<string, Negotiation>();
const byAccept = new Map<string, Negotiation>();
const NEGOTIATIONS_KEPT = 256;

function negotiatedOnce(suffix: string | undefined, accept: string | undefined): Negotiation {
  const kept = suffix === undefined ? byAccept : bySuffix;
  const key = suffix ?? accept ?? "";
  let negotiation = kept.get(key);
  if (negotiation === undefined) {
    negotiation = negotiate(suffix, [], accept, FORMATS);
    if (key.length <= 256) {
      if (kept.size >= NEGOTIATIONS_KEPT) kept.clear();
      kept.set(key, negotiation);
    }
  }
  return negotiation;
}

/** Latest, from the published tree, with only the asked currencies, or against another base. */
async function sendFilteredLatest(
  ctx: ServeContext,
  req: IncomingMessage,
  res: ServerResponse,
  head: boolean,
  route: MatchedRoute,
  query: string,
  frequency: Frequency,
): Promise<void> {
  const id = route.id!;
  let currencies: string[] | undefined;
  let params: Map<string, string>;
  const negotiation = negotiate(route.suffix, formatValues(query), req.headers.accept, FORMATS);
  if (!negotiation.ok) {
    const { status, detail, supported } = negotiation;
    return sendProblem(res, status, { detail, extra: { supported }, headers: { vary: "Accept" }, head });
  }
  try {
    params = parameters(query);
    currencies = currencyFilter(params);
  } catch (error) {
    if (error instanceof BadRequest) return sendProblem(res, 400, { detail: error.message, head });
    throw error;
  }
  const tree = ctx.tree();
  if (!tree) return sendProblem(res, 503, { detail: "No rates published yet", headers: RETRY_SOON, head });
  const entry = tree.banks.get(id);
  const rep = entry?.latest.json;
  if (!rep) return sendNoBank(ctx, res, head, id, entry !== undefined, `No rates published for bank ${id}`);
  if (entry.frequency !== frequency) return sendOtherFrequency(res, head, id, frequency, entry.frequency!);
  const parsed = parsedLatest(rep);
  let base: string | undefined;
  try {
    base = baseParameter(params, parsed.header);
  } catch (error) {
    if (error instanceof BadRequest) return sendProblem(res, 400, { detail: error.message, head });
    throw error;
  }
  const day = base ? rebasedPublished(parsed, base, currencies) : filtered(parsed.day, currencies);
  if (!day) {
    const date = parsed.day.date;
    return sendNotQuoted(await currentStore(ctx), res, head, id, [base!], date, date);
  }
  const rows = day.rows;
  // The kept figures published with a warning (a re-expressed table's crosses carry none).
  const warned = base ? 0 : rows.filter((r) => r.warning !== undefined).length;
  const header = base
    ? rebasedHeader(parsed.header, base)
    : warned
      ? { ...parsed.header, warnings: warned }
      : parsed.header;
  const format = negotiation.format;
  const resource = bankResource(entry.bank);
  const storedAt = new Date(rep.lastModifiedSeconds * 1000).toISOString();
  return sendDynamic(req, res, head, {
    format,
    etag: historyEtag(
      "latest",
      rep.etag,
      format,
      (currencies ?? []).join(","),
      format === "xlsx" ? (resource?.name[0]?.name ?? "") : "",
      ...(base ? ["base", base] : []),
    ),
    lastModified: storedAt,
    headers: {
      ...notQuotedHeader(currencies, new Set(rows.map((r) => r.currency))),
      ...rateWarningsHeader(warned),
      ...disposition(format, `${id}-${day.date}`),
    },
    body: render(format, header, () => [{ date: day.date, rows }], {
      bankName: resource?.name[0]?.name ?? id,
      website: resource?.website ?? "",
      from: day.date,
      to: day.date,
      storedAt,
    }),
  });
}

/** The day cut to the asked currencies (all of them without a filter). */
function filtered(day: HistoryDay, currencies: string[] | undefined): HistoryDay {
  if (!currencies) return day;
  const keep = new Set(currencies);
  return { date: day.date, rows: day.rows.filter((r) => keep.has(r.currency)) };
}
