// A period source's rates by date and by range: `GET /v1/Banks/{bankId}/MonthlyRates/{date}` (the
// figures in force on that date, each with its validity) and `.../MonthlyRates?from=&to=` (the sets in
// force over the range: the one in force on `from`, then one for each day a figure starts), and the
// same under `QuarterlyRates` and `WeeklyRates`. A bank published at another frequency is a 404 naming
// its own. What is in force is decided by src/store/periods.ts; the documents are the history layouts
// with each rate's validFrom/validTo (and two more columns in CSV and XLSX).
import type { ServerResponse } from "node:http";

import { isIsoDate } from "../../../feed/dates.js";
import { publicIdOf, sourceLabel } from "../../../feed/sources.js";
import { historyEtag, type PeriodFigure } from "../../../store/history.js";
import { inForceOn, setsInRange, versionOfFigures, type PeriodSet } from "../../../store/periods.js";
import type { Frequency, IsoDate } from "../../../types.js";
import type { Handler, MatchedRoute, ServeContext } from "../../context.js";
import { disposition, sendDynamic } from "../../http/dynamic.js";
import { BadRequest } from "../../http/query.js";
import { sendProblem } from "../../http/respond.js";
import { sendNoBank } from "../bank-problems.js";
import { notQuotedHeader } from "../currency-filter.js";
import { frequencyOfBank, sendOtherFrequency } from "../frequency.js";
import { AS_OF } from "../history/as-of.js";
import { render } from "../history/render.js";
import {
  answerBadRequest,
  bankFacts,
  currentStore,
  rangeParameters,
  readRequest,
  sendNoStore,
  todayAnywhere,
  type BankFacts,
} from "../history/request.js";
import { sendPeriodAsOf } from "./as-of.js";
import { quoted } from "../../../quote.js";
import { periodGroupHeader } from "../pairs/period-group.js";

/** `{Frequency}Rates/{date}`: the figures in force on a date. */
export const periodDatedAt =
  (frequency: Frequency): Handler =>
  async (ctx, req, res, head, route, query) => {
    if (query && AS_OF.test(query)) return sendPeriodAsOf(ctx, req, res, head, route, query, frequency);
    try {
      if (!isIsoDate(route.date!)) throw new BadRequest(`${quoted(route.date!)} is not a date (YYYY-MM-DD)`);
      const date = route.date!;
      const opened = await open(ctx, req, res, head, route, query, frequency);
      if (!opened) return;
      const { id, facts, figures, currencies, format } = opened;
      const set = inForceOn(figures, date);
      if (!set) return notInForce(ctx, res, head, sourceLabel(id), date, opened.dates);
      const sets = [filtered(set, currencies)];
      const version = versionOfFigures(figures);
      const suffix = route.suffix ? `.${route.suffix}` : "";
      return await sendDynamic(req, res, head, {
        format,
        etag: etagOf("period-date", id, date, format, currencies, facts, version),
        lastModified: version.maxStoredAt,
        headers: {
          ...notQuotedHeader(currencies, new Set(set.rows.map((r) => r.currency))),
          ...disposition(format, `${publicIdOf(id)}-${set.date}`),
          "content-location": `/v1/Banks/${publicIdOf(id)}/${frequency}Rates/${date}${suffix}${query ? `?${query}` : ""}`,
        },
        body: render(format, { ...facts.header, periodic: true }, () => sets, {
          ...facts.names,
          from: set.date,
          to: date,
          storedAt: version.maxStoredAt,
        }),
      });
    } catch (error) {
      return answerBadRequest(res, head, error);
    }
  };

