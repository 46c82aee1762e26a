// A bank's publication calendar in the OpenAPI document (src/serve/openapi.ts).
import { MEDIA_TYPES } from "../../http/negotiate.js";
import type { OpenApiParts } from "../openapi-parts.js";

const closing = {
  type: "object",
  required: ["date", "name"],
  properties: { date: { type: "string", format: "date" }, name: { type: "string" } },
};

export function calendarPaths(p: OpenApiParts): Record<string, unknown> {
  return {
    "/v1/Banks/{bankId}/Calendar": {
      get: {
        operationId: "getCalendar",
        summary: "A bank's publication calendar for a year: publication days, closings by name, observed exceptions",
        tags: ["banks"],
        security: p.security,
        parameters: [
          p.bankId,
          {
            name: "year",
            in: "query",
            required: false,
            description: "The year (default: the current one).",
            schema: { type: "integer", minimum: 1900, maximum: 2100 },
          },
        ],
        responses: {
          "200": {
            description:
              "JSON: the publication days, the working days the bank is closed (its country's public holidays and its own closings, named), and what was observed: dates published on a closing day, publication days with nothing stored. A period source's publication days follow its cadence (the days the scheduler expects it: HMRC's penultimate Thursday, the US Treasury's first working days after a quarter), given as `cadence`, and its notPublished days are those whose period is not stored. CSV: one row per such day. iCalendar (`.ics`, `?format=ics` or `Accept: text/calendar`): one all-day event per closing (and, for a period source, per publication day), to subscribe to.",
            content: {
              [MEDIA_TYPES.json]: {
                schema: {
                  type: "object",
                  required: ["bankId", "year", "publicationDays", "closings", "observed"],
                  properties: {
                    bankId: { type: "string" },
                    year: { type: "integer" },
                    timeZone: { type: "string" },
                    publicationTime: { type: "string" },
                    country: { type: ["string", "null"], description: "The country whose public holidays apply." },
                    publicationDays: { type: "array", items: { type: "string", format: "date" } },
                    cadence: {
                      type: "object",
                      description:
                        "A period source's cadence: `days` (kind weekly, nthLastInMonth with n, lastInMonth or afterQuarterEnd with count) and `covers` (the period a publication brings).",
                      properties: { days: { type: "object" }, covers: { type: "string" } },
                    },
                    closings: { type: "array", items: closing },
                    observed: {
                      type: "object",
                      properties: {
                        publishedOnClosing: { type: "array", items: closing },
                        notPublished: { type: "array", items: { type: "string", format: "date" } },
                      },
                    },
                  },
                },
              },
              [MEDIA_TYPES.csv]: { schema: { type: "string" } },
              "text/calendar": { schema: { type: "string" } },
            },
          },
          "400": p.err("The year is not a year."),
          ...p.bearerErrors,
          "404": p.err("Unknown bank."),
          "406": p.err("No format offered is acceptable."),
        },
      },
    },
  };
}
