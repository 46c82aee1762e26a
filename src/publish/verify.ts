// `exrates verify`: checks a copy of a published generation against its signed manifest, offline. The
// manifest's detached JWS must verify with a key of the JWKS (the one given, else the one beside the
// copy: then the check proves the copy whole and unaltered as signed by that key set, and the caller
// should compare its keys with the service's /v1/publications/jwks.json); then every listed file must
// be there with its size and sha256, its precompressed siblings must decompress to it, and no other
// file may be there. Each problem names its file.
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { readdir, readFile, readlink, stat } from "node:fs/promises";
import { join, relative } from "node:path";

import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from "jose";

import { JWKS_FILE, SIGNATURE_FILE } from "./signature-names.js";
import { SUFFIX } from "./target.js";
import { CURRENT_LINK, MANIFEST, sha256Hex, type Manifest, type ManifestFile } from "./tree.js";

export interface VerifyProblem {
  path: string;
  problem: "missing" | "extra" | "altered" | "signature";
  detail: string;
}

export interface VerifyResult {
  generation: string | undefined;
  files: number;
  kid: string | undefined;
  problems: VerifyProblem[];
  /**
   * True when the copy holds neither a signature nor a key set beside its manifest: published with
   * signing turned off (EXRATES_PUBLICATION_SIGNING=off). Its files are still checked against the
   * manifest, but nothing proves who wrote them; `exrates verify` says UNSIGNED (exit code 3).
   */
  unsigned?: true;
}

/** The generation directory of a location: an out/ directory (through `current`) or a generation itself. */
async function generationDir(dir: string): Promise<string> {
  const current = await readlink(join(dir, CURRENT_LINK)).catch(() => undefined);
  return current ? join(dir, current) : dir;
}

/**
 * Every file under `dir`, relative to `root`. A symlink to a directory is walked (a bank's directory
 * shared between generations, src/publish/tree.ts), each directory once (a loop of links ends).
 */
async function* walk(root: string, dir = root, seen = new Set<string>()): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    const linked = entry.isSymbolicLink() ? await stat(full).catch(() => undefined) : undefined;
    if (entry.isDirectory() || linked?.isDirectory()) {
      if (linked) {
        const id = `${linked.dev}:${linked.ino}`;
        if (seen.has(id)) continue;
        seen.add(id);
      }
      yield* walk(root, full, seen);
    } else yield relative(root, full).split("\\").join("/");
  }
}

/** Checks the detached JWS of the manifest's bytes against the key set; the key's id, or a problem. */
export async function verifySignature(
  manifestBytes: Buffer,
  detached: string,
  jwks: JSONWebKeySet,
): Promise<{ kid: string | undefined } | VerifyProblem> {
  const [header, empty, signature] = detached.trim().split(".");
  if (!header || empty !== "" || !signature)
    return { path: SIGNATURE_FILE, problem: "signature", detail: "not a detached compact JWS" };
  try {
    const { protectedHeader } = await compactVerify(
      `${header}.${manifestBytes.toString("base64url")}.${signature}`,
      createLocalJWKSet(jwks),
      { algorithms: ["RS256"] },
    );
    return { kid: protectedHeader.kid };
  } catch (error) {
    return {
      path: MANIFEST,
      problem: "signature",
      detail: `the signature does not verify with the key set (${(error as Error).message})`,
    };
  }
}

/** Where a copy's files are read: a directory, or a bucket (whose objects are named by content). */
export interface CopyReader {
  /** A file of the generation (a listed one with its manifest entry, a sibling with its encoding), or one beside the manifest. */
  read(path: string, file?: ManifestFile, encoding?: "br" | "gzip"): Promise<Buffer | undefined>;
  /** Every path the copy holds, to find extra files; absent where a copy cannot hold any (a bucket). */
  list?(): AsyncIterable<string>;
}

/** Verifies a local copy (a directory). `jwks`: the trusted key set; default the copy's own. */
export async function verifyDirectory(location: string, jwks?: JSONWebKeySet): Promise<VerifyResult> {
  const dir = await generationDir(location);
  return verifyCopy({ read: (path) => readFile(join(dir, path)).catch(() => undefined), list: () => walk(dir) }, jwks);
}

