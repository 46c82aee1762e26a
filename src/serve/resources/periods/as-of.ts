// `?asOf=<instant>` on a period source's rates (`MonthlyRates/Latest`, `/{date}`, `?from=&to=`): what was
// in force as the service knew it at that instant. src/store/as-of.ts reads the figures known then
// (a revised figure's old value, with its validity), and src/store/periods.ts decides what is in force
// from them exactly as for the current state; Latest is the set in force on the newest effective date
// known then. The answer names its instant (`asOf` in JSON and XML, the X-As-Of header).
import type { IncomingMessage, ServerResponse } from "node:http";

import { isIsoDate } from "../../../feed/dates.js";
import { AsOfReader } from "../../../store/as-of.js";
import { historyEtag, type PeriodFigure } from "../../../store/history.js";
import { inForceOn, setsInRange, versionOfFigures, type PeriodSet } from "../../../store/periods.js";
import type { Frequency, IsoDate } from "../../../types.js";
import type { MatchedRoute, ServeContext } from "../../context.js";
import { disposition, sendDynamic } from "../../http/dynamic.js";
import { BadRequest } from "../../http/query.js";
import { sendProblem } from "../../http/respond.js";
import { notQuotedHeader } from "../currency-filter.js";
import { frequencyOfBank, sendOtherFrequency } from "../frequency.js";
import { beginAsOf, notYet } from "../history/as-of.js";
import { render } from "../history/render.js";
import { answerBadRequest, rangeParameters, todayAnywhere } from "../history/request.js";
import { quoted } from "../../../quote.js";

/** What a request asks for: one date's set (Latest or a date) or a range's sets. */
interface Asked {
  from: IsoDate;
  to: IsoDate;
  figures: PeriodFigure[];
  sets: PeriodSet[];
}

/** A period source's Latest, date or range under `{frequency}Rates`, as known at `?asOf=`. */
export async function sendPeriodAsOf(
  ctx: ServeContext,
  req: IncomingMessage,
  res: ServerResponse,
  head: boolean,
  route: MatchedRoute,
  query: string,
  frequency: Frequency,
): Promise<void> {
  try {
    const actual = await frequencyOfBank(ctx, route.id!);
    if (actual && actual !== frequency) return sendOtherFrequency(res, head, route.id!, frequency, actual);
    if (route.kind === "dated" && !isIsoDate(route.date!))
      throw new BadRequest(`${quoted(route.date!)} is not a date (YYYY-MM-DD)`);
    const begun = await beginAsOf(ctx, req, res, head, route, query);
    if (!begun) return;
    const { request, store, facts, asOf, final } = begun;
    const { format, params, currencies } = request;
    const id = route.id!;
    const reader = AsOfReader.of(store);
    const { dates, since } = await reader.datesKnown(id, asOf);
    if (dates.length === 0) return notYet(res, head, id, asOf, since);
    let asked: Asked;
    if (route.kind === "range") {
      const { from, to } = rangeParameters(params, todayAnywhere(Date.parse(asOf)));
      const figures = await reader.periodFigures(id, from, to, asOf);
      asked = { from, to, figures, sets: setsInRange(figures, from, to) };
    } else {
      const date = route.kind === "latest" ? dates[dates.length - 1]! : route.date!;
      const figures = await reader.periodFigures(id, date, date, asOf);
      const set = inForceOn(figures, date);
      if (!set) {
        const detail = `No figure of ${id} was in force on ${date} as known at ${asOf}`;
        return sendProblem(res, 404, { detail, extra: { asOf, firstDate: dates[0], latestDate: dates.at(-1) }, head });
      }
      asked = { from: set.date, to: date, figures, sets: [set] };
    }
    const keep = currencies ? new Set(currencies) : undefined;
    const sets = keep
      ? asked.sets.map((s) => ({ date: s.date, rows: s.rows.filter((r) => keep.has(r.currency)) }))
      : asked.sets;
    const present = new Set(asked.sets.flatMap((s) => s.rows.map((r) => r.currency)));
    const version = versionOfFigures(asked.figures);
    const what = route.kind === "range" ? `${asked.from}/${asked.to}` : asked.to;
    return await sendDynamic(req, res, head, {
      format,
      etag: historyEtag(
        "period-asof",
        route.kind,
        id,
        what,
        asOf,
        format,
        currencies?.join(",") ?? "*",
        facts.factsKey,
        final ? "final" : store.generation(),
      ),
      lastModified: version.maxStoredAt,
      headers: {
        "x-as-of": asOf,
        ...notQuotedHeader(currencies, present),
        ...disposition(format, route.kind === "range" ? `${id}-${asked.from}-${asked.to}` : `${id}-${asked.from}`),
      },
      body: render(format, { ...facts.header, asOf, periodic: true }, () => sets, {
        ...facts.names,
        from: asked.from,
        to: asked.to,
        storedAt: version.maxStoredAt,
      }),
    });
  } catch (error) {
    return answerBadRequest(res, head, error);
  }
}
