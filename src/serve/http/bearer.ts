// The bearer check in front of every route marked `auth` in the routing table: a token of the realm
// (or of the external issuer) with the API's scope; anything else is answered with its RFC 6750
// challenge. The server builds the checker (embedded realm: our keys and the clients' states;
// external: the issuer's JWKS).
import type { IncomingMessage, ServerResponse } from "node:http";

import type { BearerResult } from "../../auth/tokens.js";
import type { ServeContext } from "../context.js";
import { sendProblem } from "./respond.js";

/**
 * True when the request may go on; otherwise it has answered the request. A token already seen is
 * checked synchronously: no promise on the hot path.
 */
export function authorize(
  ctx: ServeContext,
  req: IncomingMessage,
  res: ServerResponse,
  head: boolean,
): boolean | Promise<boolean> {
  const result = ctx.checker.check(req.headers.authorization);
  if (result instanceof Promise) return result.then((r) => answer(ctx, res, head, r));
  return answer(ctx, res, head, result);
}

function answer(ctx: ServeContext, res: ServerResponse, head: boolean, result: BearerResult): boolean {
  if (result.kind === "ok") return true;
  const challenge = bearerChallenge(ctx.realm, result, ctx.scope);
  sendProblem(res, challenge.status, {
    detail: challenge.detail,
    headers: { "www-authenticate": challenge.header },
    head,
  });
  return false;
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
