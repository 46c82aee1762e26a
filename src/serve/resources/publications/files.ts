// `GET /v1/publications/current/<path>`: the served generation as published, byte for byte, so that
// a reader can check it as it would check a copy (`exrates verify https://host`): `manifest.json`,
// its detached signature `manifest.json.jws`, the public keys `publication-jwks.json`, and every
// file the manifest lists, as is (`<path>`) and as its precompressed siblings (`<path>.br`,
// `<path>.gz`). Every answer is the stored bytes with no Content-Encoding (a sibling is a file of its
// own here, not an encoding to undo), out of the tree in memory: nothing is read from disk. Each
// names its generation (X-Exrates-Generation), so a reader can tell a publish happened mid-check.
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

import { JWKS_FILE, SIGNATURE_FILE } from "../../../publish/signature-names.js";
import type { Handler } from "../../context.js";
import { sendProblem } from "../../http/respond.js";
import type { LoadedTree, Representation } from "../../state/tree.js";

interface Served {
  body: Buffer;
  contentType: string;
  etag: string;
  lastModifiedSeconds?: number;
}

const SIBLINGS = [
  { suffix: ".br", encoding: "br", contentType: "application/octet-stream" },
  { suffix: ".gz", encoding: "gzip", contentType: "application/gzip" },
] as const;

/** The ETags of the files beside the manifest, by their bytes (kept per generation). */
const besideEtags = new WeakMap<Buffer, string>();
const etagOf = (body: Buffer): string => {
  let etag = besideEtags.get(body);
  if (!etag) besideEtags.set(body, (etag = `"${createHash("sha256").update(body).digest("hex").slice(0, 32)}"`));
  return etag;
};

const beside = (body: Buffer | undefined, contentType: string): Served | undefined =>
  body ? { body, contentType, etag: etagOf(body) } : undefined;

/** What a path of the generation names: a listed file, one of its siblings, or a file beside the manifest. */
function lookup(tree: LoadedTree, path: string): Served | undefined {
  const publication = tree.publication!;
  if (path === "manifest.json") return beside(publication.manifest, "application/json");
  if (path === SIGNATURE_FILE) return beside(publication.signature, "application/jose");
  if (path === JWKS_FILE) return beside(tree.publicationJwks, "application/json");
  const listed = publication.files.get(path);
  if (listed) return served(listed, "identity", String(listed.identity.headers["content-type"]));
  for (const sibling of SIBLINGS) {
    if (!path.endsWith(sibling.suffix)) continue;
    const of = publication.files.get(path.slice(0, -sibling.suffix.length));
    if (of?.[sibling.encoding]) return served(of, sibling.encoding, sibling.contentType);
  }
  return undefined;
}

function served(rep: Representation, encoding: "identity" | "br" | "gzip", contentType: string): Served {
  const variant = rep[encoding]!;
  return { body: variant.body, contentType, etag: variant.etag, lastModifiedSeconds: rep.lastModifiedSeconds };
}

function send(req: IncomingMessage, res: ServerResponse, head: boolean, file: Served, generation: string): void {
  const headers: Record<string, string | number> = {
    etag: file.etag,
    "cache-control": "private, no-cache",
    "x-exrates-generation": generation,
    ...(file.lastModifiedSeconds !== undefined
      ? { "last-modified": new Date(file.lastModifiedSeconds * 1000).toUTCString() }
      : {}),
  };
  const inm = req.headers["if-none-match"];
  if (inm?.split(",").some((tag) => tag.trim().replace(/^W\//, "") === file.etag)) {
    res.writeHead(304, headers);
    return void res.end();
  }
  res.writeHead(200, {
    ...headers,
    "content-type": file.contentType,
    "content-length": file.body.length,
    "x-content-type-options": "nosniff",
  });
  res.end(head ? undefined : file.body);
}

export const publicationFile: Handler = (ctx, req, res, head, route) => {
  const tree = ctx.tree();
  if (!tree) return sendProblem(res, 503, { detail: "No rates published yet", headers: { "retry-after": "5" }, head });
  const path = (route.rest ?? []).join("/");
  const file = tree.publication ? lookup(tree, path) : undefined;
  if (!file)
    return sendProblem(res, 404, {
      detail: `The served generation ${tree.generation} has no file ${JSON.stringify(path)}`,
      head,
    });
  send(req, res, head, file, tree.generation);
};
