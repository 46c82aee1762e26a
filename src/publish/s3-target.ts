// The published tree in an S3-compatible bucket (EXRATES_PUBLISH_URL=s3://bucket/prefix):
//
//   <prefix>/objects/<sha256>[.br|.gz]              every file's bytes, named by the sha256 of the file
//                                                   (siblings: by the file's sha256 and their suffix)
//   <prefix>/generations/<gen>/manifest.json        a generation: the manifest of src/publish/tree.ts
//   <prefix>/generations/<gen>/manifest.json.jws    its detached signature, and publication-jwks.json the
//                                                   public keys (src/publish/signing.ts), when signed
//   <prefix>/current.json                           the pointer {"generation", "manifest"}, written last
//
// Objects are content-addressed and never overwritten with other bytes, so a generation is complete
// once its manifest is stored, and the one PUT of the pointer switches readers from one whole
// generation to the next (S3 gives read-after-write consistency per object). A file whose bytes the
// current generation already has costs no request at all; an interrupted publish leaves objects no
// manifest names, which the next prune removes, and the pointer on the previous generation.
import { mkdir } from "node:fs/promises";

import { ObjectStore, eachLimited, parseS3Url, s3ClientFor } from "./s3.js";
import type { CurrentGeneration, FileBodies, GenerationSink, TreeTarget } from "./target.js";
import { SUFFIX } from "./target.js";
import type { Manifest, ManifestFile } from "./tree.js";

export const POINTER_KEY = "current.json";
export const OBJECTS_PREFIX = "objects/";
export const GENERATIONS_PREFIX = "generations/";
/** Uploads in flight at once. */
const UPLOAD_CONCURRENCY = 8;
/** Objects and generations no manifest names are only removed once this old (another publish may be writing them). */
const ABANDONED_AFTER_MS = 3_600_000;

export interface Pointer {
  generation: string;
  /** Relative to the prefix. */
  manifest: string;
}

export const manifestKey = (generation: string) => `${GENERATIONS_PREFIX}${generation}/manifest.json`;

/** A file beside a generation's manifest (its signature, the public keys), named as in a local generation. */
export const besideKey = (generation: string, name: string) => `${GENERATIONS_PREFIX}${generation}/${name}`;

/**
 * A file beside a generation's manifest. Generations published before the key was fixed hold it as
 * `manifest.json.<name>`: read there when it is not under its own name.
 */
export async function readBeside(store: ObjectStore, generation: string, name: string): Promise<Buffer | undefined> {
  return (await store.get(besideKey(generation, name))) ?? store.get(`${manifestKey(generation)}.${name}`);
}

/** The object holding a file's bytes, or one of its precompressed siblings. */
export const objectKey = (file: Pick<ManifestFile, "sha256">, encoding?: "br" | "gzip") =>
  `${OBJECTS_PREFIX}${file.sha256}${encoding ? SUFFIX[encoding] : ""}`;

/** Every object a manifest's files use. */
export function objectKeysOf(manifest: Manifest): Set<string> {
  const keys = new Set<string>();
  for (const file of Object.values(manifest.files)) {
    keys.add(objectKey(file));
    for (const encoding of file.encodings) keys.add(objectKey(file, encoding));
  }
  return keys;
}

const GENERATION_NAME = /^[A-Za-z0-9._-]+$/;

/**
 * A read of the pointer not answered by then fails (and is retried by the next poll): the object is a
 * few bytes, and a server waiting on a stuck read would follow no publish at all.
 */
const POINTER_TIMEOUT_MS = 5_000;

