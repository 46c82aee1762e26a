// What the API's endpoints answer: health and readiness, the OpenAPI document and the XSD (public),
// the bearer check in front of the rest, the scheduler's status, and the published files with
// content negotiation. Everything is answered from memory.
import type { IncomingMessage, ServerResponse } from "node:http";

import type { BearerChecker, BearerResult } from "../auth/tokens.js";
import { redactSecrets } from "../secrets.js";
import { FORMATS, negotiate, type Format } from "./negotiate.js";
import { sendJson, sendProblem, sendRepresentation } from "./respond.js";
import type { ApiHandlers, ResourceRoute } from "./routes.js";
import type { LoadedTree } from "./tree.js";

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
      const text = redactSecrets(JSON.stringify({ banks: await ctx.status() }));
      sendJson(res, 200, JSON.parse(text) as unknown, NO_STORE, head);
    },
    resource: (req, res, head, route, query) => sendResource(ctx, req, res, head, route, query),
  };
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
): void {
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
  if (!rep) {
    const what = route.kind === "bank" ? "data" : "rates";
    const detail = entry ? `No ${what} published for bank ${route.id}` : `Unknown bank ${route.id}`;
    return sendProblem(res, 404, { detail, head });
  }
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
