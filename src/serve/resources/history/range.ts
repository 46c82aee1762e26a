// `GET /v1/Banks/{bankId}/DailyRates[.format]?from=&to=`: every effective date of a bank in a range (up
// to rangeParameters), oldest first. Read in one snapshot of the store (its ETag names the rows its
// body holds) chunk by chunk, and rendered as it is sent: a ten-year range is never held whole.
import { rebasedHeader } from "../../../publish/cross.js";
import type { HistoryHeader } from "../../../publish/render-history.js";
import { historyEtag, type RangeSnapshot } from "../../../store/history.js";
import type { IsoDate } from "../../../types.js";
import type { Handler } from "../../context.js";
import { disposition, sendDynamic } from "../../http/dynamic.js";
import { sendNoBank } from "../bank-problems.js";
import { baseParameter, readFilter, rebasedDays } from "../cross-rates.js";
import { notQuotedHeader } from "../currency-filter.js";
import { sendOtherFrequency, treeFrequency } from "../frequency.js";
import { AS_OF, sendAsOfRange } from "./as-of.js";
import { daysIn, render } from "./render.js";
import { warnDays, warningsOf } from "./warnings.js";
import { rateWarningsHeader } from "../../http/rate-warnings.js";
import {
  answerBadRequest,
  bankFacts,
  currentStore,
  rangeParameters,
  readRequest,
  sendNoStore,
  todayAnywhere,
} from "./request.js";

/** The rows read as days, re-expressed against `base` when asked. */
const rangeDays = (header: HistoryHeader, base: string | undefined, currencies: string[] | undefined) =>
  base
    ? (chunks: RangeChunks) => rebasedDays(header, daysIn(chunks), base, currencies)
    : (chunks: RangeChunks) => daysIn(chunks);

type RangeChunks = ReturnType<RangeSnapshot["range"]>;

export const range: Handler = async (ctx, req, res, head, route, query) => {
  const id = route.id!;
  const published = treeFrequency(ctx, id);
  // A period source's rates are under its own frequency's path, as known now or at any instant.
  if (published && published !== "Daily") return sendOtherFrequency(res, head, id, "Daily", published);
  // Averages of a period (src/serve/resources/pairs/grouped-range.ts), loaded when first asked.
  if (query && /(^|&)group=/i.test(query))
    return (await import("../pairs/grouped-range.js")).groupedRange(ctx, req, res, head, route, query);
  if (query && AS_OF.test(query)) return sendAsOfRange(ctx, req, res, head, route, query);
  try {
    const request = readRequest(req, res, head, route, query);
    if (!request) return;
    const { format, params, currencies } = request;
    let reader = currentStore(ctx);
    if (reader instanceof Promise) reader = await reader;
    if (!reader) return sendNoStore(res, head);
    let facts = bankFacts(ctx, reader, id, format);
    if (facts instanceof Promise) facts = await facts;
    if ("none" in facts) return sendNoBank(ctx, res, head, id, facts.seen, `No rates stored for bank ${id}`);
    const { names, factsKey } = facts;
    const base = baseParameter(params, facts.header);
    const header = base ? rebasedHeader(facts.header, base) : facts.header;
    // Re-expressed, every day is read with the base's figure, then cut to the filter.
    const read = base ? readFilter(currencies, base) : currencies;

    const { from, to, askedTo } = rangeParameters(params, todayAnywhere(ctx.now()));
    const days = rangeDays(facts.header, base, currencies);
    // One read transaction for the version, the currencies and every row: the ETag names the body.
    const snapshot = await reader.snapshot();
    res.once("close", () => snapshot.release());
    try {
      const version = await snapshot.versionOf(id, from, to, read);
      const present = currencies ? await snapshot.quotedIn(id, from, to, currencies) : new Set<string>();
      if (base) present.add(facts.header.baseCurrency);
      // An open range is named by its newest stored date, not by "today" in UTC+14 (tomorrow in most zones).
      const fileTo = askedTo ?? newestUpTo(await reader.dates(id), from, to);
      // Figures published with a warning, known before the first byte (CSV and XLSX have a column for
      // them); a table re-expressed against another base is of crosses, not of the bank's figures.
      const { byFigure, count } = base
        ? { byFigure: new Map<string, string>(), count: 0 }
        : warningsOf(await snapshot.warnings(id, from, to), currencies);
      const flagged = count ? { ...header, warnings: count } : header;
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
          ...(base ? ["base", base] : []),
        ),
        lastModified: version.maxStoredAt,
        headers: {
          ...notQuotedHeader(currencies, present),
          ...rateWarningsHeader(count),
          ...disposition(format, `${id}-${from}-${fileTo}`),
        },
        body: render(format, flagged, () => warnDays(days(snapshot.range(id, from, to, read)), byFigure), {
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
    return answerBadRequest(res, head, error);
  }
};

/** The newest of a bank's stored dates (oldest first) from `from` to `to`; `from` when none is. */
function newestUpTo(dates: readonly IsoDate[], from: IsoDate, to: IsoDate): IsoDate {
  for (let i = dates.length - 1; i >= 0; i--) {
    const date = dates[i]!;
    if (date <= to) return date >= from ? date : from;
  }
  return from;
}
