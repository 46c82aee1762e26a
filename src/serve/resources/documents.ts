// The API's own descriptions, without a token: the OpenAPI document (src/serve/openapi.ts, made once at
// start) and the XSD of the XML format (published with the tree).
import type { Handler } from "../context.js";
import { sendJson, sendProblem, sendRepresentation } from "../http/respond.js";

export const openapi: Handler = (ctx, _req, res, head) =>
  sendJson(res, 200, ctx.openapi, { "cache-control": "no-cache" }, head);

export const xsd: Handler = (ctx, req, res, head) => {
  const tree = ctx.tree();
  if (!tree?.xsd) return sendProblem(res, tree ? 404 : 503, { detail: "The schema is not published yet", head });
  sendRepresentation(req, res, tree.xsd);
};
