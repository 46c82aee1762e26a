// `?asOf=<instant>` on a period source's rates (`MonthlyRates/Latest`, `/{date}`, `?from=&to=`): what was
// in force as the service knew it at that instant. src/store/as-of.ts reads the figures known then
// (a revised figure's old value, with its validity), and src/store/periods.ts decides what is in force
// from them exactly as for the current state; Latest is the set in force on the newest effective date
// known then. The answer names its instant (`asOf` in JSON and XML, the X-As-Of header). The reading is
// the daily sources' (readAsOf in ../history/as-of.ts), given how a period set is in force.
import type { IncomingMessage, ServerResponse } from "node:http";

import { historyEtag, type PeriodFigure } from "../../../store/history.js";
import { inForceOn, setsInRange, versionOfFigures, type PeriodSet } from "../../../store/periods.js";
import type { Frequency, IsoDate } from "../../../types.js";
import type { MatchedRoute, ServeContext } from "../../context.js";
import { disposition, sendDynamic } from "../../http/dynamic.js";
import { notQuotedHeader } from "../currency-filter.js";
import { frequencyOfBank, sendOtherFrequency } from "../frequency.js";
import { readAsOf, type InForceAsOf } from "../history/as-of.js";
import { render } from "../history/render.js";
import { answerBadRequest } from "../history/request.js";

/** What a request asks for: one date's set (Latest or a date) or a range's sets. */
interface Asked {
  from: IsoDate;
  to: IsoDate;
  figures: PeriodFigure[];
  sets: PeriodSet[];
}

/**
 * A period set as known at the instant: the figures known then, each in force over its validity
 * (src/store/periods.ts decides, as for the current state). Latest's is the set in force on the newest
 * date known then.
 */
const periodInForce: InForceAsOf<Asked, Asked> = {
  async onDate(reader, id, date, _latest, dates, asOf) {
    const figures = await reader.periodFigures(id, date, date, asOf);
    const set = inForceOn(figures, date);
    if (set) return { set: { from: set.date, to: date, figures, sets: [set] } };
    const detail = `No figure of ${id} was in force on ${date} as known at ${asOf}`;
    return { none: { detail, extra: { asOf, firstDate: dates[0], latestDate: dates.at(-1) } } };
  },
  async overRange(reader, id, from, to, asOf) {
    const figures = await reader.periodFigures(id, from, to, asOf);
    return { from, to, figures, sets: setsInRange(figures, from, to) };
  },
};

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
    const read = await readAsOf(ctx, req, res, head, route, query, periodInForce);
    if (!read) return;
    const { request, store, facts, asOf, final, id } = read;
    const { format, currencies } = request;
    const asked = read.kind === "range" ? read.range : read.day;
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
