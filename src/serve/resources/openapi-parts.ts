// The vocabulary the resources' OpenAPI fragments share (src/serve/openapi.ts assembles the document
// from them): the bank id parameter, conditional requests, cache headers, the bearer errors, the
// `currencies` filter, the four formats' content.
import { MEDIA_TYPES } from "../http/negotiate.js";

export interface OpenApiParts {
  /** The scope a token needs, and the security requirement naming it. */
  scope: string;
  security: Array<Record<string, string[]>>;
  bankId: Record<string, unknown>;
  conditional: Array<Record<string, unknown>>;
  cacheHeaders: Record<string, unknown>;
  /** The answers of the bearer check (400, 401, 403), an unknown bank's 404, and 405. */
  bearerErrors: Record<string, unknown>;
  /** A problem+json response with this description. */
  err: (description: string) => Record<string, unknown>;
}

export function openApiParts(scope: string): OpenApiParts {
  const problem = { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } };
  const err = (description: string) => ({ description, content: problem });
  return {
    scope,
    security: [{ oauth2: [scope] }],
    bankId: {
      name: "bankId",
      in: "path",
      required: true,
      description: "Bank identifier (2 to 10 letters or digits, any case).",
      schema: { type: "string", pattern: "^[A-Za-z0-9]{2,10}$" },
    },
    conditional: [
      { name: "If-None-Match", in: "header", required: false, schema: { type: "string" } },
      { name: "If-Modified-Since", in: "header", required: false, schema: { type: "string" } },
    ],
    cacheHeaders: {
      ETag: { description: "Strong validator of the representation.", schema: { type: "string" } },
      "Last-Modified": {
        description: "When the data behind the representation last changed.",
        schema: { type: "string" },
      },
      Vary: { schema: { type: "string", const: "Accept, Accept-Encoding" } },
      "Cache-Control": { schema: { type: "string", const: "private" } },
    },
    bearerErrors: {
      "400": err(
        'Malformed Authorization header (WWW-Authenticate: Bearer error="invalid_request"), or a URL suffix and format parameter naming different formats.',
      ),
      "401": err("No token, or an invalid, expired or revoked token (WWW-Authenticate: Bearer)."),
      "403": err('The token lacks the API scope (error="insufficient_scope").'),
      "404": err(
        "Unknown bank (type urn:exrates:problem:unknown-bank), or a known bank with no rates published yet (type urn:exrates:problem:no-rates-yet; the rates endpoints only: the Bank resource answers for every known bank).",
      ),
      "405": err("Method other than GET or HEAD (see the Allow header)."),
    },
    err,
  };
}

export const asOfParameter = {
  name: "asOf",
  in: "query",
  required: false,
  description:
    "An RFC 3339 instant (2026-03-03T15:00:00Z): the answer as the service would have given it then: each figure as stored at that instant (before any later correction), dates stored later left out, Latest being the newest date stored by then. Named in the document (asOf, JSON and XML) and in X-As-Of. An instant in the future is 400; one before the bank's first stored figure 404 (dataSince). An answer for an instant more than ten minutes past is final: its ETag never changes.",
  schema: { type: "string", format: "date-time" },
};

export const provenanceParameter = {
  name: "provenance",
  in: "query",
  required: false,
  description:
    "true: each date names where its figures came from, each source with its `kind`: a bank's answer (`fetch`: the URL asked, secrets masked, and when it was fetched) or a file an operator imported (`import`: its base name, who imported it, when, and `declaredUrl`, the URL the importer declared, never fetched), and the sha256 of its bytes (JSON: a `provenance` array in the date's object; XML: `Source` elements after the date's `Rate`s; with `currencies` when the date's figures came from more than one source). JSON and XML only (400 for CSV and XLSX); answered from the store, as known now or at `asOf`; not with `base`.",
  schema: { type: "string", enum: ["true", "false"] },
};

export const currenciesParameter = {
  name: "currencies",
  in: "query",
  required: false,
  description:
    "Comma-separated ISO 4217 or market codes (any case): only these currencies' rates. Any other code is 400; a code the bank did not quote in the response is left out and named in X-Currencies-Not-Quoted.",
  schema: { type: "string", pattern: "^[A-Za-z]{3}(,[A-Za-z]{3})*$" },
};

export const baseParameter = {
  name: "base",
  in: "query",
  required: false,
  description:
    "An ISO 4217 code the bank quotes: the table re-expressed against it through the bank's own figures (each rate = the currency's figure / the base's figure, units applied, " +
    "to 10 significant digits, half away from zero; the bank's own currency becomes a row and the base leaves). The document is marked derived: derivedFrom in JSON, " +
    "derivedFromBaseCurrency and derivedFromQuoteType attributes in XML, a Derived column in CSV and XLSX. A base the bank did not quote that day is 404 " +
    "(urn:exrates:problem:currency-not-quoted, naming the nearest date it did); in a range, such a day has no rates. The bank's own base currency gives the official document.",
  schema: { type: "string", pattern: "^[A-Za-z]{3}$" },
};

export const notQuotedHeader = {
  "X-Currencies-Not-Quoted": {
    description: "The requested currencies (comma-separated) of which the response holds no rate.",
    schema: { type: "string" },
  },
};

/** Latest's and a dateless Convert's notice of a bank not up to date (src/serve/state/bank-notices.ts). */
export const bankStateHeaders = {
  "X-Bank-State": {
    description:
      "Sent only when the bank is not up to date: late, failing or stale (as in /v1/status). The body and ETag stay the published ones.",
    schema: { type: "string", enum: ["late", "failing", "stale"] },
  },
  "X-Bank-Expected-Date": {
    description: "With X-Bank-State: the publication the bank's calendar says should be stored by now.",
    schema: { type: "string", format: "date" },
  },
};

export const rateWarningsHeader = {
  "X-Rate-Warnings": {
    description:
      "How many figures of the response were published with a warning (the cross-bank check doubted them without holding them); each is flagged in the body. Absent when none was.",
    schema: { type: "integer", minimum: 1 },
  },
};

export const dateSchema = { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}$" };

export const formatQuery = {
  name: "format",
  in: "query",
  required: false,
  schema: { type: "string", enum: ["json", "xml", "csv", "xlsx"] },
};

/** A rates document in the four formats. */
export const ratesContent = {
  [MEDIA_TYPES.json]: { schema: { $ref: "#/components/schemas/ExchangeRates" } },
  [MEDIA_TYPES.xml]: { schema: { type: "string" } },
  [MEDIA_TYPES.csv]: { schema: { type: "string" } },
  [MEDIA_TYPES.xlsx]: { schema: { type: "string", contentMediaType: MEDIA_TYPES.xlsx } },
};

export const notModified = { description: "Not modified (If-None-Match or If-Modified-Since)." };
