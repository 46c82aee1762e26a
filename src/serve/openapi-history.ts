// The history and discovery endpoints in the OpenAPI document (openapi.ts): a date, a range, the
// bank list and the currency list, and the `currencies` filter shared with Latest.
import { MEDIA_TYPES } from "./negotiate.js";

/** The pieces of openapi.ts the history operations share with Latest. */
export interface OpenApiParts {
  bankId: Record<string, unknown>;
  conditional: Array<Record<string, unknown>>;
  cacheHeaders: Record<string, unknown>;
  bearerErrors: Record<string, unknown>;
  err: (description: string) => Record<string, unknown>;
  scope: string;
}

export const currenciesParameter = {
  name: "currencies",
  in: "query",
  required: false,
  description:
    "Comma-separated ISO 4217 or market codes (any case): only these currencies' rates. Any other code is 400; a code the bank did not quote in the response is left out and named in X-Currencies-Not-Quoted.",
  schema: { type: "string", pattern: "^[A-Za-z]{3}(,[A-Za-z]{3})*$" },
};

export const notQuotedHeader = {
  "X-Currencies-Not-Quoted": {
    description: "The requested currencies (comma-separated) of which the response holds no rate.",
    schema: { type: "string" },
  },
};

const dateSchema = { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}$" };
const formatQuery = {
  name: "format",
  in: "query",
  required: false,
  schema: { type: "string", enum: ["json", "xml", "csv", "xlsx"] },
};

export function historyPaths(p: OpenApiParts): Record<string, unknown> {
  const content = {
    [MEDIA_TYPES.json]: { schema: { $ref: "#/components/schemas/ExchangeRates" } },
    [MEDIA_TYPES.xml]: { schema: { type: "string" } },
    [MEDIA_TYPES.csv]: { schema: { type: "string" } },
    [MEDIA_TYPES.xlsx]: { schema: { type: "string", contentMediaType: MEDIA_TYPES.xlsx } },
  };
  const security = [{ oauth2: [p.scope] }];
  const notModified = { description: "Not modified (If-None-Match or If-Modified-Since)." };
  const notAcceptable = p.err("Unsupported format; the body lists the supported media types.");
  const notInForce = {
    description:
      "Unknown bank, or no set in force on that date (before the first stored date, in the future, or further from the previous set than the bank's publication gap). The problem names the stored dates.",
    content: {
      "application/problem+json": {
        schema: {
          allOf: [
            { $ref: "#/components/schemas/Problem" },
            {
              type: "object",
              properties: {
                firstDate: dateSchema,
                latestDate: dateSchema,
                previousDate: dateSchema,
                nextDate: dateSchema,
              },
            },
          ],
        },
      },
    },
  };
  return {
    "/v1/Banks/{bankId}/DailyRates/{date}": {
      get: {
        operationId: "getRatesOnDate",
        summary: "The rates of a bank in force on a date",
        description:
          "The set of the bank's newest effective date on or before the date (a weekend or holiday gives the previous publication). The document names that effective date and Content-Location is its own URL. A suffix (.json, .xml, .csv, .xlsx) may follow the date.",
        tags: ["rates"],
        security,
        parameters: [
          p.bankId,
          { name: "date", in: "path", required: true, description: "YYYY-MM-DD", schema: dateSchema },
          formatQuery,
          currenciesParameter,
          ...p.conditional,
        ],
        responses: {
          "200": {
            description: "The set in force.",
            headers: {
              ...p.cacheHeaders,
              ...notQuotedHeader,
              "Content-Location": { description: "The URL of the actual effective date.", schema: { type: "string" } },
            },
            content,
          },
          "304": notModified,
          ...p.bearerErrors,
          "400": p.err("A malformed date or currencies parameter, or a malformed Authorization header."),
          "404": notInForce,
          "406": notAcceptable,
        },
      },
    },
    "/v1/Banks/{bankId}/DailyRates": {
      get: {
        operationId: "getRatesInRange",
        summary: "Every effective date of a bank in a range",
        description:
          "Oldest first: JSON with one key per date in rates, XML with one Rates element per date, CSV and XLSX with one row per date and currency. Up to ten years in one response.",
        tags: ["rates"],
        security,
        parameters: [
          p.bankId,
          { name: "from", in: "query", required: true, description: "First date (YYYY-MM-DD).", schema: dateSchema },
          {
            name: "to",
            in: "query",
            required: false,
            description: "Last date (YYYY-MM-DD), today by default; at most ten years after from.",
            schema: dateSchema,
          },
          formatQuery,
          currenciesParameter,
          ...p.conditional,
        ],
        responses: {
          "200": {
            description: "The rates of every date in the range.",
            headers: { ...p.cacheHeaders, ...notQuotedHeader },
            content,
          },
          "304": notModified,
          ...p.bearerErrors,
          "400": p.err(
            "from missing or malformed, to before from, a range over ten years, or a bad currencies parameter.",
          ),
          "406": notAcceptable,
        },
      },
    },
    "/v1/banks": {
      get: {
        operationId: "listBanks",
        summary: "Every bank with published rates, with its first and latest stored dates",
        tags: ["banks"],
        security,
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
    "/v1/currencies": {
      get: {
        operationId: "listCurrencies",
        summary: "Every currency any bank quotes, its English name, and which banks quote it since when",
        tags: ["banks"],
        security,
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
                              properties: { bankId: { type: "string" }, since: dateSchema, latest: dateSchema },
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