/** `{Frequency}Rates?from=&to=`: the sets in force over a range. */
export const periodRangeAt =
  (frequency: Frequency): Handler =>
  async (ctx, req, res, head, route, query) => {
    if (query && AS_OF.test(query) && !/(^|&)group=/i.test(query))
      return sendPeriodAsOf(ctx, req, res, head, route, query, frequency);
    try {
      const opened = await open(ctx, req, res, head, route, query, frequency);
      if (!opened) return;
      const { id, facts, params, currencies, format } = opened;
      const grouped = periodGroupHeader(params, query, frequency);
      const { from, to } = rangeParameters(params, todayAnywhere(ctx.now()));
      const reader = opened.reader;
      const read = reader.periodFigures(id, from, to);
      const figures = read instanceof Promise ? await read : read;
      const all = setsInRange(figures, from, to);
      const sets = all.map((s) => filtered(s, currencies));
      const version = versionOfFigures(figures);
      const present = new Set(all.flatMap((s) => s.rows.map((r) => r.currency)));
      return await sendDynamic(req, res, head, {
        format,
        etag: etagOf("period-range", id, `${from}/${to}`, format, currencies, facts, version),
        lastModified: version.maxStoredAt,
        headers: {
          ...notQuotedHeader(currencies, present),
          ...grouped,
          ...disposition(format, `${publicIdOf(id)}-${from}-${to}`),
        },
        body: render(format, { ...facts.header, periodic: true }, () => sets, {
          ...facts.names,
          from,
          to,
          storedAt: version.maxStoredAt,
        }),
      });
    } catch (error) {
      return answerBadRequest(res, head, error);
    }
  };

/** What both routes read first; undefined when the request was answered already (problem or negotiation). */
async function open(
  ctx: ServeContext,
  req: Parameters<Handler>[1],
  res: ServerResponse,
  head: boolean,
  route: MatchedRoute,
  query: string,
  frequency: Frequency,
) {
  const id = route.id!;
  const actual = await frequencyOfBank(ctx, id);
  if (actual && actual !== frequency) {
    sendOtherFrequency(res, head, publicIdOf(id), frequency, actual);
    return undefined;
  }
  const request = readRequest(req, res, head, route, query);
  if (!request) return undefined;
  let reader = currentStore(ctx);
  if (reader instanceof Promise) reader = await reader;
  if (!reader) {
    sendNoStore(res, head);
    return undefined;
  }
  let facts = bankFacts(ctx, reader, id, request.format);
  if (facts instanceof Promise) facts = await facts;
  if ("none" in facts) {
    await sendNoBank(ctx, res, head, id, facts.seen, `No rates stored for bank ${sourceLabel(id)}`);
    return undefined;
  }
  const datesRead = reader.dates(id);
  const dates = datesRead instanceof Promise ? await datesRead : datesRead;
  // A dated request reads the figures around its date once, here.
  let figures: PeriodFigure[] = [];
  if (route.date && isIsoDate(route.date)) {
    const read = reader.periodFigures(id, route.date, route.date);
    figures = read instanceof Promise ? await read : read;
  }
  return { id, reader, facts, figures, dates, ...request };
}

/** A set with only the asked currencies (all without a filter). */
function filtered(set: PeriodSet, currencies: string[] | undefined): PeriodSet {
  if (!currencies) return set;
  const keep = new Set(currencies);
  return { date: set.date, rows: set.rows.filter((r) => keep.has(r.currency)) };
}

function etagOf(
  kind: string,
  id: string,
  what: string,
  format: string,
  currencies: string[] | undefined,
  facts: BankFacts,
  version: ReturnType<typeof versionOfFigures>,
): string {
  return historyEtag(
    kind,
    id,
    what,
    format,
    currencies?.join(",") ?? "*",
    facts.factsKey,
    version.rows,
    version.maxStoredAt,
    version.maxFetchId,
  );
}

/** 404 for a date on which no figure of the bank is in force, naming the stored periods' starts. */
function notInForce(
  ctx: ServeContext,
  res: ServerResponse,
  head: boolean,
  id: string,
  date: IsoDate,
  dates: readonly IsoDate[],
): void {
  const first = dates[0];
  const latest = dates[dates.length - 1];
  const why =
    date > todayAnywhere(ctx.now())
      ? `${date} is in the future`
      : first && date < first
        ? `${date} is before ${id}'s first stored period`
        : `No figure of ${id} is in force on ${date}`;
  const range = first ? `; stored periods start from ${first} to ${latest}` : "";
  sendProblem(res, 404, { detail: `${why}${range}`, extra: { firstDate: first, latestDate: latest }, head });
}
