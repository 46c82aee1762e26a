// Stale is said: Latest (every format, negotiated too) and a dateless Convert of a bank behind its
// calendar carry X-Bank-State and X-Bank-Expected-Date, from the status rows (src/schedule/status.ts,
// computed over the database here as under `exrates serve`), beside the published bytes and ETag,
// which stay as they are. A bank up to date, and a dated Convert, carry no notice.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import cnb from "../../adapters/CNB.js";
import ecb from "../../adapters/ECB.js";
import { bankNotices } from "../../src/serve/state/bank-notices.js";
import { storeRates } from "../support/publish.js";
import { startTestServer, type InProcessServer } from "../support/server.js";
import { publish } from "../support/unsigned.js";

// Thursday 2 April 2026, 17:00 in Prague and Frankfurt: both banks have published that day's set.
const NOW = Date.parse("2026-04-02T15:00:00Z");

let h: InProcessServer;
let token: string;
beforeAll(async () => {
  h = await startTestServer({ publish: false, server: { now: () => NOW } });
  storeRates(h.store, "CNB", [{ effectiveDate: "2026-04-02", currency: "USD", rate: "20.611" }]);
  // The ECB's newest set is four months old.
  storeRates(h.store, "ECB", [{ effectiveDate: "2025-12-01", currency: "USD", rate: "1.1594" }]);
  await publish(h.store, [cnb, ecb], h.config.outDir);
  await h.server.refresh();
  token = await h.token();
  // The states are read at the first request (never waited for): ask until the read has landed.
  for (let i = 0; i < 300; i++) {
    const r = await get("/v1/Banks/ECB/DailyRates/Latest.json");
    await r.arrayBuffer();
    if (r.headers.has("x-bank-state")) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}, 60_000);
afterAll(() => h?.stop());

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${h.url}${path}`, {
    headers: { authorization: `Bearer ${token}`, "accept-encoding": "identity", ...headers },
  });

/** The published file's bytes, as the generation holds them. */
const published = (path: string) => readFileSync(join(h.config.outDir, "current", path));

describe("Latest of a bank whose newest set is months old", () => {
  for (const format of ["json", "csv", "xml", "xlsx"]) {
    it(`says stale in headers, with the published ${format} bytes and ETag`, async () => {
      const path = `v1/Banks/ECB/DailyRates/Latest.${format}`;
      const r = await get(`/${path}`);
      expect(r.status).toBe(200);
      expect(r.headers.get("x-bank-state")).toBe("stale");
      expect(r.headers.get("x-bank-expected-date")).toBe("2026-04-02");
      const body = Buffer.from(await r.arrayBuffer());
      expect(body.equals(published(path))).toBe(true);
      const rep = h.server.tree()!.banks.get("ECB")!.latest[format as "json"]!;
      expect(r.headers.get("etag")).toBe(rep.etag);
      expect(r.headers.get("content-length")).toBe(String(body.length));
    });
  }

  it("says it on a negotiated Latest and on a 304 too", async () => {
    const r = await get("/v1/Banks/ECB/DailyRates/Latest", { accept: "text/csv" });
    expect(r.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(r.headers.get("x-bank-state")).toBe("stale");
    expect(Buffer.from(await r.arrayBuffer()).equals(published("v1/Banks/ECB/DailyRates/Latest.csv"))).toBe(true);
    const again = await get("/v1/Banks/ECB/DailyRates/Latest.json", {
      "if-none-match": h.server.tree()!.banks.get("ECB")!.latest.json!.etag,
    });
    expect(again.status).toBe(304);
    expect(again.headers.get("x-bank-state")).toBe("stale");
  });

  it("is said on a dateless Convert, not on a dated one", async () => {
    const latest = await get("/v1/Banks/ECB/Convert?from=EUR&to=USD&amount=100");
    expect(latest.status).toBe(200);
    expect(latest.headers.get("x-bank-state")).toBe("stale");
    expect(latest.headers.get("x-bank-expected-date")).toBe("2026-04-02");
    expect(((await latest.json()) as { result: string }).result).toBe("115.94");
    const dated = await get("/v1/Banks/ECB/Convert?from=EUR&to=USD&amount=100&date=2025-12-01");
    expect(dated.status).toBe(200);
    expect(dated.headers.get("x-bank-state")).toBeNull();
  });
});

describe("a bank up to date", () => {
  it("carries no state on Latest nor on a dateless Convert", async () => {
    const r = await get("/v1/Banks/CNB/DailyRates/Latest.json");
    expect(r.status).toBe(200);
    expect(r.headers.get("x-bank-state")).toBeNull();
    expect(r.headers.get("x-bank-expected-date")).toBeNull();
    const c = await get("/v1/Banks/CNB/Convert?from=USD&to=CZK&amount=1");
    expect(c.status).toBe(200);
    expect(c.headers.get("x-bank-state")).toBeNull();
  });
});

describe("the states' cache", () => {
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it("reads the rows once a minute and again at a new generation, a request never waiting", async () => {
    let clock = 0;
    let generation = "g1";
    let reads = 0;
    let state = "stale";
    const notice = bankNotices(
      () => {
        reads += 1;
        return Promise.resolve([
          { id: "ECB", state, expectedDate: "2026-04-02" },
          { id: "CNB", state: "up to date" },
        ]);
      },
      () => clock,
      () => generation,
    );
    const stale = { "x-bank-state": "stale", "x-bank-expected-date": "2026-04-02" };
    expect(notice("ECB")).toBeUndefined(); // the first request starts the read and does not wait for it
    await settle();
    expect(notice("ECB")).toEqual(stale);
    expect(notice("CNB")).toBeUndefined();
    clock = 59_999;
    expect(notice("ECB")).toEqual(stale);
    expect(reads).toBe(1);
    state = "late";
    clock = 60_000; // a minute on: answered from the last read while the next one is made
    expect(notice("ECB")).toEqual(stale);
    await settle();
    expect(reads).toBe(2);
    expect(notice("ECB")).toEqual({ "x-bank-state": "late", "x-bank-expected-date": "2026-04-02" });
    state = "up to date";
    generation = "g2"; // a new generation is read again at once
    notice("ECB");
    await settle();
    expect(reads).toBe(3);
    expect(notice("ECB")).toBeUndefined();
  });

  it("says nothing after a failed read, and reads again a minute later", async () => {
    let clock = 0;
    let reads = 0;
    const notice = bankNotices(
      () =>
        ++reads === 1
          ? Promise.reject(new Error("database locked"))
          : Promise.resolve([{ id: "ECB", state: "failing", expectedDate: null }]),
      () => clock,
      () => "g1",
    );
    notice("ECB");
    await settle();
    expect(notice("ECB")).toBeUndefined();
    expect(reads).toBe(1);
    clock = 60_000;
    notice("ECB");
    await settle();
    expect(notice("ECB")).toEqual({ "x-bank-state": "failing" });
  });
});
