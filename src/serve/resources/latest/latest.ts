// `GET /v1/Banks/{bankId}/DailyRates/Latest[.format]` (and `MonthlyRates/Latest`... for a period
// source, its figures with their validity): a bank's newest rates, in the format negotiated,
// answered from the published tree in memory: the hot path, a negotiation, a map lookup and a write
// of bytes held ready with their headers. With `currencies=` or `base=` (./filtered.ts) and with
// `asOf=` (the history's and the periods' as-of modules), the answer is made per request, by modules
// imported at the first such request: a server most clients ask only for Latest does not hold them.
import type { Frequency } from "../../../types.js";
import type { Handler } from "../../context.js";
import { FORMATS, negotiate, type Negotiation } from "../../http/negotiate.js";
import { AS_OF, formatValues } from "../../http/query.js";
import { sendProblem, sendRepresentation } from "../../http/respond.js";
import { withNotice } from "../../state/bank-notices.js";
import { sendNoRates } from "../bank-problems.js";
import { sendOtherFrequency, treeFrequency } from "../frequency.js";

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
      if (frequency !== "Daily")
        return import("../periods/as-of.js").then((m) =>
          m.sendPeriodAsOf(ctx, req, res, head, route, query, frequency),
        );
      const published = treeFrequency(ctx, route.id!);
      if (published && published !== "Daily") return sendOtherFrequency(res, head, route.id!, "Daily", published);
      return import("../history/as-of.js").then((m) => m.sendAsOfDay(ctx, req, res, head, route, query));
    }
    if (query && MADE_PER_REQUEST.test(query))
      return void import("./filtered.js")
        .then((m) => m.sendFilteredLatest(ctx, req, res, head, route, query, frequency))
        .catch(() => res.destroy());
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
    // A bank late, failing or stale says so in headers beside the published bytes (src/serve/state/bank-notices.ts).
    withNotice(res, ctx.bankNotice?.(route.id!));
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
