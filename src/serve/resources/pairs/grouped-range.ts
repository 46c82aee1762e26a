// `group=week|month|quarter|year` on a bank's daily range (`/v1/Banks/{id}/DailyRates?from&to&group=`,
// `base=` and `currencies=` included): per period and currency, the mean of the published figures
// (src/pairs/average.ts), read in one snapshot of the store, its ETag naming the rows averaged.
import { readGroup } from "../../../pairs/average.js";
import { averageBank, renderAverages } from "../../../pairs/resolve.js";
import { historyEtag } from "../../../store/history.js";
import type { Handler } from "../../context.js";
import { disposition, sendDynamic } from "../../http/dynamic.js";
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
    const body = await renderAverages(doc, format, {}, stamp);
    const etag = historyEtag(
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
    );
    return await sendDynamic(req, res, head, {
      format,
      etag,
      lastModified: version.maxStoredAt,
      headers: disposition(format, `${id}-${from}-${to}-${group}`),
      body: () => ("text" in body ? { text: [body.text] } : { binary: [body.binary] }),
    });
  } catch (error) {
    return answerBadRequest(res, head, error);
  }
};
