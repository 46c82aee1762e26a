// The API described in OpenAPI 3.1, served at /v1/openapi.json: assembled from the fragment beside each
// resource (src/serve/resources/<resource>/openapi.ts), in the order below, with the schemas they name.
import { bankPaths, bankSchema, banksPaths } from "./resources/banks/openapi.js";
import { conversionSchema, convertPaths } from "./resources/convert/openapi.js";
import { calendarPaths } from "./resources/calendar/openapi.js";
import { correctionsPaths } from "./resources/corrections/openapi.js";
import { currenciesPaths } from "./resources/currencies/openapi.js";
import { documentsPaths } from "./resources/documents-openapi.js";
import { eventsPaths, eventsWebhooks } from "./resources/events/openapi.js";
import { datedPaths, rangePaths } from "./resources/history/openapi.js";
import { exchangeRatesSchema, latestPaths } from "./resources/latest/openapi.js";
import { openApiParts, type OpenApiParts } from "./resources/openapi-parts.js";
import { pairPaths } from "./resources/pairs/openapi.js";
import { periodPaths } from "./resources/periods/openapi.js";
import { publicationsPaths } from "./resources/publications/openapi.js";
import { statusPaths, statusSchema } from "./resources/status/openapi.js";

/** Each resource's paths, in the document's order. A new resource adds its fragment here. */
const FRAGMENTS: Array<(p: OpenApiParts) => Record<string, unknown>> = [
  bankPaths,
  latestPaths,
  datedPaths,
  rangePaths,
  periodPaths,
  convertPaths,
  pairPaths,
  calendarPaths,
  correctionsPaths,
  banksPaths,
  currenciesPaths,
  eventsPaths,
  statusPaths,
  publicationsPaths,
  documentsPaths,
];

const problemSchema = {
  type: "object",
  required: ["type", "title", "status"],
  properties: {
    type: { type: "string" },
    title: { type: "string" },
    status: { type: "integer" },
    detail: { type: "string" },
  },
};

export function openApiDocument(options: {
  publicUrl: string;
  tokenUrl: string;
  scope: string;
}): Record<string, unknown> {
  const parts = openApiParts(options.scope);
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
    tags: [{ name: "banks" }, { name: "rates" }, { name: "status" }, { name: "publications" }],
    paths: Object.assign({}, ...FRAGMENTS.map((fragment) => fragment(parts))) as Record<string, unknown>,
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
        Problem: problemSchema,
        Bank: bankSchema,
        ExchangeRates: exchangeRatesSchema,
        Conversion: conversionSchema,
      },
    },
  };
}
