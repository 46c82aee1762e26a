// What the API's endpoints answer: health and readiness, the OpenAPI document and the XSD (public),
// the bearer check in front of the rest, the scheduler's status, and the published files with
// content negotiation. Everything is answered from memory.
import type { IncomingMessage, ServerResponse } from "node:http";

import type { BearerChecker, BearerResult } from "../auth/tokens.js";
import type { SchedulerRole } from "../schedule/leader.js";
import { redactSecrets } from "../secrets.js";
import type { BankResource } from "../types.js";
import { FORMATS, negotiate, type Format } from "./http/negotiate.js";
import { PROBLEM_TYPES, sendJson, sendProblem, sendRepresentation } from "./http/respond.js";
import type { ApiHandlers, ResourceRoute } from "./routes.js";
import type { LoadedTree } from "./state/tree.js";

export interface ApiContext {
  tree: () => LoadedTree | undefined;
  checker: BearerChecker;
  /** The realm named in WWW-Authenticate challenges. */
  realm: string;
  /** The scope a token needs. */
  scope: string;
  openapi: unknown;
  /** The banks' status rows; absent when no scheduler runs in this process. */
  status?: () => Promise<unknown[]>;
  /** Which instance runs the scheduler (`exrates start`): `scheduler` in `/v1/status`. */
  scheduler?: () => Promise<SchedulerRole>;
  /** Every bank the service knows (the adapters' descriptors), published or not; absent: the tree's only. */
  knownBanks?: () => Promise<ReadonlyMap<string, BankResource>>;
}

const NO_STORE = { "cache-control": "no-store" };
const RETRY_SOON = { "retry-after": "5" };

export function createApiHandlers(ctx: ApiContext): ApiHandlers {
  return {
    healthz: (_req, res, head) => sendJson(res, 200, { status: "ok" }, NO_STORE, head),
    readyz: (_req, res, head) => {
      const tree = ctx.tree();
      if (!tree) return sendProblem(res, 503, { detail: "No published tree loaded yet", headers: RETRY_SOON, head });
      sendJson(res, 200, { status: "ready", generation: tree.generation }, NO_STORE, head);
    },
    openapi: (_req, res, head) => sendJson(res, 200, ctx.openapi, { "cache-control": "no-cache" }, head),
    xsd: (req, res, head) => {
      const tree = ctx.tree();
      if (!tree?.xsd) return sendProblem(res, tree ? 404 : 503, { detail: "The schema is not published yet", head });
      sendRepresentation(req, res, tree.xsd);
    },
    authorize: (req, res, head) => {
      // A token already seen is checked synchronously: no promise on the hot path.
      const result = ctx.checker.check(req.headers.authorization);
      const answer = (r: BearerResult) =>
        r.kind === "ok" || refuse(res, head, bearerChallenge(ctx.realm, r, ctx.scope));
      return result instanceof Promise ? result.then(answer) : answer(result);
    },
    status: async (_req, res, head) => {
      if (!ctx.status) {
        const detail = "No scheduler runs in this process; `exrates start` serves the status";
        return sendProblem(res, 404, { detail, head });
      }
      // Every client of the API reads this: a secret that reached a stored error is masked here too.
      const [banks, scheduler] = await Promise.all([ctx.status(), ctx.scheduler?.()]);
      const text = redactSecrets(JSON.stringify(scheduler ? { banks, scheduler } : { banks }));
      sendJson(res, 200, JSON.parse(text) as unknown, NO_STORE, head);
    },
    resource: (req, res, head, route, query) => {
      // A bank with nothing published yet is still a bank: `exrates start` adds its status (as JSON).
      if (route.kind === "bank" && (ctx.status || !ctx.tree()?.banks.get(route.id)?.bank))
        return sendBank(ctx, req, res, head, route, query);
      return sendResource(ctx, req, res, head, route, query);
    },
  };
}

/** A bank's status row from the scheduler, secrets masked; undefined without a scheduler. */
async function statusOf(ctx: ApiContext, id: string): Promise<unknown> {
  if (!ctx.status) return undefined;
  const row = (await ctx.status()).find((r) => (r as { id?: unknown }).id === id);
  return row === undefined ? undefined : (JSON.parse(redactSecrets(JSON.stringify(row))) as unknown);
}

/**
 * `GET /v1/banks/{id}` answered from the descriptors: a bank known but not published, or any bank when
 * a scheduler runs (the published resource plus `status`). Unknown: 404 of type unknown-bank.
 */
