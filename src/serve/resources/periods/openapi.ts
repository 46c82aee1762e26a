// A period source's rates in the OpenAPI document (src/serve/openapi.ts): Latest, a date and a range
// under the path of each period frequency.
import {
  bankStateHeaders,
  asOfParameter,
  currenciesParameter,
  dateSchema,
  formatQuery,
  notModified,
  notQuotedHeader,
  ratesContent,
  type OpenApiParts,
} from "../openapi-parts.js";

const FREQUENCIES = ["Weekly", "Monthly", "Quarterly"] as const;

const VALIDITY =
  "Each rate carries validFrom and validTo, the first and last day it is in force (JSON members, XML attributes, " +
  "two columns Valid From and Valid To after Unit in CSV and XLSX). A bank publishing at another frequency " +
  "(DailyRates, QuarterlyRates...) answers 404 naming the path of its own.";

export function periodPaths(p: OpenApiParts): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const f of FREQUENCIES) {
    const common = { tags: ["rates"], security: p.security };
    const errors = {
      "304": notModified,
      ...p.bearerErrors,
      "406": p.err("Unsupported format; the body lists the supported media types."),
    };
    paths[`/v1/Banks/{bankId}/${f}Rates/Latest`] = {
      get: {
        ...common,
        operationId: `getLatest${f}Rates`,
        summary: `The newest ${f.toLowerCase()} rates of a period source`,
        description: `The set in force on the source's newest effective date. ${VALIDITY}`,
        parameters: [p.bankId, formatQuery, currenciesParameter, asOfParameter, ...p.conditional],
        responses: {
          "200": {
            description: "The newest set.",
            headers: { ...p.cacheHeaders, ...bankStateHeaders },
            content: ratesContent,
          },
          ...errors,
          "404": p.err("Unknown bank, nothing published yet, or a bank publishing at another frequency."),
        },
      },
    };
    paths[`/v1/Banks/{bankId}/${f}Rates/{date}`] = {
      get: {
        ...common,
        operationId: `get${f}RatesOnDate`,
        summary: `The ${f.toLowerCase()} rates in force on a date`,
        description: `One figure per currency: the newest starting on or before the date and valid on it (an amendment replaces the figure it amends from its own start). The document is keyed by the newest validFrom among them. ${VALIDITY}`,
        parameters: [
          p.bankId,
          { name: "date", in: "path", required: true, description: "YYYY-MM-DD", schema: dateSchema },
          formatQuery,
          currenciesParameter,
          asOfParameter,
          ...p.conditional,
        ],
        responses: {
          "200": {
            description: "The figures in force.",
            headers: { ...p.cacheHeaders, ...notQuotedHeader },
            content: ratesContent,
          },
          ...errors,
          "400": p.err("A malformed date or currencies parameter."),
          "404": p.err("Unknown bank, no figure in force on that date, or a bank publishing at another frequency."),
        },
      },
    };
    paths[`/v1/Banks/{bankId}/${f}Rates`] = {
      get: {
        ...common,
        operationId: `get${f}RatesInRange`,
        summary: `The ${f.toLowerCase()} sets in force over a range`,
        description: `The set in force on from, then one set for each later day on which a figure starts, oldest first. ${VALIDITY}`,
        parameters: [
          p.bankId,
          { name: "from", in: "query", required: true, description: "First date (YYYY-MM-DD).", schema: dateSchema },
          {
            name: "to",
            in: "query",
            required: false,
            description: "Last date (YYYY-MM-DD), today by default.",
            schema: dateSchema,
          },
          formatQuery,
          currenciesParameter,
          asOfParameter,
          ...p.conditional,
        ],
        responses: {
          "200": {
            description: "The sets in the range.",
            headers: { ...p.cacheHeaders, ...notQuotedHeader },
            content: ratesContent,
          },
          ...errors,
          "400": p.err(
            "from missing or malformed, to before from, a range over ten years, or a bad currencies parameter.",
          ),
          "404": p.err("Unknown bank, or a bank publishing at another frequency."),
        },
      },
    };
  }
  return paths;
}
