// Convert in the OpenAPI document (src/serve/openapi.ts), and the Conversion schema of its JSON.
import { MEDIA_TYPES } from "../../http/negotiate.js";
import { bankStateHeaders, dateSchema, notModified, type OpenApiParts } from "../openapi-parts.js";

const codeSchema = { type: "string", pattern: "^[A-Za-z]{3}$" };
const decimalText = { type: "string", pattern: "^\\d+(\\.\\d+)?$" };

export function convertPaths(p: OpenApiParts): Record<string, unknown> {
  return {
    "/v1/Banks/{bankId}/Convert": {
      get: {
        operationId: "convertAmount",
        summary: "An amount converted through the bank's table, exactly",
        description:
          "Through Latest without a date, else through the set in force on the date (the previous publication on a day without one). " +
          "result = amount x (figure of from, per unit) / (figure of to, per unit) in the bank's direction, with exact decimal arithmetic; " +
          "either currency may be the bank's own (figure 1). The result is rounded half away from zero to the target currency's ISO 4217 minor units; " +
          "the answer names every figure used, the formula and the unrounded result (exact, or its first 20 significant digits). " +
          "JSON, XML (the Conversion element of the published XSD) or CSV; a suffix (.json, .xml, .csv) may follow Convert.",
        tags: ["rates"],
        security: p.security,
        parameters: [
          p.bankId,
          {
            name: "from",
            in: "query",
            required: true,
            description: "ISO 4217 code of the amount.",
            schema: codeSchema,
          },
          { name: "to", in: "query", required: true, description: "ISO 4217 code of the result.", schema: codeSchema },
          {
            name: "amount",
            in: "query",
            required: true,
            description: "A plain non-negative decimal of at most 30 digits (no sign, exponent or separator).",
            schema: decimalText,
          },
          {
            name: "date",
            in: "query",
            required: false,
            description: "YYYY-MM-DD: the set in force on that date; Latest without it.",
            schema: dateSchema,
          },
          { name: "format", in: "query", required: false, schema: { type: "string", enum: ["json", "xml", "csv"] } },
          ...p.conditional,
        ],
        responses: {
          "200": {
            description: "The conversion.",
            headers: { ...p.cacheHeaders, ...bankStateHeaders },
            content: {
              [MEDIA_TYPES.json]: { schema: { $ref: "#/components/schemas/Conversion" } },
              [MEDIA_TYPES.xml]: { schema: { type: "string" } },
              [MEDIA_TYPES.csv]: { schema: { type: "string" } },
            },
          },
          "304": notModified,
          ...p.bearerErrors,
          "400": p.err("amount, from or to missing or malformed, or a malformed date or Authorization header."),
          "404": p.err(
            "Unknown bank, no set in force on the date (as a dated request), or a currency the bank did not quote in that set " +
              "(type urn:exrates:problem:currency-not-quoted, with currencies, effectiveDate and nearestDates: each currency's nearest date the bank quoted it, null if never).",
          ),
          "406": p.err("Unsupported format (JSON, XML and CSV only); the body lists the supported media types."),
        },
      },
    },
  };
}

const figureSchema = {
  type: "object",
  required: ["currency", "rate", "unit", "effectiveDate"],
  properties: {
    currency: { type: "string" },
    rate: { ...decimalText, description: "The bank's figure, as published." },
    unit: { type: "integer", description: "The units of the currency the figure is for (1, 100, 1000...)." },
    effectiveDate: dateSchema,
  },
};

export const conversionSchema = {
  type: "object",
  required: [
    "bankId",
    "baseCurrency",
    "quoteType",
    "effectiveDate",
    "amount",
    "from",
    "to",
    "result",
    "unrounded",
    "unroundedExact",
    "rounding",
    "formula",
    "figures",
  ],
  properties: {
    bankId: { type: "string" },
    baseCurrency: { type: "string" },
    quoteType: { type: "string", enum: ["Direct", "Indirect"] },
    date: { ...dateSchema, description: "The date asked for (absent for Latest)." },
    effectiveDate: { ...dateSchema, description: "The date of the set used." },
    amount: decimalText,
    from: { type: "string" },
    to: { type: "string" },
    result: { ...decimalText, description: "Rounded half away from zero to the target's ISO 4217 minor units." },
    unrounded: {
      ...decimalText,
      description:
        "The exact result, or its first 20 significant digits (truncated; the whole integer part when longer).",
    },
    unroundedExact: { type: "boolean" },
    rounding: {
      type: "object",
      required: ["rule", "decimals"],
      properties: { rule: { type: "string", const: "half away from zero" }, decimals: { type: "integer" } },
    },
    formula: { type: "string", examples: ["1250.00 x 13.141 / 100 / 24.170"] },
    figures: { type: "array", items: figureSchema, maxItems: 2 },
  },
};
