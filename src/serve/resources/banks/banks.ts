// `GET /v1/banks`: every published bank's Bank resource with its first and latest stored dates (from
// the store; the published `banks.json` while there is no store to read). `GET /v1/banks/{bankId}`:
// one bank, published or only known (the adapters' descriptors), with its scheduling status under
// `exrates start`.
import type { IncomingMessage, ServerResponse } from "node:http";

import type { BankResource } from "../../../types.js";
import type { Handler, MatchedRoute, ServeContext } from "../../context.js";
import { sendJsonDocument } from "../../http/dynamic.js";
import { negotiate } from "../../http/negotiate.js";
import { formatValues } from "../../http/query.js";
import { sendJson, sendProblem, sendRepresentation } from "../../http/respond.js";
import { sendNoRates, sendUnknownBank, statusOf } from "../bank-problems.js";
import { bankResource } from "../published.js";

const RETRY_SOON = { "retry-after": "5" };

export const banks: Handler = (ctx, req, res, head, _route, query) => {
  if (ctx.history()) return void sendBanks(ctx, req, res, head, query).catch(() => res.destroy());
  const negotiation = negotiate(undefined, formatValues(query), req.headers.accept, ["json"]);
  if (!negotiation.ok) return sendNotAcceptable(res, head, negotiation);
  const tree = ctx.tree();
  if (!tree) return sendProblem(res, 503, { detail: "No rates published yet", headers: RETRY_SOON, head });
  if (!tree.banksList) return sendProblem(res, 404, { detail: "Not published", head });
  sendRepresentation(req, res, tree.banksList);
};

export const bank: Handler = (ctx, req, res, head, route, query) => {
  const id = route.id!;
  // A bank with nothing published yet is still a bank: `exrates start` adds its status (as JSON).
  if (ctx.status || !ctx.tree()?.banks.get(id)?.bank) return sendBank(ctx, req, res, head, route, query);
  const negotiation = negotiate(route.suffix, formatValues(query), req.headers.accept, ["json"]);
  if (!negotiation.ok) return sendNotAcceptable(res, head, negotiation);
  const tree = ctx.tree();
  if (!tree) return sendProblem(res, 503, { detail: "No rates published yet", headers: RETRY_SOON, head });
  const rep = tree.banks.get(id)?.bank;
  if (!rep) return sendNoRates(ctx, res, head, id);
  sendRepresentation(req, res, rep);
};

function sendNotAcceptable(
  res: ServerResponse,
  head: boolean,
  negotiation: { status: number; detail: string; supported: string[] },
): void {
  const { status, detail, supported } = negotiation;
  sendProblem(res, status, { detail, extra: { supported }, headers: { vary: "Accept" }, head });
}

/**
 * `GET /v1/banks/{id}` answered from the descriptors: a bank known but not published, or any bank when
 * a scheduler runs (the published resource plus `status`). Unknown: 404 of type unknown-bank.
 */
async function sendBank(
  ctx: ServeContext,
  req: IncomingMessage,
  res: ServerResponse,
  head: boolean,
  route: MatchedRoute,
  query: string,
): Promise<void> {
  const id = route.id!;
  const negotiation = negotiate(route.suffix, formatValues(query), req.headers.accept, ["json"]);
  if (!negotiation.ok) return sendNotAcceptable(res, head, negotiation);
  const published = ctx.tree()?.banks.get(id)?.bank;
  const resource = published
    ? (JSON.parse(published.identity.body.toString("utf8")) as BankResource)
    : (await ctx.knownBanks())?.get(id);
  if (!resource) return sendUnknownBank(res, head, id);
  const status = await statusOf(ctx, id);
  sendJson(
    res,
    200,
    status === undefined ? resource : { ...resource, status },
    { "cache-control": "no-store", vary: "Accept" },
    head,
  );
}

/** `GET /v1/banks` from the store: every published bank's Bank resource with its first and latest stored dates. */
async function sendBanks(ctx: ServeContext, req: IncomingMessage, res: ServerResponse, head: boolean, query: string) {
  const negotiation = negotiate(undefined, formatValues(query), req.headers.accept, ["json"]);
  if (!negotiation.ok) return sendNotAcceptable(res, head, negotiation);
  const tree = ctx.tree();
  const reader = ctx.history()!;
  await reader.refresh();
  if (!tree) return sendProblem(res, 503, { detail: "No rates published yet", headers: RETRY_SOON, head });
  const spans = new Map((await reader.banks()).map((b) => [b.bankId, b]));
  const list = [...tree.banks.values()]
    .filter((entry) => entry.bank)
    .sort((a, b) => (a.id < b.id ? -1 : 1))
    .map((entry) => {
      const span = spans.get(entry.id);
      const latest = span?.latest ?? entry.effectiveDate;
      return {
        ...bankResource(entry.bank)!,
        ...(span ? { firstEffectiveDate: span.first } : {}),
        ...(latest ? { latestEffectiveDate: latest } : {}),
      };
    });
  const body = Buffer.from(`${JSON.stringify({ banks: list }, null, 2)}\n`, "utf8");
  return sendJsonDocument(req, res, head, body, await reader.lastFetchAt());
}