/** The pointer object, read and checked; undefined before the first publish. */
export async function readPointer(store: ObjectStore): Promise<Pointer | undefined> {
  const body = await store.get(POINTER_KEY, { timeoutMs: POINTER_TIMEOUT_MS });
  if (body === undefined) return undefined;
  let pointer: Partial<Pointer>;
  try {
    pointer = JSON.parse(body.toString("utf8")) as Partial<Pointer>;
  } catch {
    throw new Error(`${store.url}/${POINTER_KEY} is not JSON`);
  }
  if (typeof pointer.generation !== "string" || !GENERATION_NAME.test(pointer.generation))
    throw new Error(`${store.url}/${POINTER_KEY} names no generation`);
  return { generation: pointer.generation, manifest: manifestKey(pointer.generation) };
}

/** A generation's manifest; a clear error when it is missing or lists no files. */
export async function readManifest(store: ObjectStore, generation: string): Promise<Manifest> {
  return (await readManifestBytes(store, generation)).manifest;
}

/** A generation's manifest, and its bytes as stored (what its signature signs). */
export async function readManifestBytes(
  store: ObjectStore,
  generation: string,
): Promise<{ manifest: Manifest; bytes: Buffer }> {
  const key = manifestKey(generation);
  const bytes = await store.get(key);
  if (bytes === undefined) throw new Error(`${store.url}/${key} is missing`);
  const manifest = JSON.parse(bytes.toString("utf8")) as Manifest;
  if (typeof manifest !== "object" || manifest === null || typeof manifest.files !== "object")
    throw new Error(`${store.url}/${key} lists no files`);
  return { manifest, bytes };
}

export interface S3TargetOptions {
  /** Unreferenced objects and unfinished generations younger than this are left alone (ms). */
  abandonedAfterMs?: number;
}

/**
 * Uploads in the background, at most `limit` at a time. After a failure no new one starts, and the
 * first error is thrown (once every upload in flight has settled, so nothing runs on after the
 * publish has given up and released its lock).
 */
class Uploads {
  private readonly inFlight = new Set<Promise<void>>();
  private failure: { error: unknown } | undefined;

  constructor(private readonly limit: number) {}

  async add(task: () => Promise<void>): Promise<void> {
    while (this.inFlight.size >= this.limit && !this.failure) await Promise.race(this.inFlight);
    if (this.failure) return this.drain();
    const running: Promise<void> = task()
      .catch((error: unknown) => void (this.failure ??= { error }))
      .finally(() => this.inFlight.delete(running));
    this.inFlight.add(running);
  }

  async drain(): Promise<void> {
    await Promise.all(this.inFlight);
    if (this.failure) throw this.failure.error;
  }
}

export class S3TreeTarget implements TreeTarget {
  readonly description: string;

  constructor(
    readonly store: ObjectStore,
    readonly lockDir: string,
    private readonly options: S3TargetOptions = {},
  ) {
    this.description = store.url;
  }

  static fromUrl(
    url: string,
    lockDir: string,
    env?: Readonly<Record<string, string | undefined>>,
    options?: S3TargetOptions,
  ): S3TreeTarget {
    return new S3TreeTarget(new ObjectStore(parseS3Url(url), s3ClientFor(env)), lockDir, options);
  }

  async prepare(): Promise<void> {
    await mkdir(this.lockDir, { recursive: true });
    await this.store.checkBucket(POINTER_KEY);
  }

  async current(): Promise<CurrentGeneration | undefined> {
    const pointer = await readPointer(this.store);
    if (!pointer) return undefined;
    const manifest = await readManifest(this.store, pointer.generation);
    return {
      manifest,
      readText: async (path) => {
        const file = manifest.files[path];
        return file ? (await this.store.get(objectKey(file)))?.toString("utf8") : undefined;
      },
    };
  }

