// The Corrections resource in the OpenAPI document (src/serve/openapi.ts).
import { dateSchema, formatQuery, notModified, type OpenApiParts } from "../openapi-parts.js";

const figure = {
  type: "object",
  required: ["rate", "storedAt", "source"],
  properties: {
    rate: { type: "string", description: "The figure as stored: exact decimal text." },
    unitMultiplier: { type: "integer", description: "The rate is per 10^unitMultiplier units; absent for one." },
    storedAt: { type: "string", format: "date-time", description: "When this figure was first stored." },
    source: {
      type: "object",
      description:
        'Where the figure came from. `kind` "fetch": the bank\'s answer, its `url` (secrets masked) and `fetchedAt`. `kind` "import": a file an operator imported with `exrates import`, never fetched by the service: its `file` (base name), `importedBy`, `importedAt`, and `declaredUrl` when the importer declared one (unverified). Both: `sha256` of the bytes.',
      properties: {
        kind: { type: "string", enum: ["fetch", "import"] },
        url: { type: "string", description: "A fetch: its URL, secrets masked." },
        fetchedAt: { type: "string", format: "date-time" },
        file: { type: ["string", "null"], description: "An import: the file's base name (null: not recorded)." },
        importedBy: { type: ["string", "null"], description: "An import: who imported it (null: not recorded)." },
        importedAt: { type: "string", format: "date-time" },
        declaredUrl: { type: "string", description: "An import: the URL its importer declared, unverified." },
        sha256: { type: ["string", "null"], description: "The sha256 of the answer's bytes, hex." },
      },
    },
  },
};

export function correctionsPaths(p: OpenApiParts): Record<string, unknown> {
  return {
    "/v1/Banks/{bankId}/Corrections": {
      get: {
        operationId: "getCorrections",
        summary: "Every correction of a bank's stored figures",
        description:
          "Each revision of a stored figure made from `from` to `to` (UTC dates of the correction, inclusive; by default from 1 January of this year to today), oldest first: the effective date and currency, the previous and the new figure, when each was stored, and the provenance of both. JSON and XML nest the two figures; CSV and XLSX hold one row per correction. A suffix (.json, .xml, .csv, .xlsx) may follow.",
        tags: ["rates"],
        security: p.security,
        parameters: [
          p.bankId,
          { name: "from", in: "query", required: false, schema: dateSchema },
          { name: "to", in: "query", required: false, schema: dateSchema },
          formatQuery,
          ...p.conditional,
        ],
        responses: {
          "200": {
            description: "The corrections.",
            headers: p.cacheHeaders,
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  properties: {
                    bankId: { type: "string" },
                    from: dateSchema,
                    to: dateSchema,
                    corrections: {
                      type: "array",
                      items: {
                        type: "object",
                        properties: {
                          effectiveDate: dateSchema,
                          currency: { type: "string" },
                          previous: figure,
                          current: figure,
                        },
                      },
                    },
                  },
                },
              },
              "application/xml": { schema: { type: "string", description: "The Corrections element of the XSD." } },
              "text/csv": { schema: { type: "string" } },
              "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": {
                schema: { type: "string", format: "binary" },
              },
            },
          },
          "304": notModified,
          ...p.bearerErrors,
          "400": p.err("A malformed date, or from after to."),
          "404": p.err("Unknown bank, or no rates stored for it."),
          "406": p.err("Unsupported format; the body lists the supported media types."),
        },
      },
    },
  };
}
