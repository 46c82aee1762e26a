// `GET /v1/Banks/{bankId}/Corrections[.format]?from=&to=`: every revision of a stored figure of the bank
// made from `from` to `to` (UTC dates of the correction, inclusive; by default this year to today), in
// the four formats: the effective date and currency, the previous and the new figure, when each was
// stored, and the provenance of both (src/store/as-of.ts). The ETag is the hash of the body.
import { createHash } from "node:crypto";

import {
  correctionsCsv,
  correctionsJson,
  correctionsXlsx,
  correctionsXml,
  type CorrectionsDocument,
} from "../../../publish/render-corrections.js";
import { otherSourcesOf } from "../../../feed/sources.js";
import { redactSecrets } from "../../../secrets.js";
import { AsOfReader } from "../../../store/as-of.js";
import { historyEtag } from "../../../store/history.js";
import type { Handler } from "../../context.js";
import { disposition, sendDynamic } from "../../http/dynamic.js";
import { BadRequest, dateParameter } from "../../http/query.js";
import { sendNoBank } from "../bank-problems.js";
import { answerBadRequest, currentStore, readRequest, sendNoStore } from "../history/request.js";

export const corrections: Handler = async (ctx, req, res, head, route, query) => {
  const id = route.id!;
  try {
    const request = readRequest(req, res, head, route, query);
    if (!request) return;
    const { format, params } = request;
    const today = new Date(ctx.now()).toISOString().slice(0, 10);
    const from = dateParameter(params, "from") ?? `${today.slice(0, 4)}-01-01`;
    const to = dateParameter(params, "to") ?? today;
    if (from > to) throw new BadRequest(`from (${from}) is after to (${to})`);
    const store = await currentStore(ctx);
    if (!store) return sendNoStore(res, head);
    // Every table of the bank (NBP: its daily and its weekly one), in the order the revisions were stored.
    const sources = [id, ...otherSourcesOf(id)];
    const stored = await Promise.all(sources.map(async (s) => (await store.dates(s)).length > 0));
    if (!stored.includes(true)) return sendNoBank(ctx, res, head, id, false, `No rates stored for bank ${id}`);
    const reader = AsOfReader.of(store);
    const list = (await Promise.all(sources.filter((_, i) => stored[i]).map((s) => reader.corrections(s, from, to))))
      .flat()
      .sort((a, b) => (a.current.storedAt < b.current.storedAt ? -1 : a.current.storedAt > b.current.storedAt ? 1 : 0));
    for (const c of list)
      for (const f of [c.previous, c.current]) f.source = { ...f.source, url: redactSecrets(f.source.url) };
    const doc: CorrectionsDocument = { bankId: id, from, to, corrections: list };
    const bytes =
      format === "json"
        ? Buffer.from(correctionsJson(doc))
        : format === "xml"
          ? Buffer.from(correctionsXml(doc))
          : format === "csv"
            ? Buffer.from(correctionsCsv(doc))
            : correctionsXlsx(doc);
    return await sendDynamic(req, res, head, {
      format,
      etag: historyEtag("corrections", format, createHash("sha256").update(bytes).digest("hex")),
      lastModified: list.at(-1)?.current.storedAt,
      headers: disposition(format, `${id}-corrections-${from}-${to}`),
      body: () => (format === "xlsx" ? { binary: [bytes] } : { text: [bytes.toString("utf8")] }),
    });
  } catch (error) {
    return answerBadRequest(res, head, error);
  }
};
