// The OpenAPI description of the routes that describe the service itself (no token): this document, the
// XML schema of the rates documents, and the liveness and readiness probes. With them every route of the
// routing table but the realm's (the OAuth 2.0 security scheme's token endpoint) and the status page
// (HTML for people) is a path of the document.
import type { OpenApiParts } from "./openapi-parts.js";

function open(
  operationId: string,
  summary: string,
  content: Record<string, unknown>,
  more: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    get: {
      operationId,
      summary,
      tags: ["status"],
      security: [],
      responses: { "200": { description: summary, content }, ...more },
    },
  };
}

const status = (...values: string[]) => ({
  "application/json": {
    schema: {
      type: "object",
      required: ["status"],
      properties: { status: { type: "string", enum: values }, generation: { type: "string" } },
    },
  },
});

export function documentsPaths(p: OpenApiParts): Record<string, unknown> {
  return {
    "/v1/openapi.json": open("getOpenApi", "This document: the API in OpenAPI 3.1", {
      "application/json": { schema: { type: "object" } },
    }),
    "/v1/schemas/exchange-rates-1.0.xsd": open(
      "getExchangeRatesXsd",
      "The XML schema (1.0) of the rates, conversion and corrections documents",
      { "application/xml": { schema: { type: "string" } } },
      { "404": p.err("The schema is not published yet."), "503": p.err("No tree published yet.") },
    ),
    "/healthz": open("getHealthz", "Liveness: the process answers", status("ok")),
    "/readyz": open("getReadyz", "Readiness: a published tree is loaded", status("ready"), {
      "503": p.err("No published tree loaded yet."),
    }),
  };
}
