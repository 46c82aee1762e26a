// `GET /v1/Banks/{bankId}/DailyRates[.format]?from=&to=`: every effective date of a bank in a range (up
// to MAX_RANGE_YEARS), oldest first. Read in one snapshot of the store (its ETag names the rows its
// body holds) chunk by chunk, and rendered as it is sent: a ten-year range is never held whole.
import { historyEtag } from "../../../store/history.js";
import type { Handler } from "../../context.js";
import { disposition, sendDynamic } from "../../http/dynamic.js";
import { BadRequest, dateParameter } from "../../http/query.js";
import { sendNoBank } from "../bank-problems.js";
import { notQuotedHeader } from "../currency-filter.js";
import { sendOtherFrequency, treeFrequency } from "../frequency.js";
import { daysIn, render } from "./render.js";
import {
  answerBadRequest,
  bankFacts,
  currentStore,
  MAX_RANGE_YEARS,
  readRequest,
  sendNoStore,
  todayAnywhere,
} from "./request.js";

export const range: Handler = async (ctx, req, res, head, route, query) => {
  const id = route.id!;
  try {
    const published = treeFrequency(ctx, id);
    if (published && published !== "Daily") return sendOtherFrequency(res, head, id, "Daily", published);
    const request = readRequest(req, res, head, route, query);
    if (!request) return;
    const { format, params, currencies } = request;
    let reader = currentStore(ctx);
    if (reader instanceof Promise) reader = await reader;
    if (!reader) return sendNoStore(res, head);
    let facts = bankFacts(ctx, reader, id, format);
    if (facts instanceof Promise) facts = await facts;
    if ("none" in facts) return sendNoBank(ctx, res, head, id, facts.seen, `No rates stored for bank ${id}`);
    const { header, names, factsKey } = facts;

    const from = dateParameter(params, "from");
    if (!from) throw new BadRequest("from (YYYY-MM-DD) is required");
    const to = dateParameter(params, "to") ?? todayAnywhere(ctx.now());
    if (from > to) throw new BadRequest(`from (${from}) is after to (${to})`);
    const limit = `${Number(from.slice(0, 4)) + MAX_RANGE_YEARS}${from.slice(4)}`;
    if (to > limit)
      throw new BadRequest(`A range is at most ${MAX_RANGE_YEARS} years: to may be ${limit} at the latest`);
    // One read transaction for the version, the currencies and every row: the ETag names the body.
    const snapshot = await reader.snapshot();
    res.once("close", () => snapshot.release());
    try {
      const version = await snapshot.versionOf(id, from, to, currencies);
      const present = currencies ? await snapshot.quotedIn(id, from, to, currencies) : new Set<string>();
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
        ),
        lastModified: version.maxStoredAt,
        headers: { ...notQuotedHeader(currencies, present), ...disposition(format, `${id}-${from}-${to}`) },
        body: render(format, header, () => daysIn(snapshot.range(id, from, to, currencies)), {
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
