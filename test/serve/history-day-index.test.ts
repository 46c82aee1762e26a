// Dated lookups answered from the in-memory index of a bank's days (day-indexes.ts) against the same
// lookups read from the store (a second server over the same database, its index off:
// EXRATES_DAY_INDEX_MB=0): byte for byte the same answers, every header the same (ETag, Last-Modified,
// Content-Location, X-Currencies-Not-Quoted, X-Closed...), in every format and encoding, with filters,
// on a weekend (the previous day's set), before the first date (404); and again after a new ingest,
// which both follow.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { storeBatches } from "../../src/store/rates.js";
import type { SqliteStore } from "../../src/store/database.js";
import type { RateRecord } from "../../src/types.js";
import { startTestServer, type InProcessServer } from "../support/server.js";
import { tempStore } from "../support/store.js";

const DATES = ["2024-12-20", "2024-12-23", "2024-12-27", "2024-12-30", "2024-12-31", "2025-01-02", "2025-01-03"];
const records = (dates: string[], shift = 0): RateRecord[] =>
  dates.flatMap((effectiveDate, d) => [
    { effectiveDate, currency: "EUR", rate: `25.1${(d + shift) % 10}0` },
    { effectiveDate, currency: "HUF", rate: `6.10${d}`, unitMultiplier: 2 },
    { effectiveDate, currency: "JPY", rate: `0.0${d + 1}5`, unitMultiplier: 2 },
    { effectiveDate, currency: "USD", rate: `24.${String(100 + d * 7).padStart(3, "0")}` },
  ]);

const PATHS = [
  "2024-12-30",
  "2024-12-30.json",
  "2024-12-30.xml",
  "2024-12-30.csv",
  "2024-12-30.xlsx",
  "2024-12-28", // a Saturday: Friday's set
  "2024-12-25.csv", // a holiday
  "2024-12-31?currencies=USD,EUR",
  "2024-12-31.xml?currencies=usd,CHF", // a currency not quoted
  "2025-01-02.csv?currencies=JPY",
  "2025-01-03.json?currencies=CHF", // nothing of the filter
  "2024-12-01", // before the first date: 404
];
const ENCODINGS = ["identity", "gzip", "br"];

describe("dated lookups from the day index and from the store", () => {
  let store: SqliteStore;
  let cleanup: () => Promise<void>;
  let indexed: InProcessServer;
  let fromStore: InProcessServer;
  let fetches = 0;

  const ingest = (batch: RateRecord[]) =>
    storeBatches(
      store,
      "CNB",
      [
        {
          provenance: {
            kind: "import",
            method: "GET",
            url: "https://bank.example/feed",
            startedAt: new Date("2025-01-03T14:00:00Z"),
            finishedAt: new Date(`2025-01-03T14:00:${String(++fetches).padStart(2, "0")}Z`),
            httpStatus: 200,
            body: Buffer.from(`feed ${fetches}`),
          },
          records: batch,
        },
      ],
      new Date(),
      { baseCurrency: "CZK", quoteType: "Direct" },
    );

  const bearers = new Map<InProcessServer, string>();
  /** Status, every header but Date, and the body's bytes of one request. */
  async function answer(server: InProcessServer, path: string, headers: Record<string, string>) {
    let bearer = bearers.get(server);
    if (!bearer) bearers.set(server, (bearer = await server.token()));
    const url = `${server.url}/v1/Banks/CNB/DailyRates/${path}`;
    const init = { headers: { authorization: `Bearer ${bearer}`, ...headers } };
    // Asked again once when a kept-alive socket was closed by its server as it was reused: on a starved
    // machine (load 30 on 2 cores) a socket can sit idle past the server's 5 s keep-alive while the
    // other server renders, and this process's client and servers share one event loop (a GET is safe to repeat).
    const res = await fetch(url, init).catch((error: { cause?: { code?: string } }) => {
      if (error.cause?.code !== "UND_ERR_SOCKET") throw error;
      return fetch(url, init);
    });
    const kept = [...res.headers].filter(([name]) => name !== "date" && name !== "keep-alive");
    return { status: res.status, headers: kept, body: Buffer.from(await res.arrayBuffer()).toString("base64") };
  }

  /** Every path in every encoding, asked of both servers: the answers, which must be the same. */
  async function both(): Promise<Map<string, unknown>> {
    const seen = new Map<string, unknown>();
    for (const path of PATHS)
      for (const encoding of ENCODINGS) {
        // Node's fetch decompresses: ask for raw bytes by naming the encoding and reading what comes.
        const headers = { "accept-encoding": encoding };
        const a = await answer(indexed, path, headers);
        const b = await answer(fromStore, path, headers);
        expect(a, `${path} ${encoding}`).toEqual(b);
        seen.set(`${path} ${encoding}`, a);
        // The ETag given back: 304 from both, the same headers.
        const etag = a.headers.find(([name]) => name === "etag")?.[1];
        if (etag) {
          const c = await answer(indexed, path, { ...headers, "if-none-match": etag });
          expect(c.status).toBe(304);
          expect(c).toEqual(await answer(fromStore, path, { ...headers, "if-none-match": etag }));
        }
      }
    return seen;
  }

  beforeAll(async () => {
    ({ store, cleanup } = await tempStore());
    await ingest(records(DATES));
    indexed = await startTestServer({ store, publish: [{ id: "CNB", date: "2025-01-03" }] });
    fromStore = await startTestServer({ store, clientId: "erp2", publish: [{ id: "CNB", date: "2025-01-03" }] });
    // A first miss starts the bank's index, made in turns of this process's event loop (the server is in
    // process); a few turns later it is there, and the comparisons below read it.
    expect((await answer(indexed, "2025-01-02?currencies=USD", {})).status).toBe(200);
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    // The store's indexes are made at its first miss, with the bound then set: none for this server.
    const saved = process.env.EXRATES_DAY_INDEX_MB;
    process.env.EXRATES_DAY_INDEX_MB = "0";
    try {
      expect((await answer(fromStore, "2025-01-02?currencies=EUR", {})).status).toBe(200);
    } finally {
      if (saved === undefined) delete process.env.EXRATES_DAY_INDEX_MB;
      else process.env.EXRATES_DAY_INDEX_MB = saved;
    }
  });
  afterAll(async () => {
    await indexed?.stop();
    await fromStore?.stop();
    await cleanup?.();
  });

  it("are byte for byte the same, headers included, in every format, encoding and filter", async () => {
    const seen = await both();
    expect(seen.size).toBe(PATHS.length * ENCODINGS.length);
    const statuses = [...seen.values()].map((a) => (a as { status: number }).status);
    expect(statuses.filter((s) => s === 404)).toHaveLength(ENCODINGS.length);
  });

  it("follow a new ingest alike: a corrected figure and a new date", async () => {
    const before = await answer(indexed, "2024-12-31?currencies=USD,EUR", {});
    await ingest([
      { effectiveDate: "2024-12-31", currency: "EUR", rate: "25.999" },
      { effectiveDate: "2025-01-06", currency: "USD", rate: "24.500" },
    ]);
    PATHS.push("2025-01-06.csv", "2025-01-05");
    await both();
    const after = await answer(indexed, "2024-12-31?currencies=USD,EUR", {});
    expect(after.headers).not.toEqual(before.headers);
    expect(Buffer.from(after.body, "base64").toString()).toContain("25.999");
  });
});
