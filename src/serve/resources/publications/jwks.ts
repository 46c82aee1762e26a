// `GET /v1/publications/jwks.json`, without a token: the public keys that sign the published
// generations' manifests (src/publish/signing.ts), as the current generation carries them beside its
// manifest (publication-jwks.json). The served key set is therefore always one that verifies the
// served tree; a retired key stays in it 400 days after its rotation, so a copy signed just before a
// rotation still verifies. The server never reads the private keys.
import type { Handler } from "../../context.js";
import { sendJsonDocument } from "../../http/dynamic.js";
import { sendProblem } from "../../http/respond.js";

export const publicationJwks: Handler = (ctx, req, res, head) => {
  const tree = ctx.tree();
  if (!tree?.publicationJwks)
    return sendProblem(res, tree ? 404 : 503, {
      detail: tree ? "The published tree is not signed (no publication keys)" : "No rates published yet",
      ...(tree ? {} : { headers: { "retry-after": "5" } }),
      head,
    });
  return sendJsonDocument(req, res, head, tree.publicationJwks, "");
};
