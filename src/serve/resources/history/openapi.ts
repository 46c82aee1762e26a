// A date and a range in the OpenAPI document (src/serve/openapi.ts).
import {
  baseParameter,
  asOfParameter,
  provenanceParameter,
  currenciesParameter,
  dateSchema,
  formatQuery,
  notModified,
  notQuotedHeader,
  rateWarningsHeader,
  ratesContent,
  type OpenApiParts,
} from "../openapi-parts.js";
import { groupParameter } from "../pairs/openapi.js";

export function datedPaths(p: OpenApiParts): Record<string, unknown> {
  const notInForce = {
    description:
      "Unknown bank, or no set in force on that date (before the first stored date, in the future, or further from the previous set than the bank's normal gap: its publication weekdays plus four days of holidays). The problem names the stored dates and, past the gap, the publication days with no set.",
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
        security: p.security,
        parameters: [
          p.bankId,
          { name: "date", in: "path", required: true, description: "YYYY-MM-DD", schema: dateSchema },
          formatQuery,
          currenciesParameter,
          baseParameter,
          asOfParameter,
          provenanceParameter,
          ...p.conditional,
        ],
        responses: {
          "200": {
            description: "The set in force.",
            headers: {
              ...p.cacheHeaders,
              ...notQuotedHeader,
              ...rateWarningsHeader,
              "Content-Location": { description: "The URL of the actual effective date.", schema: { type: "string" } },
            },
            content: ratesContent,
          },
          "304": notModified,
          ...p.bearerErrors,
          "400": p.err("A malformed date or currencies parameter, or a malformed Authorization header."),
          "404": notInForce,
          "406": p.err("Unsupported format; the body lists the supported media types."),
        },
      },
    },
  };
}

export function rangePaths(p: OpenApiParts): Record<string, unknown> {
  return {
    "/v1/Banks/{bankId}/DailyRates": {
      get: {
        operationId: "getRatesInRange",
        summary: "Every effective date of a bank in a range",
        description:
          "Oldest first: JSON with one key per date in rates, XML with one Rates element per date, CSV and XLSX with one row per date and currency. Up to ten years in one response.",
        tags: ["rates"],
        security: p.security,
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
          baseParameter,
          asOfParameter,
          provenanceParameter,
          groupParameter,
          ...p.conditional,
        ],
        responses: {
          "200": {
            description: "The rates of every date in the range (with group=, averages of each period).",
            headers: { ...p.cacheHeaders, ...notQuotedHeader, ...rateWarningsHeader },
            content: ratesContent,
          },
          "304": notModified,
          ...p.bearerErrors,
          "400": p.err(
            "from missing or malformed, to before from, a range over ten years, or a bad currencies parameter.",
          ),
          "406": p.err("Unsupported format; the body lists the supported media types."),
        },
      },
    },
  };
}
