// Latest in the OpenAPI document (src/serve/openapi.ts): with and without the format suffix, and the
// ExchangeRates schema of its JSON.
import {
  baseParameter,
  bankStateHeaders,
  asOfParameter,
  provenanceParameter,
  currenciesParameter,
  formatQuery,
  notModified,
  notQuotedHeader,
  rateWarningsHeader,
  ratesContent,
  type OpenApiParts,
} from "../openapi-parts.js";

export function latestPaths(p: OpenApiParts): Record<string, unknown> {
  return {
    "/v1/Banks/{bankId}/DailyRates/Latest": latestOperation(p, false),
    "/v1/Banks/{bankId}/DailyRates/Latest.{format}": latestOperation(p, true),
  };
}

function latestOperation(p: OpenApiParts, suffixed: boolean) {
  return {
    get: {
      operationId: suffixed ? "getLatestRatesWithSuffix" : "getLatestRates",
      summary: suffixed
        ? "Latest daily rates of a bank, format chosen by the URL suffix"
        : "Latest daily rates of a bank",
      description:
        "Format precedence: URL suffix, then the format query parameter, then Accept (q-values and wildcards), then JSON. " +
        "A suffix and a format parameter naming different formats give 400; an unknown format or an Accept admitting none of the four types gives 406.",
      tags: ["rates"],
      security: [{ oauth2: [p.scope] }],
      parameters: [
        p.bankId,
        ...(suffixed
          ? [
              {
                name: "format",
                in: "path",
                required: true,
                schema: { type: "string", enum: ["json", "xml", "csv", "xlsx"] },
              },
            ]
          : []),
        formatQuery,
        currenciesParameter,
        baseParameter,
        asOfParameter,
        provenanceParameter,
        ...p.conditional,
      ],
      responses: {
        "200": {
          description:
            'The bank\'s latest rates. CSV and XLSX come with Content-Disposition: attachment; filename="<ID>-<date>.<ext>".',
          headers: { ...p.cacheHeaders, ...notQuotedHeader, ...rateWarningsHeader, ...bankStateHeaders },
          content: ratesContent,
        },
        "304": notModified,
        ...p.bearerErrors,
        "406": {
          description: "Unsupported format; the body lists the supported media types.",
          content: {
            "application/problem+json": {
              schema: {
                allOf: [
                  { $ref: "#/components/schemas/Problem" },
                  { type: "object", properties: { supported: { type: "array", items: { type: "string" } } } },
                ],
              },
            },
          },
        },
      },
    },
  };
}

export const exchangeRatesSchema = {
  type: "object",
  required: ["bankId", "baseCurrency", "quoteType", "rates"],
  properties: {
    bankId: { type: "string" },
    baseCurrency: { type: "string" },
    quoteType: { type: "string", enum: ["Direct", "Indirect"] },
    derivedFrom: {
      type: "object",
      description:
        "Only in a table re-expressed against another currency (base=): the bank's own base currency and quote type.",
      required: ["baseCurrency", "quoteType"],
      properties: { baseCurrency: { type: "string" }, quoteType: { type: "string", enum: ["Direct", "Indirect"] } },
    },
    rates: {
      type: "object",
      description:
        "Effective date (YYYY-MM-DD) to a map of currency code to rate entry, and `warnings` when a figure of that date was published with a warning.",
      additionalProperties: {
        type: "object",
        properties: {
          warnings: {
            type: "object",
            description:
              "Only when some figure of the date was published with a warning (the cross-bank check doubted it without holding it): currency code to the reason.",
            additionalProperties: { type: "string" },
          },
        },
        additionalProperties: {
          type: "object",
          required: ["rate"],
          properties: {
            rate: { type: "number" },
            unitMultiplier: { type: "integer" },
            validFrom: {
              type: "string",
              format: "date",
              description: "A period source's figure (MonthlyRates, QuarterlyRates...): the first day it is in force.",
            },
            validTo: { type: "string", format: "date", description: "The last day it is in force." },
          },
        },
      },
    },
  },
};
