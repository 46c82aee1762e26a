// The API described in OpenAPI 3.1, served at /v1/openapi.json.
import { MEDIA_TYPES } from "./http/negotiate.js";
import { eventsPaths, eventsWebhooks } from "./resources/events/openapi.js";
import { currenciesParameter, historyPaths, notQuotedHeader } from "./resources/history/openapi.js";
import { statusPaths, statusSchema } from "./resources/status/openapi.js";

export function openApiDocument(options: {
  publicUrl: string;
  tokenUrl: string;
  scope: string;
}): Record<string, unknown> {
  const problem = { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } };
  const err = (description: string) => ({ description, content: problem });
  const bearerErrors = {
    "400": err(
      'Malformed Authorization header (WWW-Authenticate: Bearer error="invalid_request"), or a URL suffix and format parameter naming different formats.',
    ),
    "401": err("No token, or an invalid, expired or revoked token (WWW-Authenticate: Bearer)."),
    "403": err('The token lacks the API scope (error="insufficient_scope").'),
    "404": err(
      "Unknown bank (type urn:exrates:problem:unknown-bank), or a known bank with no rates published yet (type urn:exrates:problem:no-rates-yet; the rates endpoints only: the Bank resource answers for every known bank).",
    ),
    "405": err("Method other than GET or HEAD (see the Allow header)."),
  };
  const cacheHeaders = {
    ETag: { description: "Strong validator of the representation.", schema: { type: "string" } },
    "Last-Modified": {
      description: "When the data behind the representation last changed.",
      schema: { type: "string" },
    },
    Vary: { schema: { type: "string", const: "Accept, Accept-Encoding" } },
    "Cache-Control": { schema: { type: "string", const: "private" } },
  };
  const conditional = [
    { name: "If-None-Match", in: "header", required: false, schema: { type: "string" } },
    { name: "If-Modified-Since", in: "header", required: false, schema: { type: "string" } },
  ];
  const bankId = {
    name: "bankId",
    in: "path",
    required: true,
    description: "Bank identifier (2 to 10 letters or digits, any case).",
    schema: { type: "string", pattern: "^[A-Za-z0-9]{2,10}$" },
  };
  const rates = (suffixed: boolean) => ({
    get: {
      operationId: suffixed ? "getLatestRatesWithSuffix" : "getLatestRates",
      summary: suffixed
        ? "Latest daily rates of a bank, format chosen by the URL suffix"
        : "Latest daily rates of a bank",
      description:
        "Format precedence: URL suffix, then the format query parameter, then Accept (q-values and wildcards), then JSON. " +
        "A suffix and a format parameter naming different formats give 400; an unknown format or an Accept admitting none of the four types gives 406.",
      tags: ["rates"],
      security: [{ oauth2: [options.scope] }],
      parameters: [
        bankId,
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
        {
          name: "format",
          in: "query",
          required: false,
          schema: { type: "string", enum: ["json", "xml", "csv", "xlsx"] },
        },
        currenciesParameter,
        ...conditional,
      ],
      responses: {
        "200": {
          description:
            'The bank\'s latest rates. CSV and XLSX come with Content-Disposition: attachment; filename="<ID>-<date>.<ext>".',
          headers: { ...cacheHeaders, ...notQuotedHeader },
          content: {
            [MEDIA_TYPES.json]: { schema: { $ref: "#/components/schemas/ExchangeRates" } },
            [MEDIA_TYPES.xml]: { schema: { type: "string" } },
            [MEDIA_TYPES.csv]: { schema: { type: "string" } },
            [MEDIA_TYPES.xlsx]: { schema: { type: "string", contentMediaType: MEDIA_TYPES.xlsx } },
          },
        },
        "304": { description: "Not modified (If-None-Match or If-Modified-Since)." },
        ...bearerErrors,
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
  });
  return {
    openapi: "3.1.0",
    info: {
      title: "exrates: official daily exchange rates of central banks",
      version: "1.0.0",
      description:
        "Every endpoint needs a bearer token from the client credentials grant of the realm's token endpoint.",
    },
    servers: [{ url: options.publicUrl }],
    security: [{ oauth2: [options.scope] }],
    tags: [{ name: "banks" }, { name: "rates" }, { name: "status" }],
    paths: {
      "/v1/banks/{bankId}": {
        get: {
          operationId: "getBank",
          summary: "A bank's descriptive data",
          tags: ["banks"],
          parameters: [bankId, ...conditional],
          responses: {
            "200": {
              description:
                "The Bank resource, for every known bank, published or not; under `exrates start` it adds `status`, the bank's row of /v1/status.",
              headers: cacheHeaders,
              content: { [MEDIA_TYPES.json]: { schema: { $ref: "#/components/schemas/Bank" } } },
            },
            "304": { description: "Not modified." },
            ...bearerErrors,
            "406": err("Accept admits no JSON."),
          },
        },
      },
      "/v1/Banks/{bankId}/DailyRates/Latest": rates(false),
      "/v1/Banks/{bankId}/DailyRates/Latest.{format}": rates(true),
      ...historyPaths({ bankId, conditional, cacheHeaders, bearerErrors, err, scope: options.scope }),
      ...eventsPaths({ bearerErrors, err, scope: options.scope }),
      ...statusPaths({ bearerErrors, err, scope: options.scope }),
    },
    webhooks: eventsWebhooks(),
    components: {
      securitySchemes: {
        oauth2: {
          type: "oauth2",
          description: "Client credentials grant; client_secret_post or client_secret_basic. Tokens live 300 seconds.",
          flows: {
            clientCredentials: { tokenUrl: options.tokenUrl, scopes: { [options.scope]: "Read banks and rates" } },
          },
        },
      },
      schemas: {
        Status: statusSchema,
        Problem: {
          type: "object",
          required: ["type", "title", "status"],
          properties: {
            type: { type: "string" },
            title: { type: "string" },
            status: { type: "integer" },
            detail: { type: "string" },
          },
        },
        Bank: {
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
            website: { type: "string", format: "uri" },
          },
        },
        ExchangeRates: {
          type: "object",
          required: ["bankId", "baseCurrency", "quoteType", "rates"],
          properties: {
            bankId: { type: "string" },
            baseCurrency: { type: "string" },
            quoteType: { type: "string", enum: ["Direct", "Indirect"] },
            rates: {
              type: "object",
              description: "Effective date (YYYY-MM-DD) to a map of currency code to rate entry.",
              additionalProperties: {
                type: "object",
                additionalProperties: {
                  type: "object",
                  required: ["rate"],
                  properties: { rate: { type: "number" }, unitMultiplier: { type: "integer" } },
                },
              },
            },
          },
        },
      },
    },
  };
}
