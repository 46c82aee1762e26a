// `group=week|month|quarter|year` on a bank's daily range (`/v1/Banks/{id}/DailyRates?from&to&group=`,
// `base=` and `currencies=` included): per period and currency, the mean of the published figures
// (src/pairs/average.ts), read in one snapshot of the store, its ETag naming the rows averaged.
import { readGroup } from "../../../pairs/average.js";
import { averageBank, renderAverages } from "../../../pairs/resolve.js";
import { historyEtag, type HistoryStore } from "../../../store/history.js";
import type { Handler } from "../../context.js";
import { disposition, KeptBody, sendKept } from "../../http/dynamic.js";
import { AS_OF, BadRequest } from "../../http/query.js";
import { sendNoBank } from "../bank-problems.js";
import { baseParameter, readFilter } from "../cross-rates.js";
import {
  answerBadRequest,
  bankFacts,
  currentStore,
  rangeParameters,
  readRequest,
  sendNoStore,
  todayAnywhere,
} from "../history/request.js";

interface Kept {
  generation: number;
  body: KeptBody;
  etag: string;
  lastModified: string;
}
/** Answers made, per store, by bank, format and query; valid for the store generation they were made in. */
const kept = new WeakMap<HistoryStore, Map<string, Kept>>();
const KEPT = 256;

export const groupedRange: Handler = async (ctx, req, res, head, route, query) => {
  const id = route.id!;
  try {
    if (AS_OF.test(query)) throw new BadRequest("group cannot be combined with asOf or provenance");
    const request = readRequest(req, res, head, route, query);
    if (!request) return;
    const { format, params, currencies } = request;
    let group;
    try {
      group = readGroup(params.get("group") ?? "");
    } catch (error) {
      throw new BadRequest((error as Error).message);
    }
    const reader = await currentStore(ctx);
    if (!reader) return sendNoStore(res, head);
    const facts = await bankFacts(ctx, reader, id, format);
    if ("none" in facts) return sendNoBank(ctx, res, head, id, facts.seen, `No rates stored for bank ${id}`);
    const base = baseParameter(params, facts.header);
    const read = base ? readFilter(currencies, base) : currencies;
    const { from, to } = rangeParameters(params, todayAnywhere(ctx.now()));
    // Kept per store generation once made: a year of means is asked again and again (a month's P&L).
    let byKey = kept.get(reader);
    if (!byKey) kept.set(reader, (byKey = new Map<string, Kept>()));
    const generation = reader.generation();
    const key = [id, format, from, to, query, facts.factsKey].join("\u0000");
    let made = byKey.get(key);
    if (!made || made.generation !== generation) {
      const asked = {
        header: facts.header,
        from,
        to,
        group,
        ...(currencies ? { currencies } : {}),
        ...(base ? { base } : {}),
      };
      const { doc, version } = await averageBank(reader, asked);
      const stamp = new Date(version.maxStoredAt || "2020-01-01T00:00:00Z");
      made = {
        generation,
        body: new KeptBody(await renderAverages(doc, format, {}, stamp)),
        lastModified: version.maxStoredAt,
        etag: historyEtag(
          "group",
          id,
          from,
          to,
          group,
          format,
          read?.join(",") ?? "*",
          base ?? "",
          facts.factsKey,
          version.rows,
          version.maxStoredAt,
          version.maxFetchId,
        ),
      };
      if (byKey.size >= KEPT) byKey.clear();
      byKey.set(key, made);
    }
    const { body, etag, lastModified } = made;
    return sendKept(
      req,
      res,
      head,
      { format, etag, lastModified, headers: disposition(format, `${id}-${from}-${to}-${group}`) },
      body,
    );
  } catch (error) {
    return answerBadRequest(res, head, error);
  }
};
