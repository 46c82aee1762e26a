// The store contract, run on SQLite and on a real PostgreSQL server alike: ingest (insert, unchanged,
// revised with the old figure kept, all or nothing), anomalies (recorded once, seen again, decided
// figures, release), runs, events and webhooks, fetch provenance, newest dates, what an ingest's load
// reads for screening and the cross-bank check, and the secret net on provenance columns. Decimals compared as strings.
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { storeParsed, type ParsedDocument } from "../../src/ingest/ingest.js";
import { releaseAnomaly } from "../../src/ingest/release.js";
import { gateRecords } from "../../src/ingest/validate.js";
import { clearSecrets, registerSecret } from "../../src/secrets.js";
import { anomalyCounts, listAnomalies } from "../../src/store/anomalies.js";
import type { Store } from "../../src/store/database.js";
import {
  addWebhook,
  dueDeliveries,
  eventsAfter,
  listWebhooks,
  recordEvents,
  type RatesPublished,
} from "../../src/store/events.js";
import type { ScreeningQuery, ScreeningSnapshot } from "../../src/store/ingest-data.js";
import {
  ingestTransaction,
  lastFetch,
  newestDate,
  newestDates,
  periodFiguresOf,
  ratesOn,
  recordFailedFetch,
  storeBatches,
  storedFigures,
  type Provenance,
} from "../../src/store/rates.js";
import { inForceOn } from "../../src/store/periods.js";
import { latestRuns, recordRunFinished, recordRunStarted, recordRunWaiting } from "../../src/store/runs.js";
import type { FeedDocument, HeldRow, RateRecord } from "../../src/types.js";
import { storeDialects } from "../support/postgres.js";
import { testBank } from "../support/publish.js";

const AT = new Date("2026-03-02T13:31:00.000Z");

const provenance = (url = "https://bank.example/feed", body = "answer"): Provenance => ({
  kind: "fetch",
  method: "GET",
  url,
  startedAt: AT,
  finishedAt: AT,
  httpStatus: 200,
  body: Buffer.from(body),
});

const rec = (effectiveDate: string, currency: string, rate: string, unitMultiplier?: number): RateRecord =>
  unitMultiplier === undefined ? { effectiveDate, currency, rate } : { effectiveDate, currency, rate, unitMultiplier };

const doc = (url = "https://bank.example/feed"): FeedDocument => ({
  url,
  method: "GET",
  status: 200,
  contentType: "application/json",
  body: Buffer.from("{}"),
  startedAt: AT,
  finishedAt: AT,
});

const parsedOf = (records: RateRecord[], held: HeldRow[] = []): ParsedDocument[] => [{ doc: doc(), records, held }];

/** Every stored row of a table, in a fixed order, through kysely (the same query on both engines). */
async function ratesRows(store: Store) {
  return store.db
    .selectFrom("rates")
    .select(["bank_id", "effective_date", "currency", "rate", "unit_multiplier", "derivation"])
    .orderBy("bank_id")
    .orderBy("effective_date")
    .orderBy("currency")
    .execute();
}

