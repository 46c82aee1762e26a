// Latest with `currencies=` or `base=`: rendered per request from the published Latest.json (read back
// once per generation), with only the asked currencies, or re-expressed against another currency.
// Imported by latest.ts at the first such request.
import type { IncomingMessage, ServerResponse } from "node:http";

import { rebasedHeader } from "../../../publish/cross.js";
import type { HistoryDay } from "../../../publish/render-history.js";
import { historyEtag } from "../../../store/history.js";
import type { Frequency } from "../../../types.js";
import type { MatchedRoute, ServeContext } from "../../context.js";
import { disposition, sendDynamic } from "../../http/dynamic.js";
import { FORMATS, negotiate } from "../../http/negotiate.js";
import { BadRequest, formatValues, parameters } from "../../http/query.js";
import { sendProblem } from "../../http/respond.js";
import { rateWarningsHeader } from "../../http/rate-warnings.js";
import { sendNoBank } from "../bank-problems.js";
import { currencyFilter, notQuotedHeader } from "../currency-filter.js";
import { baseParameter, rebasedPublished, sendNotQuoted } from "../cross-rates.js";
import { sendOtherFrequency } from "../frequency.js";
import { render } from "../history/render.js";
import { currentStore } from "../history/request.js";
import { bankResource, parsedLatest } from "../published.js";

const RETRY_SOON = { "retry-after": "5" };

/** Latest, from the published tree, with only the asked currencies, or against another base. */
export async function sendFilteredLatest(
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
