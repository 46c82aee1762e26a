// A client created by another process while the server runs: its first token is accepted at once,
// before the clients poller has run, because an unknown client id in a valid token re-reads the
// clients; tokens of clients that no longer exist cannot make the server re-read on every request.
import { afterEach, describe, expect, it } from "vitest";

import { createClient, deleteClient } from "../../src/auth/clients.js";
import { loadLiveState } from "../../src/serve/state/live-state.js";
import { openStore, type Store } from "../../src/store/database.js";
import { silentLog, startHarness, type Harness } from "./support.js";

const LATEST = "/v1/Banks/CNB/DailyRates/Latest.json";
let harness: Harness | undefined;
let other: Store | undefined;

afterEach(async () => {
  await other?.close();
  other = undefined;
  await harness?.close();
  harness = undefined;
});

describe("clients created while the server runs", () => {
  it("accepts the first token of a client created by another connection, with no poll in between", async () => {
    // The poller is an hour away: only the reload on an unknown client id can let the token through.
    harness = await startHarness({ server: { clientPollMs: 3_600_000 } });
    other = await openStore(harness.config.databasePath);
    for (let i = 0; i < 4; i++) {
      const created = await createClient(other, { clientId: `fresh-${i}`, scope: harness.config.scope });
      const token = await harness.token(created.clientId, created.clientSecret);
      const response = await fetch(`${harness.url}${LATEST}`, { headers: { authorization: `Bearer ${token}` } });
      expect(response.status).toBe(200);
    }
  });

  it("refuses the token of a deleted client, still after a re-read", async () => {
    harness = await startHarness({ server: { clientPollMs: 3_600_000 } });
    other = await openStore(harness.config.databasePath);
    const created = await createClient(other, { clientId: "gone", scope: harness.config.scope });
    const token = await harness.token(created.clientId, created.clientSecret);
    const call = () => fetch(`${harness!.url}${LATEST}`, { headers: { authorization: `Bearer ${token}` } });
    expect((await call()).status).toBe(200);
    await deleteClient(other, "gone");
    // Still known until the poller runs: the deletion reaches this server when it re-reads.
    await harness.server.refresh();
    const refused = await call();
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toContain("no longer exists");
  });
});

describe("the reload on an unknown client id is bounded", () => {
  it("re-reads at most once per interval, and only when the database changed", async () => {
    harness = await startHarness({ publish: false });
    other = await openStore(harness.config.databasePath);
    let now = 1_000_000;
    const state = await loadLiveState({
      outDir: harness.config.outDir,
      dataDir: harness.config.dataDir,
      store: harness.store,
      log: silentLog,
      now: () => now,
      clientMissReloadMs: 100,
    });
    const start = state.clientReads();
    // Unknown ids with nothing changed: no re-read at all.
    const forged = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => Promise.resolve(state.client(`forged-${i}`))),
    );
    expect(forged.every((s) => s === undefined)).toBe(true);
    expect(state.clientReads()).toBe(start);
    now += 100;
    // The database changes (another connection): a thousand unknown ids in the same instant, one re-read.
    await createClient(other, { clientId: "new-one", scope: harness.config.scope });
    await Promise.all(Array.from({ length: 1000 }, (_, i) => Promise.resolve(state.client(`forged-${i}`))));
    expect(state.clientReads()).toBe(start + 1);
    expect(state.client("new-one")).toBeDefined();
    now += 100;
    // Another change within the interval: the unknown ids wait for the next re-read, one for all.
    expect(state.client("forged-again")).toBeUndefined();
    await createClient(other, { clientId: "newer", scope: harness.config.scope });
    now += 50;
    expect(state.client("newer")).toBeInstanceOf(Promise);
    const waiting = Array.from({ length: 100 }, () => Promise.resolve(state.client("newer")));
    expect(state.clientReads()).toBe(start + 1);
    now += 50;
    const states = await Promise.all(waiting);
    expect(states.every((s) => s !== undefined && s.enabled)).toBe(true);
    expect(state.clientReads()).toBe(start + 2);
    state.close();
  });
});
