// A pair across banks and `group=` in the OpenAPI document (src/serve/openapi.ts).
import { MEDIA_TYPES } from "../../http/negotiate.js";
import { asOfParameter, dateSchema, formatQuery, notModified, type OpenApiParts } from "../openapi-parts.js";

/** `group=`: averages of a period instead of the days of a daily range. */
export const groupParameter = {
  name: "group",
  in: "query",
  required: false,
  description:
    "week (ISO weeks), month, quarter or year: per period and currency, the arithmetic mean of the published figures per one unit " +
    "(10 significant digits, half away from zero; `exact` says whether that is the exact mean, `sum` is exact), the count of days, " +
    "first and last dates, min, max and the end-of-period figure. A period the range cuts is marked partial. Not combined with asOf.",
  schema: { type: "string", enum: ["week", "month", "quarter", "year"] },
};

const anyContent = {
  [MEDIA_TYPES.json]: { schema: { type: "object" } },
  [MEDIA_TYPES.xml]: { schema: { type: "string" } },
  [MEDIA_TYPES.csv]: { schema: { type: "string" } },
  [MEDIA_TYPES.xlsx]: { schema: { type: "string", contentMediaType: MEDIA_TYPES.xlsx } },
};

export function pairPaths(p: OpenApiParts): Record<string, unknown> {
  return {
    "/v1/Pairs/{path}": {
      get: {
        operationId: "getPair",
        summary: "One pair as every bank prices it, with the consensus",
        description:
          "path is {BASE}/{QUOTE}/Latest, {BASE}/{QUOTE}/{date} (the set in force on the date) or {BASE}/{QUOTE} with from (a range), " +
          "each optionally followed by .json, .xml, .csv or .xlsx. Per bank: the figure as QUOTE per one BASE, its effective date and " +
          "when it was stored, and how it was made: direct (as published, a per-100 figure shifted exactly), inverse or cross " +
          "(through the bank's own currency, with both figures; derived figures keep 10 significant digits, half away from zero). " +
          "The consensus: the median of the figures of the newest date at least two banks share, min, max, (max - min) / median, " +
          "and the banks beyond the cross-bank check's band (EXRATES_CHECK_BAND, 25% by default) with the reason. " +
          "A range gives every date with a figure; with group= it gives each bank's averages of the pair per period.",
        tags: ["rates"],
        security: p.security,
        parameters: [
          {
            name: "path",
            in: "path",
            required: true,
            description: "USD/JPY/Latest, USD/JPY/2026-03-02, or USD/JPY (with from).",
            schema: { type: "string" },
          },
          {
            name: "banks",
            in: "query",
            required: false,
            description: "Comma-separated bank ids; every bank with stored rates by default.",
            schema: { type: "string" },
          },
          { name: "from", in: "query", required: false, description: "A range's first date.", schema: dateSchema },
          { name: "to", in: "query", required: false, description: "A range's last date.", schema: dateSchema },
          groupParameter,
          asOfParameter,
          formatQuery,
          ...p.conditional,
        ],
        responses: {
          "200": { description: "The pair across banks.", headers: p.cacheHeaders, content: anyContent },
          "304": notModified,
          ...p.bearerErrors,
          "400": p.err(
            "A malformed currency code or date, one currency twice, from/to/group on Latest or a date, asOf on a range, a bad group.",
          ),
          "406": p.err("Unsupported format; the body lists the supported media types."),
        },
      },
    },
  };
}
