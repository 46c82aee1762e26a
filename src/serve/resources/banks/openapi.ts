// The banks in the OpenAPI document (src/serve/openapi.ts): one bank, the list, and the Bank schema.
import { MEDIA_TYPES } from "../../http/negotiate.js";
import { dateSchema, notModified, type OpenApiParts } from "../openapi-parts.js";

export function bankPaths(p: OpenApiParts): Record<string, unknown> {
  return {
    "/v1/banks/{bankId}": {
      get: {
        operationId: "getBank",
        summary: "A bank's descriptive data",
        tags: ["banks"],
        parameters: [p.bankId, ...p.conditional],
        responses: {
          "200": {
            description:
              "The Bank resource, for every known bank, published or not; under `exrates start` it adds `status`, the bank's row of /v1/status.",
            headers: p.cacheHeaders,
            content: { [MEDIA_TYPES.json]: { schema: { $ref: "#/components/schemas/Bank" } } },
          },
          "304": { description: "Not modified." },
          ...p.bearerErrors,
          "406": p.err("Accept admits no JSON."),
        },
      },
    },
  };
}

export function banksPaths(p: OpenApiParts): Record<string, unknown> {
  return {
    "/v1/banks": {
      get: {
        operationId: "listBanks",
        summary: "Every bank with published rates, with its first and latest stored dates",
        tags: ["banks"],
        security: p.security,
        parameters: p.conditional,
        responses: {
          "200": {
            description: "The Bank resources, by id.",
            headers: p.cacheHeaders,
            content: {
              [MEDIA_TYPES.json]: {
                schema: {
                  type: "object",
                  required: ["banks"],
                  properties: {
                    banks: {
                      type: "array",
                      items: {
                        allOf: [
                          { $ref: "#/components/schemas/Bank" },
                          {
                            type: "object",
                            properties: { firstEffectiveDate: dateSchema, latestEffectiveDate: dateSchema },
                          },
                        ],
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

export const bankSchema = {
  type: "object",
  required: [
    "id",
    "name",
    "dailyUpdateTime",
    "bankCurrency",
    "countryCode",
    "region",
    "timeZone",
    "supportedFrequencies",
    "website",
  ],
  properties: {
    id: { type: "string" },
    name: {
      type: "array",
      items: {
        type: "object",
        required: ["languageCode", "name", "abbreviatedName"],
        properties: {
          languageCode: { type: "string" },
          name: { type: "string" },
          abbreviatedName: { type: "string" },
        },
      },
    },
    dailyUpdateTime: { type: "string", pattern: "^\\d{2}:\\d{2}:\\d{2}$" },
    bankCurrency: { type: "string" },
    countryCode: { type: "array", items: { type: "string" } },
    region: { type: "array", items: { type: "string" } },
    timeZone: {
      type: "object",
      required: ["windowsTimeZoneId", "ianaTimeZoneName"],
      properties: { windowsTimeZoneId: { type: "string" }, ianaTimeZoneName: { type: "string" } },
    },
    supportedFrequencies: { type: "array", items: { type: "string" } },
    nextPublication: {
      type: ["object", "null"],
      description:
        "The bank's next publication after its newest published date, by its calendar (working days minus closings): the date, the bank's local time and zone, and the instant.",
      properties: {
        date: { type: "string", format: "date" },
        localTime: { type: "string" },
        timeZone: { type: "string" },
        at: { type: "string", format: "date-time" },
      },
    },
    website: { type: "string", format: "uri" },
  },
};
