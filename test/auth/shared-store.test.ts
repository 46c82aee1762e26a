// Signing keys and clients on a shared PostgreSQL database (a real server, test/support/postgres.ts):
// two replicas' stores agree on one key at a first start, see each other's rotations, never lose one
// another's key when both rotate at once, and see a client's reset, disable or creation through the
// change marker the servers poll.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import {
  authenticateClient,
  clientsMarker,
  createClient,
  deleteClient,
  disableClient,
  readClientStates,
  resetSecret,
} from "../../src/auth/clients.js";
import { databaseKeyStorage, keyStorageFor, loadOrCreateKeys, rotateKeys } from "../../src/auth/keys.js";
import { openStore, type Store } from "../../src/store/database.js";
import { redactSecrets } from "../../src/secrets.js";
import { skipPostgres, startPostgres, type PostgresCluster } from "../support/postgres.js";

describe.skipIf(skipPostgres)("keys and clients on a shared PostgreSQL database", { timeout: 60_000 }, () => {
  let cluster: PostgresCluster;
  let a: Store;
  let b: Store;
  beforeAll(async () => {
    cluster = await startPostgres();
    const url = await cluster.createDatabase();
    a = await openStore(url);
    b = await openStore(url);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await cluster?.stop();
  });

  it("keys live in the database, not in the data directory, when the store is shared", () => {
    expect(keyStorageFor("/nonexistent", a).where).toBe("the signing_keys row of the database");
    expect(keyStorageFor("/nonexistent", undefined).where).toBe("/nonexistent/keys/signing-keys.json");
  });

  it("replicas starting at once agree on one key; a rotation through one is seen by the other, the old key kept", async () => {
    const sets = await Promise.all([
      ...Array.from({ length: 4 }, () => loadOrCreateKeys(databaseKeyStorage(a.db))),
      ...Array.from({ length: 4 }, () => loadOrCreateKeys(databaseKeyStorage(b.db))),
    ]);
    const kids = new Set(sets.map((s) => s.active.kid));
    expect(kids.size).toBe(1);
    const [first] = kids;

    const storageB = databaseKeyStorage(b.db);
    const stampBefore = await storageB.stamp();
    const rotated = await rotateKeys(databaseKeyStorage(a.db));
    expect(rotated.retired).toEqual([first]);
    expect(await storageB.stamp()).not.toBe(stampBefore);
    const seen = await loadOrCreateKeys(storageB);
    expect(seen.active.kid).toBe(rotated.kid);
    expect(seen.published.map((k) => k.kid).sort()).toEqual([first, rotated.kid].sort());
    // The private parts read from the database are masked wherever text leaves the process.
    const row = await a.db.selectFrom("signing_keys").select("content").executeTakeFirstOrThrow();
    const d = (JSON.parse(row.content) as { keys: Array<{ privateJwk: { d: string } }> }).keys[0]!.privateJwk.d;
    expect(redactSecrets(`oops ${d}`)).not.toContain(d);
  });

  it("two rotations at once through two replicas both land: neither new key is lost", async () => {
    const [r1, r2] = await Promise.all([rotateKeys(databaseKeyStorage(a.db)), rotateKeys(databaseKeyStorage(b.db))]);
    const keys = await loadOrCreateKeys(databaseKeyStorage(a.db));
    const published = keys.published.map((k) => k.kid);
    expect(published).toContain(r1.kid);
    expect(published).toContain(r2.kid);
    expect([r1.kid, r2.kid]).toContain(keys.active.kid);
  });

  it("a client created, reset, disabled or deleted through one replica moves the marker the other polls", async () => {
    const m0 = await clientsMarker(b);
    const created = await createClient(a, { clientId: "erp", scope: "exchange-rates" });
    const m1 = await clientsMarker(b);
    expect(m1).not.toBe(m0);
    expect((await readClientStates(b)).get("erp")).toMatchObject({ enabled: true, notBefore: 0 });
    expect(await authenticateClient(b, "erp", created.clientSecret)).toMatchObject({ ok: true });

    const reset = await resetSecret(a, "erp");
    const m2 = await clientsMarker(b);
    expect(m2).not.toBe(m1);
    expect((await readClientStates(b)).get("erp")!.notBefore).toBeGreaterThan(Math.floor(Date.now() / 1000) - 5);
    expect(await authenticateClient(b, "erp", created.clientSecret)).toEqual({ ok: false, reason: "secret" });
    expect(await authenticateClient(b, "erp", reset.clientSecret)).toMatchObject({ ok: true });

    await disableClient(a, "erp");
    expect(await clientsMarker(b)).not.toBe(m2);
    expect((await readClientStates(b)).get("erp")!.enabled).toBe(false);
    expect(await authenticateClient(b, "erp", reset.clientSecret)).toEqual({ ok: false, reason: "disabled" });

    const m3 = await clientsMarker(b);
    await deleteClient(a, "erp");
    expect(await clientsMarker(b)).not.toBe(m3);
    expect((await readClientStates(b)).has("erp")).toBe(false);
    expect(await authenticateClient(b, "erp", reset.clientSecret)).toEqual({ ok: false, reason: "unknown" });
  });
});