  begin(generation: string, previous: CurrentGeneration | undefined): Promise<GenerationSink> {
    const store = this.store;
    // What the current generation names exists (prune never removes it): no need to upload it again.
    const present = previous ? objectKeysOf(previous.manifest) : new Set<string>();
    // Uploads run while the next banks render.
    const uploads = new Uploads(UPLOAD_CONCURRENCY);
    return Promise.resolve({
      async write(_path: string, file: ManifestFile, bodies: FileBodies) {
        const upload = async (key: string, body: Buffer, contentType: string) => {
          if (present.has(key)) return;
          present.add(key);
          await uploads.add(() => store.put(key, body, contentType));
        };
        await upload(objectKey(file), bodies.identity, file.contentType);
        if (bodies.br) await upload(objectKey(file, "br"), bodies.br, "application/octet-stream");
        if (bodies.gzip) await upload(objectKey(file, "gzip"), bodies.gzip, "application/octet-stream");
      },
      carry(path: string, file: ManifestFile) {
        if (!present.has(objectKey(file))) return Promise.reject(new Error(`nothing to carry ${path} from`));
        return Promise.resolve();
      },
      async finish(manifest: Manifest, beside: Record<string, string> = {}) {
        await uploads.drain();
        for (const [name, text] of Object.entries(beside))
          await store.put(besideKey(generation, name), text, "application/json");
        await store.put(manifestKey(generation), `${JSON.stringify(manifest, null, 2)}\n`, "application/json");
      },
    });
  }

  async switchTo(generation: string): Promise<void> {
    const pointer: Pointer = { generation, manifest: manifestKey(generation) };
    await this.store.put(POINTER_KEY, `${JSON.stringify(pointer)}\n`, "application/json");
  }

  /**
   * Removes the generations older than the current one but the `keep` newest of them (readers in
   * flight may be loading those), and unfinished ones left by a crash: every object under their
   * `generations/<gen>/` (the manifest, its signature and keys); then every object that no remaining
   * manifest names. What was written less than `abandonedAfterMs` ago and is newer than the pointer
   * may belong to a publish under way, and stays.
   */
  async prune(keep: number): Promise<void> {
    const graceMs = this.options.abandonedAfterMs ?? ABANDONED_AFTER_MS;
    const pointer = await readPointer(this.store);
    if (!pointer) return;
    const now = Date.now();
    const old = (d: Date | undefined) => d !== undefined && now - d.getTime() >= graceMs;
    const generations = await this.generationObjects();
    const names = [...generations]
      .filter(([, g]) => g.finished)
      .map(([n]) => n)
      .sort();
    const older = names.filter((n) => n < pointer.generation);
    const doomed = new Set(older.slice(0, Math.max(0, older.length - keep)));
    for (const [n, g] of generations)
      if (n !== pointer.generation && (g.finished ? n > pointer.generation : true) && old(g.newest)) doomed.add(n);
    for (const n of doomed) for (const key of generations.get(n)!.keys) await this.store.delete(key);

    const used = new Set<string>();
    for (const n of names.filter((n) => !doomed.has(n))) {
      const manifest = await readManifest(this.store, n).catch(() => undefined);
      if (manifest) for (const key of objectKeysOf(manifest)) used.add(key);
      else if (n === pointer.generation) return; // cannot tell what is in use: remove nothing
    }
    const unused = (await this.store.list(OBJECTS_PREFIX)).filter((o) => !used.has(o.key) && old(o.lastModified));
    await eachLimited(unused, UPLOAD_CONCURRENCY, (o) => this.store.delete(o.key));
  }

  /** Every generation's objects under `generations/<gen>/`, whether its manifest is there, and its newest write. */
  private async generationObjects(): Promise<Map<string, { keys: string[]; finished: boolean; newest?: Date }>> {
    const generations = new Map<string, { keys: string[]; finished: boolean; newest?: Date }>();
    for (const o of await this.store.list(GENERATIONS_PREFIX)) {
      const m = /^generations\/([^/]+)\/(.+)$/.exec(o.key);
      if (!m) continue;
      let g = generations.get(m[1]!);
      if (!g) generations.set(m[1]!, (g = { keys: [], finished: false }));
      g.keys.push(o.key);
      if (m[2] === "manifest.json") g.finished = true;
      if (o.lastModified && (!g.newest || o.lastModified > g.newest)) g.newest = o.lastModified;
    }
    return generations;
  }
}
