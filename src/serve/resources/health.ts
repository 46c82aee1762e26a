// `GET /healthz` (the process answers) and `GET /readyz` (a published tree is loaded), without a token,
// never cached.
import type { Handler } from "../context.js";
import { sendJson, sendProblem } from "../http/respond.js";

const NO_STORE = { "cache-control": "no-store" };

export const healthz: Handler = (_ctx, _req, res, head) => sendJson(res, 200, { status: "ok" }, NO_STORE, head);

export const readyz: Handler = (ctx, _req, res, head) => {
  const tree = ctx.tree();
  if (!tree)
    return sendProblem(res, 503, {
      detail: "No published tree loaded yet",
      headers: { "retry-after": "5" },
      head,
    });
  sendJson(res, 200, { status: "ready", generation: tree.generation }, NO_STORE, head);
};
