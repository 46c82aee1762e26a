// The OpenAPI description of the events: `GET /v1/events` (server-sent events) and the webhook POSTed
// for each publication (OpenAPI 3.1's top-level `webhooks`).
import type { OpenApiParts } from "../openapi-parts.js";

/** The data of a `rates.published` event: the SSE `data:` line and the webhook body's `data`. */
const ratesPublished = {
  type: "object",
  required: ["id", "bankId", "effectiveDate", "publishedAt", "currencies", "revision", "latest"],
  properties: {
    id: { type: "integer", description: "The event id (the SSE `id:`), increasing." },
    bankId: { type: "string" },
    effectiveDate: { type: "string", format: "date" },
    publishedAt: { type: "string", format: "date-time", description: "When the newest of these rates was stored." },
    currencies: {
      type: "array",
      items: { type: "string", pattern: "^[A-Z]{3}$" },
      description: "The currencies whose figure is new or changed against what was served before.",
    },
    revision: { type: "boolean", description: "True: a correction of a date already published." },
    latest: {
      type: "object",
      required: ["json", "xml", "csv", "xlsx"],
      description: "The Latest files, already serving these rates when the event is sent.",
      properties: {
        json: { type: "string", format: "uri" },
        xml: { type: "string", format: "uri" },
        csv: { type: "string", format: "uri" },
        xlsx: { type: "string", format: "uri" },
      },
    },
  },
};

/** The data of a `rates.corrected` event: figures already stored (of any date) changed by one ingest. */
const ratesCorrected = {
  type: "object",
  required: ["id", "bankId", "correctedAt", "dates", "currencies", "figures", "corrections"],
  properties: {
    id: { type: "integer", description: "The event id (the SSE `id:`), increasing." },
    bankId: { type: "string" },
    correctedAt: { type: "string", format: "date-time", description: "When the new figures were stored." },
    dates: {
      type: "array",
      items: { type: "string", format: "date" },
      description: "The effective dates whose figures changed, sorted.",
    },
    currencies: {
      type: "array",
      items: { type: "string", pattern: "^[A-Z]{3}$" },
      description: "The currencies whose figures changed, sorted.",
    },
    figures: { type: "integer", minimum: 1, description: "How many figures changed." },
    corrections: {
      type: "string",
      format: "uri",
      description:
        "The Corrections resource over the day of the correction: each figure, from what to what, with both answers' provenance.",
    },
  },
};

/** A webhook's POST of one event type, with its data schema. */
function webhookOf(type: string, summary: string, data: Record<string, unknown>): Record<string, unknown> {
  return {
    post: {
      summary,
      description:
        "Signed the Standard Webhooks way: `webhook-id` (the same on every retry of one event), `webhook-timestamp` " +
        "(seconds) and `webhook-signature` (`v1,` and base64 of HMAC-SHA256 over `id.timestamp.body` with the " +
        "webhook's secret). Delivered at least once; retried with exponential backoff for a day on timeouts, " +
        "network errors, 429 and 5xx; any 2xx is success.",
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: {
              type: "object",
              required: ["type", "timestamp", "data"],
              properties: {
                type: { type: "string", const: type },
                timestamp: { type: "string", format: "date-time" },
                data,
              },
            },
          },
        },
      },
      responses: { "200": { description: "Received (any 2xx)." } },
    },
  };
}

export function eventsPaths(p: OpenApiParts): Record<string, unknown> {
  return {
    "/v1/events": {
      get: {
        operationId: "getEvents",
        summary:
          "Server-sent events: `rates.published` per publication of a bank's rates, `rates.corrected` per correction",
        description:
          "A `text/event-stream` that stays open. Each publication is `event: rates.published`, `id: <event id>` and " +
          "`data: <JSON>` (the RatesPublished schema). A correction of figures already stored, of any date, is " +
          "`event: rates.corrected` (the data as the `rates.corrected` webhook's, linking to the Corrections resource). A comment line is sent every 15 seconds. When the token expires, " +
          "an `event: token.expired` is sent and the stream ends: reconnect with a new token and `Last-Event-ID`, and " +
          "the events missed are replayed (events are kept at least 7 days).",
        tags: ["events"],
        security: [{ oauth2: [p.scope] }],
        parameters: [
          {
            name: "banks",
            in: "query",
            required: false,
            description: "Only these banks, comma-separated (any case).",
            schema: { type: "string", pattern: "^[A-Za-z0-9]{2,10}(,[A-Za-z0-9]{2,10})*$" },
          },
          {
            name: "Last-Event-ID",
            in: "header",
            required: false,
            description: "The last event id received: the events after it are sent first.",
            schema: { type: "string", pattern: "^[0-9]+$" },
          },
        ],
        responses: {
          "200": {
            description: "The event stream.",
            content: {
              "text/event-stream": {
                schema: { type: "string" },
                example:
                  'id: 42\nevent: rates.published\ndata: {"id":42,"bankId":"CNB","effectiveDate":"2026-04-02",...}\n\n',
              },
            },
          },
          ...p.bearerErrors,
          "400": p.err("A malformed banks filter or Last-Event-ID, or a malformed Authorization header."),
          "404": p.err("No event stream is served by this process."),
          "503": p.err("The event store is not there yet."),
        },
      },
    },
  };
}

export function eventsWebhooks(): Record<string, unknown> {
  return {
    "rates.published": webhookOf(
      "rates.published",
      "A publication of a bank's rates, POSTed to each webhook (`exrates webhooks add`)",
      ratesPublished,
    ),
    "rates.corrected": webhookOf(
      "rates.corrected",
      "Figures already stored (of any date) changed by an ingest, POSTed to each webhook",
      ratesCorrected,
    ),
  };
}
