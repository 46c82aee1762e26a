// Clients of the embedded single sign-on: created, listed, reset, disabled and deleted by command.
// A secret is 256 random bits, shown once and kept only as sha256(salt || secret): a fast hash is
// right for random secrets (nothing to guess), a slow password KDF would only cap the token endpoint.
// A reset or a disable raises `not_before` so that tokens issued before it are refused at once.
import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";

import { UserError } from "../errors.js";
import { rawSqlite, type Store } from "../store/database.js";
import type { ClientsTable } from "../store/schema.js";

export const CLIENT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const SCOPE_TOKEN_PATTERN = /^[\x21\x23-\x5b\x5d-\x7e]+$/; // RFC 6749 §3.3 scope-token

export interface ClientRecord {
  /** UUID: the `sub` of the client's service account. */
  id: string;
  clientId: string;
  scopes: string[];
  enabled: boolean;
  /** Epoch seconds; tokens with an earlier `iat` are refused. */
  notBefore: number;
  createdAt: string;
  updatedAt: string;
}

export interface NewClient {
  clientId: string;
  clientSecret: string;
  scope: string;
}

/** A row of the clients table, as declared once in the store's schema. */
type Row = ClientsTable;

// In-process listeners: a server sharing the store's connection learns of a change at once
// (SQLite's data_version only moves for commits made by other connections).
const listeners = new WeakMap<Store, Set<() => void>>();