/**
 * Verifies the current generation of a bucket (`s3://bucket/prefix`, src/publish/s3-target.ts): its
 * manifest and the signature and keys beside it, and every listed object (named by its sha256, so no
 * other object can be "extra" to a generation). The S3 code is loaded only here.
 */
export async function verifyBucket(
  url: string,
  jwks?: JSONWebKeySet,
  env?: Readonly<Record<string, string | undefined>>,
): Promise<VerifyResult> {
  const { ObjectStore } = await import("./s3.js");
  const { manifestKey, objectKey, readBeside, readPointer, POINTER_KEY } = await import("./s3-target.js");
  const store = ObjectStore.fromUrl(url, env);
  const pointer = await readPointer(store);
  if (!pointer) return { generation: undefined, files: 0, kid: undefined, problems: [missing(POINTER_KEY)] };
  const key = manifestKey(pointer.generation);
  return verifyCopy(
    {
      read: (path, file, encoding) =>
        file
          ? store.get(objectKey(file, encoding))
          : path === MANIFEST
            ? store.get(key)
            : readBeside(store, pointer.generation, path),
    },
    jwks,
  );
}

/** Verifies a copy as `reader` reads it. */
export async function verifyCopy(reader: CopyReader, jwks?: JSONWebKeySet): Promise<VerifyResult> {
  const read = (path: string, file?: ManifestFile, encoding?: "br" | "gzip") => reader.read(path, file, encoding);
  const manifestBytes = await read(MANIFEST);
  if (!manifestBytes) return { generation: undefined, files: 0, kid: undefined, problems: [missing(MANIFEST)] };
  const problems: VerifyProblem[] = [];
  const detached = await read(SIGNATURE_FILE);
  const beside = await read(JWKS_FILE);
  const unsigned = !detached && !beside;
  const keys = jwks ?? (beside ? (JSON.parse(beside.toString()) as JSONWebKeySet) : undefined);
  let kid: string | undefined;
  if (unsigned) {
    // Neither file: nothing to check the manifest against (said as UNSIGNED, not as two missing files).
  } else if (!detached) problems.push(missing(SIGNATURE_FILE));
  else if (!keys) problems.push(missing(JWKS_FILE));
  else {
    const checked = await verifySignature(manifestBytes, detached.toString("utf8"), keys);
    if ("problem" in checked) problems.push(checked);
    else kid = checked.kid;
  }
  const manifest = JSON.parse(manifestBytes.toString("utf8")) as Manifest;
  const expected = new Set(unsigned ? [MANIFEST] : [MANIFEST, SIGNATURE_FILE, JWKS_FILE]);
  for (const [path, file] of Object.entries(manifest.files)) {
    expected.add(path);
    for (const encoding of file.encodings) expected.add(path + SUFFIX[encoding]);
    const bytes = await read(path, file);
    if (!bytes) {
      problems.push(missing(path));
      continue;
    }
    const sha = sha256Hex(bytes);
    if (bytes.length !== file.bytes || sha !== file.sha256)
      problems.push({
        path,
        problem: "altered",
        detail: `${bytes.length} bytes, sha256 ${sha}; the manifest says ${file.bytes} bytes, ${file.sha256}`,
      });
    for (const encoding of file.encodings) {
      const sibling = path + SUFFIX[encoding];
      const packed = await read(sibling, file, encoding);
      if (!packed) {
        problems.push(missing(sibling));
        continue;
      }
      let unpacked: Buffer | undefined;
      try {
        // Never inflated beyond the listed size (plus one byte, to tell a longer one): no bomb gets through.
        const bound = { maxOutputLength: file.bytes + 1 };
        unpacked = encoding === "br" ? brotliDecompressSync(packed, bound) : gunzipSync(packed, bound);
      } catch {
        unpacked = undefined;
      }
      if (!unpacked || sha256Hex(unpacked) !== file.sha256)
        problems.push({ path: sibling, problem: "altered", detail: `does not decompress to ${path} as listed` });
    }
  }
  if (reader.list)
    for await (const path of reader.list())
      if (!expected.has(path)) problems.push({ path, problem: "extra", detail: "not in the manifest" });
  const files = Object.keys(manifest.files).length;
  return { generation: manifest.generation, files, kid, problems, ...(unsigned ? { unsigned } : {}) };
}

const missing = (path: string): VerifyProblem => ({ path, problem: "missing", detail: "not in the copy" });
