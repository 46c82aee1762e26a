// The OpenAPI description of `GET /v1/publications/jwks.json`.
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
  };
}
