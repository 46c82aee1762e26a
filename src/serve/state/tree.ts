// The published tree, held in memory. `out/current` (or the bucket's pointer object, see
// src/serve/state/tree-s3.ts) names a complete, immutable generation; the server loads every file it
// serves (and the precompressed siblings) from that generation, checks each against the manifest's
// size and sha256, and swaps the whole tree in one assignment. A
// request therefore sees one generation, never a mix, and no file is read by path at request time:
// a path in a URL is only ever a key into this map.
import { readFile, readlink } from "node:fs/promises";
import { createHash } from "node:crypto";
import { join } from "node:path";

import { isIsoDate } from "../../feed/dates.js";
import { sourceIdFor } from "../../feed/sources.js";
import { JWKS_FILE, SIGNATURE_FILE } from "../../publish/signature-names.js";
import type { Manifest, ManifestFile } from "../../publish/tree.js";
import { rateWarningsHeader } from "../http/rate-warnings.js";
import { VARY, type Encoding, type Format } from "../http/negotiate.js";
import { precomputedHead, type PrecomputedHead } from "../http/precomputed.js";
import type { Frequency } from "../../types.js";

export interface Variant {
  body: Buffer;
  /** Response headers of a 200 with this encoding (content-length included). */
  headers: Record<string, string | number>;
  /** Those headers and the status line as node:http writes them, built once. */
  head: PrecomputedHead;
  etag: string;
  /** The 304 answered to a request that would get this encoding (its own ETag). */
  notModifiedHead: PrecomputedHead;
}

/** One published file with its encodings and precomputed headers. */
export interface Representation {
  path: string;
  etag: string;
  /** Every ETag the representation is known by (one per encoding), for If-None-Match. */
  etags: Set<string>;
  lastModifiedSeconds: number;
  identity: Variant;
  gzip?: Variant;
  br?: Variant;
  /** Headers of a 304 (no content headers). */
  notModified: Record<string, string>;
}

export interface BankEntry {
  id: string;
  bank?: Representation;
  latest: Partial<Record<Format, Representation>>;
  effectiveDate?: string;
  /** The frequency the bank's Latest is published under (`{Frequency}Rates/Latest`). */
  frequency?: Frequency;
}

export interface LoadedTree {
  generation: string;
  target: string;
  banks: Map<string, BankEntry>;
  banksList?: Representation;
  xsd?: Representation;
  /** The publication keys' JWKS beside the manifest (publication-jwks.json), when the generation is signed. */
  publicationJwks?: Buffer;
  /** The generation byte for byte, for `/v1/publications/current/...` (src/serve/resources/publications/). */
  publication?: Publication;
  files: number;
}

/** A generation as published: its manifest's bytes, their detached signature, every file it lists. */
export interface Publication {
  manifest: Buffer;
  /** manifest.json.jws, when the generation is signed. */
  signature?: Buffer;
  /** Every listed file by its path in the generation (its precompressed siblings are its encodings). */
  files: Map<string, Representation>;
}

const BANK_ID = "([A-Z0-9]{2,10})";
const PATTERNS = {
  banksList: /^v1\/banks\.json$/,
  bank: new RegExp(`^v1/banks/${BANK_ID}\\.json$`),
  latest: new RegExp(`^v1/Banks/${BANK_ID}/(Daily|Weekly|Monthly|Quarterly)Rates/Latest\\.(json|xml|csv|xlsx)$`),
  xsd: /^v1\/schemas\/exchange-rates-1\.0\.xsd$/,
};

function encodedEtag(etag: string, encoding: "gzip" | "br"): string {
  // A strong ETag names one sequence of bytes: the compressed variants get their own.
  return etag.endsWith('"') ? `${etag.slice(0, -1)}-${encoding}"` : `${etag}-${encoding}`;
}

/** Where the tree's files come from: one file of the generation being loaded, or a sibling of it. */
export type ReadFile = (path: string, file: ManifestFile, encoding?: "br" | "gzip") => Promise<Buffer>;

/** Where the server finds the current generation and loads it: out/ (below) or a bucket (src/serve/state/tree-s3.ts). */
export interface TreeSource {
  /** What to name in log lines. */
  readonly description: string;
  /** Names the current generation (a new name: a new tree to load); undefined before the first publish. */
  currentTarget(): Promise<string | undefined>;
  load(target: string): Promise<LoadedTree>;
  /** Fails with a clear error when the source cannot be used at all (a missing bucket). */
  check?(): Promise<void>;
}

