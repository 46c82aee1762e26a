// Signing keys of the embedded single sign-on: RSA 2048 for RS256, generated on first start and kept
// in `<dataDir>/keys/signing-keys.json` (directory 0700, file 0600, written atomically), or, on a
// shared PostgreSQL database, in its `signing_keys` row (migration 006), so that every replica signs
// and verifies with the same keys. `exrates keys rotate` adds a new active key; the retired one stays
// in the JWKS until every token it signed has expired, then is dropped at the next rotation or load.
// A running server reloads the keys when their file or row changes, so a rotation needs no restart.
import { createPrivateKey, createPublicKey, randomBytes, type KeyObject } from "node:crypto";
import { chmod, link, mkdir, open, readFile, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";

import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from "jose";
import type { Kysely } from "../store/kysely.js";

import { UserError } from "../errors.js";
import { registerSecret } from "../secrets.js";
import { isPostgres, type Store } from "../store/database.js";
import type { Database } from "../store/schema.js";

/** Lifetime of an access token: five minutes, as Keycloak's default. */
export const TOKEN_TTL_SECONDS = 300;
/** Clock tolerance of the bearer check; a retired key is kept this much longer too. */
export const CLOCK_TOLERANCE_SECONDS = 5;

export interface StoredKey {
  kid: string;
  alg: "RS256";
  createdAt: string;
  /** When a newer key took over; the key is published until retiredAt + token lifetime. */
  retiredAt: string | null;
  privateJwk: JWK;
}

interface KeyFile {
  keys: StoredKey[];
}

/** Where the key document lives: a file in the data directory, or a row of a shared database. */
export interface KeyStorage {
  /** For messages: the file's path, or "the database". */
  readonly where: string;
  read(): Promise<KeyFile | undefined>;
  /**
   * Writes the document. `create`: only when none exists yet (false when another process wrote one
   * first); `previous`: only when it is still the one read (false when another process changed it).
   */
  write(content: KeyFile, how: { create: true } | { create: false; previous: string | undefined }): Promise<boolean>;
  /** A cheap fingerprint that moves whenever the document changes. */
  stamp(): Promise<string | undefined>;
  /** How long a retired key stays published (s); by default a token's lifetime and the clock tolerance. */
  readonly retiredKeptSeconds?: number;
}

/** What loadOrCreateKeys and rotateKeys take: a data directory (the key file) or a storage. */
export type KeySource = string | KeyStorage;

const storageOf = (source: KeySource): KeyStorage => (typeof source === "string" ? fileKeyStorage(source) : source);

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
}

export interface PublishedKey {
  kid: string;
  jwk: JWK;
  publicKey: KeyObject;
  /** Epoch ms after which the key is no longer published nor accepted; null for the active key. */
  until: number | null;
}

export interface KeySet {
  /** The key new tokens are signed with. */
  active: SigningKey;
  /** Public keys to publish and verify with: the active one and the retired ones still needed. */
  published: PublishedKey[];
}

/** The public keys in force at `nowMs`. */
export function publishedAt(keys: KeySet, nowMs: number): PublishedKey[] {
  return keys.published.filter((k) => k.until === null || k.until > nowMs);
}

export function keysDir(dataDir: string): string {
  return join(dataDir, "keys");
}

export function keysFile(dataDir: string): string {
  return join(keysDir(dataDir), "signing-keys.json");
}

