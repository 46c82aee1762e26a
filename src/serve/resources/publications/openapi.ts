// The OpenAPI description of `GET /v1/publications/jwks.json` and of the served generation's files.
import type { OpenApiParts } from "../openapi-parts.js";

export function publicationsPaths(p: OpenApiParts): Record<string, unknown> {
  return {
    "/v1/publications/jwks.json": {
      get: {
        operationId: "getPublicationJwks",
        summary: "The public keys that sign the published generations' manifests (JWKS)",
        description:
          "The JSON Web Key Set of the publication keys (RS256), as the current generation carries it beside its " +
          "manifest (`publication-jwks.json`): it verifies `manifest.json.jws` of the served tree and of any copy " +
          "of a generation signed in the last 400 days (a retired key stays that long after a rotation). No token " +
          "needed. `exrates verify --jwks` takes it; docs/API.md shows a check with `jose`.",
        tags: ["publications"],
        security: [],
        responses: {
          "200": {
            description: "The key set.",
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["keys"],
                  properties: {
                    keys: {
                      type: "array",
                      items: {
                        type: "object",
                        required: ["kty", "kid", "n", "e"],
                        properties: {
                          kty: { type: "string", const: "RSA" },
                          kid: { type: "string" },
                          alg: { type: "string", const: "RS256" },
                          use: { type: "string", const: "sig" },
                          n: { type: "string" },
                          e: { type: "string" },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
          "404": p.err("The published tree is not signed (published without publication keys)."),
          "503": p.err("No tree published yet."),
        },
      },
    },
    "/v1/publications/current/{path}": {
      get: {
        operationId: "getPublishedFile",
        summary: "The served generation, byte for byte: its manifest, signature, keys and files",
        description:
          "The generation the server answers from, exactly as published, so that it can be checked as a copy is " +
          "(`exrates verify https://host`): `manifest.json` (every file's path, size and sha256), " +
          "`manifest.json.jws` (its detached JWS, RS256, verified with `/v1/publications/jwks.json`), " +
          "`publication-jwks.json`, every listed file at its path (e.g. `v1/Banks/ECB/DailyRates/Latest.json`) and " +
          "its precompressed siblings (`<path>.br`, `<path>.gz`). Each answer is the stored bytes: no " +
          "Content-Encoding and no negotiation (a `.br` or `.gz` is served as a file of its own), from memory. " +
          "`X-Exrates-Generation` names the generation: a value that changes during a check means a publish " +
          "happened meanwhile. The generation cannot be listed here (the manifest lists what it holds).",
        tags: ["publications"],
        security: p.security,
        parameters: [
          {
            name: "path",
            in: "path",
            required: true,
            description: "A path of the generation; it may hold slashes (`v1/banks.json`, `manifest.json.jws`).",
            schema: { type: "string" },
          },
          { name: "If-None-Match", in: "header", required: false, schema: { type: "string" } },
        ],
        responses: {
          "200": {
            description: "The file's bytes as published.",
            headers: {
              ETag: {
                description: "The file's ETag (a sibling's has its encoding appended).",
                schema: { type: "string" },
              },
              "X-Exrates-Generation": { description: "The generation answered from.", schema: { type: "string" } },
            },
            content: {
              "application/octet-stream": {
                schema: { type: "string", format: "binary" },
              },
            },
          },
          "304": { description: "Not modified (If-None-Match)." },
          "401": p.err("No token, or an invalid, expired or revoked token (WWW-Authenticate: Bearer)."),
          "403": p.err('The token lacks the API scope (error="insufficient_scope").'),
          "404": p.err("The served generation holds no such file (or, for the signature, is not signed)."),
          "503": p.err("No tree published yet."),
        },
      },
    },
  };
}