export function onClientsChanged(store: Store, listener: () => void): () => void {
  let set = listeners.get(store);
  if (!set) listeners.set(store, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

function changed(store: Store): void {
  for (const listener of listeners.get(store) ?? []) listener();
}

/** A new 256-bit secret, base64url (43 characters, no '+', '/', '%' or '='). */
export function generateSecret(): string {
  return randomBytes(32).toString("base64url");
}

function hashSecret(salt: string, secret: string): Buffer {
  return createHash("sha256").update(Buffer.from(salt, "base64url")).update(secret, "utf8").digest();
}

function toRecord(row: Row): ClientRecord {
  return {
    id: row.id,
    clientId: row.client_id,
    scopes: row.scope.split(" ").filter(Boolean),
    enabled: Number(row.enabled) === 1,
    notBefore: Number(row.not_before),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function parseScope(scope: string): string[] {
  const scopes = [...new Set(scope.split(/\s+/).filter(Boolean))];
  if (scopes.length === 0) throw new UserError("a client needs at least one scope");
  for (const s of scopes) if (!SCOPE_TOKEN_PATTERN.test(s)) throw new UserError(`"${s}" is not a valid scope name`);
  return scopes;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Creates a client. `secret` is for tests and migrations from another server only; normally a fresh
 * 256-bit secret is generated. The secret is returned here once and never again.
 */
export async function createClient(
  store: Store,
  options: { clientId: string; scope: string; secret?: string },
): Promise<NewClient> {
  const { clientId } = options;
  if (!CLIENT_ID_PATTERN.test(clientId)) {
    throw new UserError(
      `client name "${clientId}" must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit`,
    );
  }
  const scopes = parseScope(options.scope);
  const secret = options.secret ?? generateSecret();
  if (secret.length === 0) throw new UserError("a client secret cannot be empty");
  const salt = randomBytes(16).toString("base64url");
  const now = new Date().toISOString();
  const existing = await store.db
    .selectFrom("clients")
    .select("id")
    .where("client_id", "=", clientId)
    .executeTakeFirst();
  if (existing) throw new UserError(`client "${clientId}" exists already`);
  await store.db
    .insertInto("clients")
    .values({
      id: randomUUID(),
      client_id: clientId,
      secret_salt: salt,
      secret_hash: hashSecret(salt, secret).toString("base64url"),
      scope: scopes.join(" "),
      enabled: 1,
      not_before: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
  changed(store);
  return { clientId, clientSecret: secret, scope: scopes.join(" ") };
}

export async function listClients(store: Store): Promise<ClientRecord[]> {
  const rows = await store.db.selectFrom("clients").selectAll().orderBy("client_id").execute();
  return rows.map(toRecord);
}

async function requireClient(store: Store, clientId: string): Promise<Row> {
  const row = await store.db.selectFrom("clients").selectAll().where("client_id", "=", clientId).executeTakeFirst();
  if (!row) throw new UserError(`no client "${clientId}"`);
  return row;
}

/**
 * The not-before for a reset or disable made now: the next whole second, so that every token issued
 * up to now (iat is in whole seconds) is refused; the token endpoint issues later tokens with
 * iat >= not_before.
 */
function notBeforeNow(): number {
  return nowSeconds() + 1;
}

/** A new secret; every token issued with the old one stops working at once. */
export async function resetSecret(store: Store, clientId: string, secret?: string): Promise<NewClient> {
  const row = await requireClient(store, clientId);
  const newSecret = secret ?? generateSecret();
  const salt = randomBytes(16).toString("base64url");
  await store.db
    .updateTable("clients")
    .set({
      secret_salt: salt,
      secret_hash: hashSecret(salt, newSecret).toString("base64url"),
      not_before: Math.max(row.not_before, notBeforeNow()),
      updated_at: new Date().toISOString(),
    })
    .where("id", "=", row.id)
    .execute();
  changed(store);
  return { clientId, clientSecret: newSecret, scope: row.scope };
}

/** Disables a client: it gets no more tokens and its tokens stop working at once. */
export async function disableClient(store: Store, clientId: string): Promise<void> {
  const row = await requireClient(store, clientId);
  await store.db
    .updateTable("clients")
    .set({ enabled: 0, not_before: Math.max(row.not_before, notBeforeNow()), updated_at: new Date().toISOString() })
    .where("id", "=", row.id)
    .execute();
  changed(store);
}

export async function enableClient(store: Store, clientId: string): Promise<void> {
  const row = await requireClient(store, clientId);
  await store.db
    .updateTable("clients")
    .set({ enabled: 1, updated_at: new Date().toISOString() })
    .where("id", "=", row.id)
    .execute();
  changed(store);
}

export async function deleteClient(store: Store, clientId: string): Promise<void> {
  const row = await requireClient(store, clientId);
  await store.db.deleteFrom("clients").where("id", "=", row.id).execute();
  changed(store);
}

/** What the bearer check needs of every client, held in memory by the server. */
export interface ClientState {
  id: string;
  enabled: boolean;
  notBefore: number;
}

type StateRow = Pick<Row, "id" | "client_id" | "enabled" | "not_before">;

const toStates = (rows: StateRow[]): Map<string, ClientState> =>
  new Map(
    rows.map((r) => [r.client_id, { id: r.id, enabled: Number(r.enabled) === 1, notBefore: Number(r.not_before) }]),
  );

/**
 * Reads every client's state (id, enabled, not-before) keyed by client_id: at once on SQLite (one
 * prepared statement), through the pool on a shared database.
 */
export function readClientStates(store: Store): Map<string, ClientState> | Promise<Map<string, ClientState>> {
  const sqlite = rawSqlite(store);
  if (sqlite)
    return toStates(sqlite.prepare("select id, client_id, enabled, not_before from clients").all() as StateRow[]);
  return store.db.selectFrom("clients").select(["id", "client_id", "enabled", "not_before"]).execute().then(toStates);
}

/**
 * A cheap value that moves whenever a client is created, changed or deleted (every write sets
 * updated_at to now; a delete lowers the count): replicas on a shared database poll it and re-read
 * the clients only when it moved.
 */
export async function clientsMarker(store: Store): Promise<string> {
  const row = await store.db
    .selectFrom("clients")
    .select((eb) => [eb.fn.countAll().as("n"), eb.fn.max("updated_at").as("u")])
    .executeTakeFirst();
  return `${String(row?.n ?? 0)} ${row?.u ?? ""}`;
}

export type Authentication =
  { ok: true; client: ClientRecord } | { ok: false; reason: "unknown" | "disabled" | "secret" };

const lookups = new WeakMap<Store, (clientId: string) => Row | undefined>();

/**
 * Checks a client's credentials against the database (read at each grant, so a reset made by
 * another process counts at once): synchronously on SQLite (a prepared statement), through the
 * pool on a shared database. The comparison of hashes is constant-time; an unknown client costs the
 * same hash as a known one.
 */
export function authenticateClient(
  store: Store,
  clientId: string,
  secret: string,
): Authentication | Promise<Authentication> {
  const sqlite = rawSqlite(store);
  if (!sqlite)
    return store.db
      .selectFrom("clients")
      .selectAll()
      .where("client_id", "=", clientId)
      .executeTakeFirst()
      .then((row) => checkSecret(row, secret));
  let lookup = lookups.get(store);
  if (!lookup) {
    const statement = sqlite.prepare("select * from clients where client_id = ?");
    lookup = (id: string) => statement.get(id) as Row | undefined;
    lookups.set(store, lookup);
  }
  return checkSecret(lookup(clientId), secret);
}

function checkSecret(row: Row | undefined, secret: string): Authentication {
  const salt = row?.secret_salt ?? "AAAAAAAAAAAAAAAAAAAAAA";
  const expected = row ? Buffer.from(row.secret_hash, "base64url") : Buffer.alloc(32);
  const actual = hashSecret(salt, secret);
  const match = expected.length === actual.length && timingSafeEqual(expected, actual);
  if (!row) return { ok: false, reason: "unknown" };
  if (Number(row.enabled) !== 1) return { ok: false, reason: "disabled" };
  if (!match) return { ok: false, reason: "secret" };
  return { ok: true, client: toRecord(row) };
}
