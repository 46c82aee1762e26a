// The currencies in the OpenAPI document (src/serve/openapi.ts).
import { MEDIA_TYPES } from "../../http/negotiate.js";
import { dateSchema, notModified, type OpenApiParts } from "../openapi-parts.js";

export function currenciesPaths(p: OpenApiParts): Record<string, unknown> {
  return {
    "/v1/currencies": {
      get: {
        operationId: "listCurrencies",
        summary: "Every currency any bank quotes, its English name, and which banks quote it since when",
        tags: ["banks"],
        security: p.security,
        parameters: p.conditional,
        responses: {
          "200": {
            description: "The currencies, by code.",
            headers: p.cacheHeaders,
            content: {
              [MEDIA_TYPES.json]: {
                schema: {
                  type: "object",
                  required: ["currencies"],
                  properties: {
                    currencies: {
                      type: "array",
                      items: {
                        type: "object",
                        required: ["code", "banks"],
                        properties: {
                          code: { type: "string" },
                          name: { type: "string", description: "English name (ICU)." },
                          iso4217: {
                            type: "boolean",
                            enum: [false],
                            description: "Present (false) only for a market code, such as CNH, that is not ISO 4217.",
                          },
                          note: { type: "string", description: "For a market code: what it stands for." },
                          banks: {
                            type: "array",
                            items: {
                              type: "object",
                              required: ["bankId", "since", "latest"],
                              properties: {
                                bankId: { type: "string" },
                                frequency: {
                                  type: "string",
                                  description: "the bank's table quoting it, when not its only one (NBP: Weekly)",
                                },
                                since: dateSchema,
                                latest: dateSchema,
                              },
                            },
                          },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
          "304": notModified,
          ...p.bearerErrors,
          "406": p.err("Accept admits no JSON."),
        },
      },
    },
  };
}