async function sendBank(
  ctx: ApiContext,
  req: IncomingMessage,
  res: ServerResponse,
  head: boolean,
  route: Extract<ResourceRoute, { kind: "bank" }>,
  query: string,
): Promise<void> {
  const negotiation = negotiate(route.suffix, formatValues(query), req.headers.accept, ["json"]);
  if (!negotiation.ok) {
    const { status, detail, supported } = negotiation;
    return sendProblem(res, status, { detail, extra: { supported }, headers: { vary: "Accept" }, head });
  }
  const published = ctx.tree()?.banks.get(route.id)?.bank;
  const resource = published
    ? (JSON.parse(published.identity.body.toString("utf8")) as BankResource)
    : (await ctx.knownBanks?.())?.get(route.id);
  if (!resource) return sendUnknownBank(res, head, route.id);
  const status = await statusOf(ctx, route.id);
  sendJson(res, 200, status === undefined ? resource : { ...resource, status }, { ...NO_STORE, vary: "Accept" }, head);
}

/** Latest of a bank with nothing published: known (no rates yet) or unknown, two problem types. */
async function sendNoRates(ctx: ApiContext, res: ServerResponse, head: boolean, id: string): Promise<void> {
  const known = ctx.tree()?.banks.has(id) || (await ctx.knownBanks?.())?.has(id);
  if (!known) return sendUnknownBank(res, head, id);
  const status = (await statusOf(ctx, id)) as { state?: string; nextRunAt?: string | null } | undefined;
  const when = status?.nextRunAt ? `; next run ${status.nextRunAt}` : "";
  sendProblem(res, 404, {
    type: PROBLEM_TYPES.noRatesYet,
    detail: `Bank ${id} is known but has no rates published yet${when}`,
    extra: { bank: id, ...(status?.state ? { state: status.state } : {}) },
    head,
  });
}

function sendUnknownBank(res: ServerResponse, head: boolean, id: string): void {
  sendProblem(res, 404, { type: PROBLEM_TYPES.unknownBank, detail: `Unknown bank ${id}`, extra: { bank: id }, head });
}

/** Answers a refused token with its challenge; false, for the router. */
function refuse(res: ServerResponse, head: boolean, challenge: ReturnType<typeof bearerChallenge>): false {
  const headers = { "www-authenticate": challenge.header };
  sendProblem(res, challenge.status, { detail: challenge.detail, headers, head });
  return false;
}

/** A bank list, a Bank resource or a bank's latest rates, in the format the client asked for. */
function sendResource(
  ctx: ApiContext,
  req: IncomingMessage,
  res: ServerResponse,
  head: boolean,
  route: ResourceRoute,
  query: string,
): void | Promise<void> {
  const offered: readonly Format[] = route.kind === "latest" ? FORMATS : ["json"];
  const suffix = route.kind === "banks" ? undefined : route.suffix;
  const negotiation = negotiate(suffix, formatValues(query), req.headers.accept, offered);
  if (!negotiation.ok) {
    const { status, detail, supported } = negotiation;
    return sendProblem(res, status, { detail, extra: { supported }, headers: { vary: "Accept" }, head });
  }
  const tree = ctx.tree();
  if (!tree) return sendProblem(res, 503, { detail: "No rates published yet", headers: RETRY_SOON, head });
  if (route.kind === "banks") {
    if (!tree.banksList) return sendProblem(res, 404, { detail: "Not published", head });
    return sendRepresentation(req, res, tree.banksList);
  }
  const entry = tree.banks.get(route.id);
  const rep = route.kind === "bank" ? entry?.bank : entry?.latest[negotiation.format];
  if (!rep) return sendNoRates(ctx, res, head, route.id);
  sendRepresentation(req, res, rep);
}

/** Every `format` query parameter's value (the name matched case-insensitively). */
function formatValues(query: string): string[] {
  if (!query || !/(^|&)format=/i.test(query)) return [];
  const values: string[] = [];
  for (const [k, v] of new URLSearchParams(query)) if (k.toLowerCase() === "format") values.push(v);
  return values;
}

/** The status, WWW-Authenticate header (RFC 6750 §3) and problem detail of a refused bearer token. */
function bearerChallenge(
  realm: string,
  result: Exclude<BearerResult, { kind: "ok" }>,
  scope: string,
): { status: number; header: string; detail: string } {
  const quote = (s: string) => s.replace(/["\\]/g, "");
  switch (result.kind) {
    case "missing":
      return { status: 401, header: `Bearer realm="${realm}"`, detail: "A bearer token is required" };
    case "invalid_request":
      return {
        status: 400,
        header: `Bearer realm="${realm}", error="invalid_request", error_description="${quote(result.description)}"`,
        detail: result.description,
      };
    case "invalid_token":
      return {
        status: 401,
        header: `Bearer realm="${realm}", error="invalid_token", error_description="${quote(result.description)}"`,
        detail: result.description,
      };
    case "insufficient_scope":
      return {
        status: 403,
        header: `Bearer realm="${realm}", error="insufficient_scope", scope="${scope}"`,
        detail: result.description,
      };
  }
}