async function newKey(): Promise<StoredKey> {
  const { privateKey } = await generateKeyPair("RS256", { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint({ kty: "RSA", e: jwk.e!, n: jwk.n! });
  return {
    kid,
    alg: "RS256",
    createdAt: new Date().toISOString(),
    retiredAt: null,
    privateJwk: { ...jwk, kid, alg: "RS256", use: "sig" },
  };
}

/** Writes the key file atomically with mode 0600 (`exclusive`: fail if it exists, for first start). */
async function writeKeyFile(dataDir: string, content: KeyFile, exclusive: boolean): Promise<boolean> {
  const dir = keysDir(dataDir);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  const target = keysFile(dataDir);
  // Unique per call, not per millisecond: two starts in one process must not share a temp file.
  const temp = `${target}.${process.pid}.${randomBytes(8).toString("hex")}.tmp`;
  const handle = await open(temp, "wx", 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(content, null, 2)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    if (exclusive) {
      // link(2) fails if the target exists: two processes starting at once agree on one key.
      try {
        await link(temp, target);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
        throw error;
      }
      return true;
    }
    await rename(temp, target);
    return true;
  } finally {
    await rm(temp, { force: true });
  }
}

/** The members of an RSA private JWK that are secret. */
const PRIVATE_PARTS = ["d", "p", "q", "dp", "dq", "qi"] as const;

async function readKeyFile(dataDir: string): Promise<KeyFile | undefined> {
  const path = keysFile(dataDir);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const st = await stat(path);
  if ((st.mode & 0o077) !== 0) await chmod(path, 0o600);
  return parseKeyDocument(text, path, "restore it from a backup or move it away to start with new keys");
}

/** A key document's text, checked; its private parts are registered for masking. */
function parseKeyDocument(text: string, where: string, fix: string): KeyFile {
  let parsed: KeyFile;
  try {
    parsed = JSON.parse(text) as KeyFile;
  } catch {
    throw new UserError(`${where} is not valid JSON; ${fix}`);
  }
  if (!Array.isArray(parsed.keys) || parsed.keys.length === 0) throw new UserError(`${where} holds no keys`);
  // The private parts are masked by value wherever text leaves the process (src/secrets.ts).
  for (const key of parsed.keys) for (const part of PRIVATE_PARTS) registerSecret(key.privateJwk?.[part]);
  return parsed;
}

/** The key file in the data directory (a single machine; SQLite). */
export function fileKeyStorage(dataDir: string, retiredKeptSeconds?: number): KeyStorage {
  return {
    ...(retiredKeptSeconds === undefined ? {} : { retiredKeptSeconds }),
    where: keysFile(dataDir),
    read: () => readKeyFile(dataDir),
    write: (content, how) => writeKeyFile(dataDir, content, how.create),
    stamp: () => keyFileStamp(dataDir),
  };
}

/** The keys of an installation: in its shared database when it has one, else in the data directory. */
export function keyStorageFor(dataDir: string, store: Store | undefined): KeyStorage {
  return store && isPostgres(store) ? databaseKeyStorage(store.db) : fileKeyStorage(dataDir);
}

const KEY_ROW = 1;

/**
 * The `signing_keys` row of a shared database (migration 006). A first write inserts only if no row
 * exists, a later one updates only the revision it read: two replicas starting at once agree on one
 * key, and two rotations at once never lose one another's key.
 */
export function databaseKeyStorage(db: Kysely<Database>): KeyStorage {
  const where = "the signing_keys row of the database";
  return {
    where,
    async read() {
      const row = await db.selectFrom("signing_keys").select("content").where("id", "=", KEY_ROW).executeTakeFirst();
      return row ? parseKeyDocument(row.content, where, "delete the row to start with new keys") : undefined;
    },
    async write(content, how) {
      const text = JSON.stringify(content);
      const updatedAt = new Date().toISOString();
      if (how.create) {
        const result = await db
          .insertInto("signing_keys")
          .values({ id: KEY_ROW, revision: 1, content: text, updated_at: updatedAt })
          .onConflict((oc) => oc.column("id").doNothing())
          .executeTakeFirst();
        return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
      }
      const row = await db.selectFrom("signing_keys").select("revision").where("id", "=", KEY_ROW).executeTakeFirst();
      if (!row) return this.write(content, { create: true });
      if (how.previous !== undefined && String(row.revision) !== how.previous) return false;
      const result = await db
        .updateTable("signing_keys")
        .set({ revision: row.revision + 1, content: text, updated_at: updatedAt })
        .where("id", "=", KEY_ROW)
        .where("revision", "=", row.revision)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async stamp() {
      const row = await db.selectFrom("signing_keys").select("revision").where("id", "=", KEY_ROW).executeTakeFirst();
      return row ? String(row.revision) : undefined;
    },
  };
}

/** Still needed: the active key, or a retired key whose last tokens may not have expired yet. */
function publishedUntil(key: StoredKey, keptSeconds = TOKEN_TTL_SECONDS + CLOCK_TOLERANCE_SECONDS): number | null {
  return key.retiredAt === null ? null : Date.parse(key.retiredAt) + keptSeconds * 1000;
}

function stillPublished(key: StoredKey, nowMs: number, keptSeconds?: number): boolean {
  const until = publishedUntil(key, keptSeconds);
  return until === null || until > nowMs;
}

function toKeySet(file: KeyFile, nowMs: number, keptSeconds?: number): KeySet {
  const published = file.keys.filter((k) => stillPublished(k, nowMs, keptSeconds));
  const active = published.find((k) => k.retiredAt === null);
  if (!active) throw new UserError("the key file has no active signing key; run `exrates keys rotate`");
  return {
    active: { kid: active.kid, privateKey: createPrivateKey({ key: active.privateJwk as never, format: "jwk" }) },
    published: published.map((k) => {
      const jwk: JWK = { kty: "RSA", n: k.privateJwk.n, e: k.privateJwk.e, kid: k.kid, alg: "RS256", use: "sig" };
      return {
        kid: k.kid,
        jwk,
        publicKey: createPublicKey({ key: jwk as never, format: "jwk" }),
        until: publishedUntil(k, keptSeconds),
      };
    }),
  };
}

/** Loads the signing keys, generating the first one on first start. */
export async function loadOrCreateKeys(source: KeySource, nowMs = Date.now()): Promise<KeySet> {
  const storage = storageOf(source);
  let file = await storage.read();
  if (!file) {
    await storage.write({ keys: [await newKey()] }, { create: true });
    file = await storage.read();
    if (!file) throw new Error(`the signing keys vanished right after they were written (${storage.where})`);
  }
  return toKeySet(file, nowMs, storage.retiredKeptSeconds);
}

/**
 * Makes a new key the active one. The previous active key is retired but stays published until
 * its tokens have expired; retired keys past that are dropped.
 */
export async function rotateKeys(
  source: KeySource,
  nowMs = Date.now(),
): Promise<{ kid: string; retired: string[]; dropped: string[] }> {
  const storage = storageOf(source);
  const key = await newKey();
  // A rotation made elsewhere between the read and the write (a shared database): read again.
  for (let attempt = 0; attempt < 5; attempt++) {
    const previous = await storage.stamp();
    const file = (await storage.read()) ?? { keys: [] };
    const now = new Date(nowMs).toISOString();
    const retired: string[] = [];
    for (const k of file.keys) {
      if (k.retiredAt === null) {
        k.retiredAt = now;
        retired.push(k.kid);
      }
    }
    const kept = file.keys.filter((k) => stillPublished(k, nowMs, storage.retiredKeptSeconds));
    const dropped = file.keys.filter((k) => !kept.includes(k)).map((k) => k.kid);
    if (await storage.write({ keys: [key, ...kept] }, { create: false, previous }))
      return { kid: key.kid, retired, dropped };
  }
  throw new UserError(`the signing keys kept changing during the rotation (${storage.where}); try again`);
}

/** A cheap fingerprint of the key file (to notice a rotation made by another process). */
export async function keyFileStamp(dataDir: string): Promise<string | undefined> {
  try {
    const st = await stat(keysFile(dataDir));
    return `${st.ino}:${st.mtimeMs}:${st.size}`;
  } catch {
    return undefined;
  }
}