async function count(store: Store, table: "rates" | "fetches" | "rate_revisions" | "anomalies"): Promise<number> {
  const row = await store.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const CNB = testBank("CNB");
const EURB = testBank("EURB", { bankCurrency: "EUR", quoteType: "Indirect" });
const PLNB = testBank("PLNB", { bankCurrency: "PLN", quoteType: "Direct" });
const MONTHLY = testBank("MONTHLY", { bankCurrency: "GBP", quoteType: "Indirect", supportedFrequencies: ["Monthly"] });

/** What the ingest's load reads for a query, inside its transaction (writing nothing). */
async function loadOnly(store: Store, query: ScreeningQuery): Promise<ScreeningSnapshot> {
  let seen: ScreeningSnapshot | undefined;
  await ingestTransaction(store, query, (snapshot) => {
    seen = snapshot;
    return { write: { batches: [], now: AT }, decision: undefined };
  });
  return seen!;
}

describe.each(storeDialects())("store contract on $name", (dialect) => {
  let store: Store;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ store, cleanup } = await dialect.open());
  });
  afterEach(async () => {
    clearSecrets();
    await cleanup();
  });

  describe("ingest", () => {
    it("inserts, records the fetch, and keeps the exact decimal text", async () => {
      const r = await storeBatches(
        store,
        "CNB",
        [
          {
            provenance: provenance(),
            records: [
              rec("2026-03-02", "EUR", "24.170"),
              rec("2026-03-02", "HUF", "6.3040", 2),
              rec("2026-03-03", "EUR", "0.000012345678901234567890"),
            ],
          },
        ],
        AT,
      );
      expect(r).toMatchObject({ inserted: 3, revised: 0, unchanged: 0, changedDates: ["2026-03-02", "2026-03-03"] });
      expect(r.fetchIds).toHaveLength(1);
      expect(await ratesRows(store)).toEqual([
        {
          bank_id: "CNB",
          effective_date: "2026-03-02",
          currency: "EUR",
          rate: "24.170",
          unit_multiplier: 0,
          derivation: null,
        },
        {
          bank_id: "CNB",
          effective_date: "2026-03-02",
          currency: "HUF",
          rate: "6.3040",
          unit_multiplier: 2,
          derivation: null,
        },
        {
          bank_id: "CNB",
          effective_date: "2026-03-03",
          currency: "EUR",
          rate: "0.000012345678901234567890",
          unit_multiplier: 0,
          derivation: null,
        },
      ]);
      const fetch = await lastFetch(store, "CNB");
      expect(fetch).toMatchObject({
        id: r.fetchIds[0],
        kind: "fetch",
        method: "GET",
        url: "https://bank.example/feed",
        http_status: 200,
        bytes: 6,
        error: null,
        started_at: AT.toISOString(),
      });
      expect(fetch!.sha256).toMatch(/^[0-9a-f]{64}$/);
    });

    it("leaves an unchanged row alone and keeps a changed one's old figure as a revision", async () => {
      const batch = (records: RateRecord[]) => [{ provenance: provenance(), records }];
      await storeBatches(store, "CNB", batch([rec("2026-03-02", "EUR", "24.170"), rec("2026-03-02", "USD", "22.300")]));
      const same = await storeBatches(store, "CNB", batch([rec("2026-03-02", "EUR", "24.170")]));
      expect(same).toMatchObject({ inserted: 0, revised: 0, unchanged: 1, changedDates: [] });
      // Same value, other text: a revision (we publish the bank's text).
      const later = new Date("2026-03-02T15:00:00.000Z");
      const changed = await storeBatches(
        store,
        "CNB",
        batch([rec("2026-03-02", "EUR", "24.17"), rec("2026-03-02", "USD", "22.300", 1)]),
        later,
      );
      expect(changed).toMatchObject({ inserted: 0, revised: 2, unchanged: 0, changedDates: ["2026-03-02"] });
      const revisions = await store.db.selectFrom("rate_revisions").selectAll().orderBy("currency").execute();
      expect(revisions).toMatchObject([
        {
          currency: "EUR",
          old_rate: "24.170",
          new_rate: "24.17",
          old_unit_multiplier: 0,
          revised_at: later.toISOString(),
        },
        { currency: "USD", old_rate: "22.300", new_rate: "22.300", old_unit_multiplier: 0, new_unit_multiplier: 1 },
      ]);
      expect((await ratesOn(store, "CNB", "2026-03-02")).map((r) => [r.currency, r.rate, r.unitMultiplier])).toEqual([
        ["EUR", "24.17", 0],
        ["USD", "22.300", 1],
      ]);
    });

    it("stores many rows in one ingest, and a key sent twice lands in order", async () => {
      const records: RateRecord[] = [];
      for (let i = 0; i < 12_000; i++) {
        const day = String(1 + (i % 28)).padStart(2, "0");
        const month = String(1 + Math.floor(i / 28 / 400)).padStart(2, "0");
        records.push(
          rec(
            `20${10 + (Math.floor(i / 28 / 12) % 20)}-${month}-${day}`,
            `C${String(i % 400).padStart(2, "0")}`,
            `1.${i}`,
          ),
        );
      }
      const unique = new Map(records.map((r) => [`${r.effectiveDate} ${r.currency}`, r]));
      const r = await storeBatches(store, "BIG", [
        { provenance: provenance(), records },
        // A second answer repeating one figure and correcting another.
        { provenance: provenance(), records: [records[0]!, { ...records[1]!, rate: "9.99" }] },
      ]);
      expect(r.inserted).toBe(unique.size);
      expect(r.revised).toBe(1 + (records.length - unique.size));
      expect(await count(store, "rates")).toBe(unique.size);
      const second = await ratesOn(store, "BIG", records[1]!.effectiveDate);
      expect(second.find((s) => s.currency === records[1]!.currency)!.rate).toBe("9.99");
    });

    it("is one transaction: a failure mid-ingest leaves nothing", async () => {
      const bad = { effectiveDate: "2026-03-03", currency: "USD", rate: null } as unknown as RateRecord;
      await expect(
        storeBatches(store, "CNB", [
          { provenance: provenance(), records: [rec("2026-03-02", "EUR", "24.170")] },
          {
            provenance: provenance(),
            records: [rec("2026-03-02", "USD", "22.300"), bad],
            anomalies: [{ kind: "bad-rate", reason: "x", status: "held" }],
          },
        ]),
      ).rejects.toThrow();
      expect(await count(store, "rates")).toBe(0);
      expect(await count(store, "fetches")).toBe(0);
      expect(await count(store, "anomalies")).toBe(0);
      // And through storeParsed (screening, quoting, anomalies, rows).
      await expect(
        storeParsed(
          store,
          CNB.bank,
          parsedOf([rec("2026-03-02", "EUR", "24.170"), bad], [{ kind: "bad-row", reason: "no", source: "row 3" }]),
          "fetch",
          false,
        ),
      ).rejects.toThrow();
      expect([await count(store, "rates"), await count(store, "fetches"), await count(store, "anomalies")]).toEqual([
        0, 0, 0,
      ]);
    });

    it("refuses a rate that names no recorded fetch, and keeps a fetch that rates name", async () => {
      await storeBatches(store, "CNB", [{ provenance: provenance(), records: [rec("2026-03-02", "EUR", "24.170")] }]);
      const fetchId = (await store.db.selectFrom("rates").select("fetch_id").executeTakeFirstOrThrow()).fetch_id;
      const row = (date: string, fetch: number) => ({
        bank_id: "CNB",
        effective_date: date,
        currency: "USD",
        rate: "22.300",
        unit_multiplier: 0,
        fetch_id: fetch,
        stored_at: AT.toISOString(),
      });
      // Many rows in one statement, one of them naming a fetch never recorded: the whole statement fails.
      await expect(
        store.db
          .insertInto("rates")
          .values([row("2026-03-03", fetchId), row("2026-03-04", fetchId + 1)])
          .execute(),
      ).rejects.toThrow(/foreign key|not recorded/i);
      await expect(
        store.db
          .updateTable("rates")
          .set({ fetch_id: fetchId + 7 })
          .where("currency", "=", "EUR")
          .execute(),
      ).rejects.toThrow(/foreign key|not recorded/i);
      await expect(store.db.deleteFrom("fetches").where("id", "=", fetchId).execute()).rejects.toThrow(
        /foreign key|named by stored rates/i,
      );
      await expect(
        store.db
          .updateTable("fetches")
          .set({ id: fetchId + 9 })
          .where("id", "=", fetchId)
          .execute(),
      ).rejects.toThrow(/foreign key|named by stored rates/i);
      expect(await count(store, "rates")).toBe(1);
      // A fetch's own columns may change, and a fetch no rate names may go.
      await store.db.updateTable("fetches").set({ error: null }).where("id", "=", fetchId).execute();
      await store.db.insertInto("rates").values(row("2026-03-03", fetchId)).execute();
      const unnamed = await recordFailedFetch(store, "CNB", provenance(), "down");
      await store.db.deleteFrom("fetches").where("id", "=", unnamed).execute();
      expect([await count(store, "rates"), await count(store, "fetches")]).toEqual([2, 1]);
    });

    it("records a failed fetch as provenance; lastFetch tells successful from failed", async () => {
      await storeBatches(store, "CNB", [{ provenance: provenance(), records: [rec("2026-03-02", "EUR", "24.170")] }]);
      const id = await recordFailedFetch(
        store,
        "CNB",
        {
          kind: "fetch",
          method: "GET",
          url: "https://bank.example/feed?2",
          startedAt: AT,
          finishedAt: AT,
          httpStatus: 503,
        },
        "HTTP 503",
      );
      expect(await lastFetch(store, "CNB")).toMatchObject({ id, error: "HTTP 503", http_status: 503, bytes: null });
      expect(await lastFetch(store, "CNB", true)).toMatchObject({ error: null, url: "https://bank.example/feed" });
    });

    it("answers newest dates and rates of a date sorted by currency", async () => {
      await storeBatches(store, "CNB", [
        { provenance: provenance(), records: [rec("2026-03-03", "USD", "22.1"), rec("2026-03-03", "AUD", "15.2")] },
      ]);
      await storeBatches(store, "ECB", [{ provenance: provenance(), records: [rec("2026-02-27", "USD", "1.0850")] }]);
      expect(await newestDate(store, "CNB")).toBe("2026-03-03");
      expect(await newestDate(store, "NOPE")).toBeUndefined();
      expect([...(await newestDates(store))].sort()).toEqual([
        ["CNB", "2026-03-03"],
        ["ECB", "2026-02-27"],
      ]);
      expect((await ratesOn(store, "CNB", "2026-03-03")).map((r) => r.currency)).toEqual(["AUD", "USD"]);
    });

    it("gives the cross-bank check the figures of the banks asked, in a date range", async () => {
      await storeBatches(store, "AAA", [
        { provenance: provenance(), records: [rec("2026-03-01", "USD", "1.1"), rec("2026-03-05", "USD", "1.5")] },
      ]);
      await storeBatches(store, "BBB", [{ provenance: provenance(), records: [rec("2026-03-02", "EUR", "2.20", 1)] }]);
      expect(await storedFigures(store, ["BBB", "AAA"], "2026-03-01", "2026-03-04")).toEqual([
        { bankId: "BBB", effectiveDate: "2026-03-02", currency: "EUR", rate: "2.20", unitMultiplier: 1 },
        { bankId: "AAA", effectiveDate: "2026-03-01", currency: "USD", rate: "1.1", unitMultiplier: 0 },
      ]);
      expect(await storedFigures(store, [], "2026-03-01", "2026-03-04")).toEqual([]);
    });
    it("loads in one read what screening needs: the bank's figures and decisions, the others' around what changed", async () => {
      const cnb = ["2026-02-20", "2026-03-02", "2026-03-03", "2026-03-04"].map((d, i) => rec(d, "USD", `20.${i}`));
      const held: HeldRow = {
        kind: "bad-rate",
        reason: "held for the test",
        source: "row 9",
        effectiveDate: "2026-03-04",
        currency: "EUR",
        rate: "2.5",
      };
      await storeParsed(store, CNB.bank, [{ doc: doc(), records: cnb, held: [held] }], "fetch", false);
      const days = ["2026-02-27", "2026-02-28", "2026-03-01", "2026-03-02", "2026-03-03", "2026-03-04"];
      const quoting = { baseCurrency: "EUR", quoteType: "Indirect" as const };
      await storeBatches(
        store,
        "AAA",
        [{ provenance: provenance(), records: days.map((d) => rec(d, "USD", "1.1")) }],
        AT,
        quoting,
      );
      const newUsd = rec("2026-03-04", "USD", "20.9");
      const heldAgain = rec("2026-03-04", "EUR", "2.5");
      const answers = [{ records: [cnb[1]!, cnb[2]!] }, { records: [newUsd, heldAgain] }];
      const query = { bankId: "CNB", answers, ownDaysBefore: 14, othersDaysBefore: 2 };
      const snapshot = await loadOnly(store, query);
      expect(snapshot.own.map((f) => [f.effectiveDate, f.rate])).toEqual([
        ["2026-02-20", "20.0"],
        ["2026-03-02", "20.1"],
        ["2026-03-03", "20.2"],
        ["2026-03-04", "20.3"],
      ]);
      expect(snapshot.changed).toEqual([[], [newUsd, heldAgain]]);
      expect(snapshot.decided).toEqual(new Map([["2026-03-04 EUR 2.5 0", "held"]]));
      expect(snapshot.banks).toEqual(new Map([["AAA", quoting]]));
      // The other banks' figures from the lag before the first changed date (2026-03-04), not before
      // the answers' first date (2026-03-02).
      expect(snapshot.others.map((f) => `${f.bankId} ${f.effectiveDate}`)).toEqual([
        "AAA 2026-03-02",
        "AAA 2026-03-03",
        "AAA 2026-03-04",
      ]);
      // With the measures named, only the currencies that can judge this ingest are read: the measures,
      // and the currencies of the bank's figures and answers (USD, EUR); AAA's THB cannot judge CNB.
      await storeBatches(
        store,
        "AAA",
        [{ provenance: provenance(), records: [rec("2026-03-03", "THB", "38.5"), rec("2026-03-03", "CZK", "25.1")] }],
        AT,
        quoting,
      );
      const everything = await loadOnly(store, query);
      expect(everything.others.map((f) => `${f.effectiveDate} ${f.currency}`)).toEqual([
        "2026-03-02 USD",
        "2026-03-03 CZK",
        "2026-03-03 THB",
        "2026-03-03 USD",
        "2026-03-04 USD",
      ]);
      const measured = await loadOnly(store, { ...query, measures: ["CZK"] });
      expect(measured.others.map((f) => `${f.effectiveDate} ${f.currency}`)).toEqual([
        "2026-03-02 USD",
        "2026-03-03 CZK",
        "2026-03-03 USD",
        "2026-03-04 USD",
      ]);
      // Nothing changed: nothing of the other banks is read; without the jump window, only the answers' days.
      const unchanged = await loadOnly(store, { ...query, answers: [answers[0]!], ownDaysBefore: 0 });
      expect(unchanged.changed).toEqual([[]]);
      expect(unchanged.own.map((f) => f.effectiveDate)).toEqual(["2026-03-02", "2026-03-03"]);
      expect([unchanged.banks.size, unchanged.others.length]).toEqual([0, 0]);
      // Without the check, neither.
      const unchecked = await loadOnly(store, { bankId: "CNB", answers, ownDaysBefore: 0 });
      expect(unchecked.changed).toEqual([[], [newUsd, heldAgain]]);
      expect([unchecked.banks.size, unchecked.others.length]).toEqual([0, 0]);
    });
  });

  describe("anomalies", () => {
    const held: HeldRow[] = [
      { kind: "bad-rate", reason: 'rate "n/a" is not a decimal', source: "row 2", currency: "XAU", rate: "n/a" },
    ];

    it("records a held row once; the same row again counts as seen again", async () => {
      const first = await storeParsed(
        store,
        CNB.bank,
        parsedOf([rec("2026-03-02", "EUR", "24.170")], held),
        "fetch",
        false,
      );
      expect(first).toMatchObject({ inserted: 1, held: 1, warned: 0 });
      expect(first.newAnomalies).toHaveLength(1);
      const again = await storeParsed(
        store,
        CNB.bank,
        parsedOf([rec("2026-03-02", "EUR", "24.170")], held),
        "fetch",
        false,
      );
      expect(again).toMatchObject({ inserted: 0, unchanged: 1, held: 1, newAnomalies: [] });
      const list = await listAnomalies(store);
      expect(list).toMatchObject([
        {
          bankId: "CNB",
          kind: "bad-rate",
          currency: "XAU",
          rate: "n/a",
          status: "held",
          timesSeen: 2,
          source: "row 2",
        },
      ]);
      expect(await anomalyCounts(store)).toEqual(new Map([["CNB", { held: 1, warned: 0 }]]));
    });

    it("holds a direction slip against other banks, keeps it held, and takes it once released", async () => {
      const others = async (date: string, czkPerEur: string, plnPerCzk: string) => {
        await storeParsed(
          store,
          EURB.bank,
          parsedOf([rec(date, "USD", "1.0850"), rec(date, "CZK", czkPerEur)]),
          "fetch",
        );
        await storeParsed(
          store,
          PLNB.bank,
          parsedOf([rec(date, "USD", "3.9500"), rec(date, "CZK", plnPerCzk)]),
          "fetch",
        );
      };
      await others("2026-03-02", "24.196", "0.1771");
      const slip = [rec("2026-03-02", "USD", "0.04484")];
      const first = await storeParsed(store, CNB.bank, parsedOf(slip), "fetch");
      expect(first).toMatchObject({ inserted: 0, held: 1 });
      const [anomaly] = await listAnomalies(store, { banks: ["CNB"] });
      expect(anomaly).toMatchObject({ kind: "direction-slip", status: "held", rate: "0.04484", currency: "USD" });
      // Sent again: still held, without a second anomaly.
      const again = await storeParsed(store, CNB.bank, parsedOf(slip), "fetch");
      expect(again).toMatchObject({ inserted: 0, held: 1, newAnomalies: [] });
      expect(await listAnomalies(store, { banks: ["CNB"] })).toHaveLength(1);
      // Released by a person: stored as from the answer it was held from; the next ingest takes it.
      await releaseAnomaly(store, anomaly!.id, "reviewer", new Date("2026-03-02T15:00:00.000Z"));
      expect((await ratesOn(store, "CNB", "2026-03-02")).map((r) => r.rate)).toEqual(["0.04484"]);
      expect(await listAnomalies(store, { banks: ["CNB"] })).toMatchObject([
        { status: "released", releasedBy: "reviewer", releasedAt: "2026-03-02T15:00:00.000Z" },
      ]);
      const stored = await store.db
        .selectFrom("rates")
        .select("fetch_id")
        .where("bank_id", "=", "CNB")
        .executeTakeFirst();
      expect(stored!.fetch_id).toBe(anomaly!.fetchId);
      const after = await storeParsed(store, CNB.bank, parsedOf(slip), "fetch");
      expect(after).toMatchObject({ inserted: 0, unchanged: 1, held: 0 });
      await expect(releaseAnomaly(store, anomaly!.id, "reviewer")).rejects.toThrow(/is released, not held/);
    });

    it("releases a held period figure with its validity, in force over its period", async () => {
      const month = (currency: string, rate: string): RateRecord => ({
        effectiveDate: "2026-03-01",
        currency,
        rate,
        validTo: "2026-03-31",
      });
      // The same month and currency twice with different figures: the gate holds both.
      const gated = gateRecords("GBP", [month("USD", "1.2650"), month("USD", "1.2710"), month("EUR", "1.1820")]);
      const parsed = parsedOf(gated.records, gated.held);
      expect(await storeParsed(store, MONTHLY.bank, parsed, "fetch")).toMatchObject({ inserted: 1, held: 2 });
      const held = await listAnomalies(store, { banks: ["MONTHLY"] });
      expect(held.map((a) => [a.kind, a.rate, a.validTo])).toEqual([
        ["conflict", "1.2650", "2026-03-31"],
        ["conflict", "1.2710", "2026-03-31"],
      ]);
      await releaseAnomaly(store, held[1]!.id, "reviewer", new Date("2026-03-02T15:00:00.000Z"));
      const stored = await store.db
        .selectFrom("rates")
        .select(["rate", "valid_to"])
        .where("bank_id", "=", "MONTHLY")
        .where("currency", "=", "USD")
        .execute();
      expect(stored).toEqual([{ rate: "1.2710", valid_to: "2026-03-31" }]);
      const figures = await periodFiguresOf(store, "MONTHLY", "2026-03-01", "2026-04-30");
      expect(inForceOn(figures, "2026-03-31")?.rows.map((r) => [r.currency, r.rate, r.validTo])).toEqual([
        ["EUR", "1.1820", "2026-03-31"],
        ["USD", "1.2710", "2026-03-31"],
      ]);
      expect(inForceOn(figures, "2026-04-01")).toBeUndefined();
    });
  });

  it("keeps each bank's latest run", async () => {
    await recordRunStarted(store, "CNB", "catch-up", AT);
    await recordRunWaiting(store, "CNB", { message: "waiting", expected: "2026-03-02", error: "HTTP 503" }, AT);
    await recordRunFinished(store, "CNB", { state: "ok", message: "stored" }, new Date("2026-03-02T14:00:00.000Z"));
    const run = (await latestRuns(store)).get("CNB");
    expect(run).toMatchObject({
      state: "ok",
      reason: "catch-up",
      started_at: AT.toISOString(),
      finished_at: "2026-03-02T14:00:00.000Z",
      expected_date: "2026-03-02",
      last_error: "HTTP 503",
      pid: process.pid,
    });
  });

  it("stores events in order and queues them for webhooks", async () => {
    const hook = await addWebhook(store, { url: "https://hooks.example/x", banks: ["cnb"] }, AT);
    const data = (bankId: string) => ({
      bankId,
      effectiveDate: "2026-03-02",
      publishedAt: AT.toISOString(),
      currencies: ["EUR", "USD"],
      revision: false,
      latest: { json: "/a.json", xml: "/a.xml", csv: "/a.csv", xlsx: "/a.xlsx" },
    });
    const ids = await recordEvents(
      store,
      [
        { data: data("CNB"), generation: "g1" },
        { data: data("ECB"), generation: "g1" },
      ],
      AT,
    );
    expect(ids).toHaveLength(2);
    expect(ids[1]! > ids[0]!).toBe(true);
    const events = await eventsAfter(store, 0);
    expect(events.map((e) => [e.id, e.data.bankId, (e.data as RatesPublished).currencies])).toEqual([
      [ids[0], "CNB", ["EUR", "USD"]],
      [ids[1], "ECB", ["EUR", "USD"]],
    ]);
    expect((await eventsAfter(store, ids[0]!)).map((e) => e.id)).toEqual([ids[1]]);
    const due = await dueDeliveries(store, new Date(AT.getTime() + 1000));
    expect(due.map((d) => [d.webhookId, d.event.data.bankId])).toEqual([[hook.id, "CNB"]]);
    expect((await listWebhooks(store)).map((w) => w.id)).toEqual([hook.id]);
  });

  it("redacts a secret written into a provenance column, never the figures", async () => {
    const secret = "k3y-0f-the-bank-1234";
    registerSecret(secret);
    await storeParsed(
      store,
      CNB.bank,
      [
        {
          doc: doc(`https://bank.example/feed?apikey=${secret}`),
          records: [rec("2026-03-02", "EUR", "24.170")],
          held: [{ kind: "bad-row", reason: `row mentions ${secret}`, source: "row 9" }],
        },
      ],
      "fetch",
      false,
    );
    await recordFailedFetch(
      store,
      "CNB",
      { kind: "fetch", method: "GET", url: `https://bank.example/${secret}/`, startedAt: AT, finishedAt: AT },
      `HTTP 401 for key ${secret}`,
    );
    const fetches = await store.db.selectFrom("fetches").select(["url", "error"]).orderBy("id").execute();
    expect(fetches).toEqual([
      { url: "https://bank.example/feed?apikey=***", error: null },
      // Written as given (the store's callers redact URLs first): the net catches it.
      { url: "https://bank.example/***/", error: "HTTP 401 for key ***" },
    ]);
    expect((await listAnomalies(store)).map((a) => a.reason)).toEqual(["row mentions ***"]);
    expect((await ratesOn(store, "CNB", "2026-03-02")).map((r) => r.rate)).toEqual(["24.170"]);
  });
});