async function loadRepresentation(
  read: ReadFile,
  path: string,
  file: ManifestFile,
  disposition: string | undefined,
  extra: Record<string, string> = {},
): Promise<Representation> {
  const body = await read(path, file);
  if (body.length !== file.bytes) throw new Error(`${path}: ${body.length} bytes, the manifest says ${file.bytes}`);
  const sha = createHash("sha256").update(body).digest("hex");
  if (sha !== file.sha256) throw new Error(`${path}: sha256 differs from the manifest`);
  const lastModifiedMs = Date.parse(file.lastModified);
  if (!Number.isFinite(lastModifiedMs)) throw new Error(`${path}: bad lastModified in the manifest`);
  const lastModifiedSeconds = Math.floor(lastModifiedMs / 1000);
  const lastModified = new Date(lastModifiedSeconds * 1000).toUTCString();
  const common: Record<string, string> = { "last-modified": lastModified, vary: VARY, "cache-control": "private" };
  const notModified = { etag: file.etag, ...common };
  const variant = (data: Buffer, etag: string, encoding?: Exclude<Encoding, "identity">): Variant => {
    const headers = {
      "content-type": file.contentType,
      "content-length": data.length,
      etag,
      ...common,
      ...(encoding ? { "content-encoding": encoding } : {}),
      ...(disposition ? { "content-disposition": disposition } : {}),
      ...extra,
      "x-content-type-options": "nosniff",
    };
    return {
      body: data,
      etag,
      headers,
      head: precomputedHead(200, headers),
      notModifiedHead: precomputedHead(304, { ...notModified, etag }),
    };
  };
  const rep: Representation = {
    path,
    etag: file.etag,
    etags: new Set([file.etag]),
    lastModifiedSeconds,
    identity: variant(body, file.etag),
    notModified,
  };
  for (const encoding of file.encodings ?? []) {
    const data = await read(path, file, encoding);
    const etag = encodedEtag(file.etag, encoding);
    rep[encoding] = variant(data, etag, encoding);
    rep.etags.add(etag);
  }
  return rep;
}

/** The target of `out/current`, or undefined before the first publish. */
export async function currentTarget(outDir: string): Promise<string | undefined> {
  try {
    return await readlink(join(outDir, "current"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Loads the generation `target` (relative to outDir, as `out/current` names it) into memory. */
export async function loadTree(outDir: string, target: string): Promise<LoadedTree> {
  const dir = join(outDir, target);
  const manifestBytes = await readFile(join(dir, "manifest.json"));
  const manifest = JSON.parse(manifestBytes.toString("utf8")) as Manifest;
  if (typeof manifest !== "object" || manifest === null || typeof manifest.files !== "object")
    throw new Error(`${dir}/manifest.json lists no files`);
  const suffix = { br: ".br", gzip: ".gz" } as const;
  const signature = await readFile(join(dir, SIGNATURE_FILE)).catch(() => undefined);
  const tree = await buildTree(
    manifest,
    target,
    (path, _file, encoding) => readFile(join(dir, encoding ? path + suffix[encoding] : path)),
    { manifest: manifestBytes, signature },
  );
  const jwks = await readFile(join(dir, JWKS_FILE)).catch(() => undefined);
  return jwks ? { ...tree, publicationJwks: jwks } : tree;
}

/** The out/ directory's `current` link and generations. */
export function localTreeSource(outDir: string): TreeSource {
  return {
    description: outDir,
    currentTarget: () => currentTarget(outDir),
    load: (target) => loadTree(outDir, target),
  };
}

/**
 * A generation in memory from its manifest and its files as `read` gives them; with the manifest's
 * bytes (and signature), every listed file is also kept by its path, as published.
 */
export async function buildTree(
  manifest: Manifest,
  target: string,
  read: ReadFile,
  published?: Omit<Publication, "files">,
): Promise<LoadedTree> {
  const tree: LoadedTree = { generation: String(manifest.generation), target, banks: new Map(), files: 0 };
  const files = new Map<string, Representation>();
  if (published) tree.publication = { ...published, files };
  const bankEntry = (id: string): BankEntry => {
    let entry = tree.banks.get(id);
    if (!entry) tree.banks.set(id, (entry = { id, latest: {}, effectiveDate: manifest.banks?.[id]?.effectiveDate }));
    return entry;
  };
  for (const [path, file] of Object.entries(manifest.files)) {
    let m: RegExpExecArray | null;
    let rep: Representation;
    if (PATTERNS.banksList.test(path)) {
      rep = tree.banksList = await loadRepresentation(read, path, file, undefined);
    } else if (PATTERNS.xsd.test(path)) {
      rep = tree.xsd = await loadRepresentation(read, path, file, undefined);
    } else if ((m = PATTERNS.bank.exec(path))) {
      rep = bankEntry(m[1]!).bank = await loadRepresentation(read, path, file, undefined);
    } else if ((m = PATTERNS.latest.exec(path))) {
      // NBP's WeeklyRates are its weekly source's (src/feed/sources.ts): the entry is keyed by the source.
      const shown = m[1]!;
      const id = sourceIdFor(shown, m[2] as Frequency);
      const format = m[3] as Format;
      const entry = bankEntry(id);
      entry.frequency = m[2] as Frequency;
      const date = entry.effectiveDate;
      const disposition =
        format === "csv" || format === "xlsx"
          ? `attachment; filename="${shown}${date && isIsoDate(date) ? `-${date}` : ""}.${format}"`
          : undefined;
      // Latest figures published with a warning: how many, on every format (absent for none).
      const extra = rateWarningsHeader(Number(manifest.banks?.[id]?.warnings ?? 0));
      rep = entry.latest[format] = await loadRepresentation(read, path, file, disposition, extra);
    } else {
      // Not served by the API's routes; kept (checked the same way) when the generation is served whole.
      if (published) files.set(path, await loadRepresentation(read, path, file, undefined));
      continue;
    }
    files.set(path, rep);
    tree.files++;
  }
  return tree;
}
