// The published tree from an S3-compatible bucket (EXRATES_PUBLISH_URL; layout in
// src/publish/s3-target.ts). The pointer object names the current generation; loading one fetches
// its manifest and the objects the server does not hold yet. Objects are named by their content, so
// those of the generation served so far are reused as they are: after a publish that changed one
// bank, the server fetches that bank's files and nothing else. Requests are then served from memory,
// exactly as with a local tree.
import { ObjectStore, eachLimited } from "../../publish/s3.js";
import { POINTER_KEY, objectKey, readBeside, readManifestBytes, readPointer } from "../../publish/s3-target.js";
import { JWKS_FILE, SIGNATURE_FILE } from "../../publish/signature-names.js";
import { buildTree, type TreeSource } from "./tree.js";

/** Object downloads in flight at once while loading a generation. */
const DOWNLOAD_CONCURRENCY = 16;

export class S3TreeSource implements TreeSource {
  readonly description: string;
  /** The objects of the generation last loaded, by key. */
  private held = new Map<string, Buffer>();

  constructor(private readonly store: ObjectStore) {
    this.description = store.url;
  }

  static fromUrl(url: string, env?: Readonly<Record<string, string | undefined>>): S3TreeSource {
    return new S3TreeSource(ObjectStore.fromUrl(url, env));
  }

  check(): Promise<void> {
    return this.store.checkBucket(POINTER_KEY);
  }

  async currentTarget(): Promise<string | undefined> {
    return (await readPointer(this.store))?.generation;
  }

  async load(generation: string) {
    const { manifest, bytes } = await readManifestBytes(this.store, generation);
    const wanted = new Set<string>();
    for (const file of Object.values(manifest.files)) {
      wanted.add(objectKey(file));
      for (const encoding of file.encodings ?? []) wanted.add(objectKey(file, encoding));
    }
    const objects = new Map<string, Buffer>();
    const missing: string[] = [];
    for (const key of wanted) {
      const held = this.held.get(key);
      if (held) objects.set(key, held);
      else missing.push(key);
    }
    await eachLimited(missing, DOWNLOAD_CONCURRENCY, async (key) => {
      const body = await this.store.get(key);
      if (body === undefined) throw new Error(`${this.store.url}/${key} is missing (generation ${generation})`);
      objects.set(key, body);
    });
    const signature = await readBeside(this.store, generation, SIGNATURE_FILE);
    const tree = await buildTree(
      manifest,
      generation,
      (_path, file, encoding) => Promise.resolve(objects.get(objectKey(file, encoding))!),
      { manifest: bytes, signature },
    );
    this.held = objects;
    // The signed generation's public keys, beside its manifest (src/publish/s3-target.ts).
    const jwks = await readBeside(this.store, generation, JWKS_FILE);
    return jwks ? { ...tree, publicationJwks: jwks } : tree;
  }
}
