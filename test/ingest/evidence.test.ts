// Units by evidence and the check through a common currency, end to end on both engines: real-format
// answers of CBG (one JSON history per currency, dates as epoch milliseconds, units not stated, base
// GMD that no other bank quotes) stored beside two other banks' figures.
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import cbg from "../../adapters/CBG.js";
import { parseDocuments, storeParsed } from "../../src/ingest/ingest.js";
import { DEFAULT_CROSS_CHECK } from "../../src/ingest/sanity.js";
import { listAnomalies } from "../../src/store/anomalies.js";
import type { Store } from "../../src/store/database.js";
import { storeBatches, type Provenance } from "../../src/store/rates.js";
import type { FeedDocument, RateRecord } from "../../src/types.js";
import { storeDialects } from "../support/postgres.js";

const AT = new Date("2026-03-03T12:00:00.000Z");
const MAR2 = Date.UTC(2026, 2, 2);
const MAR3 = Date.UTC(2026, 2, 3);

const provenance: Provenance = {
  kind: "fetch",
  method: "GET",
  url: "https://bank.example/feed",
  startedAt: AT,
  finishedAt: AT,
  httpStatus: 200,
  body: Buffer.from("answer"),
};

const rec = (currency: string, rate: string): RateRecord => ({ effectiveDate: "2026-03-02", currency, rate });

/** One CBG answer: a currency's history as `[[epoch_ms, rate], ...]`, newest first. */
const answer = (code: string, entries: Array<[number, string]>): FeedDocument => ({
  url: `https://www.cbg.gm/ajax/indicative-exchange-rates/${code}`,
  method: "GET",
  status: 200,
  contentType: "application/json",
  body: Buffer.from(`[${entries.map(([ms, rate]) => `[${ms},${rate}]`).join(",")}]`),
  startedAt: AT,
  finishedAt: AT,
});

/**
 * CBG's answers of 2026-03-02 (72.39 GMD per USD): EUR and GBP agree with the world through USD; CNY is
 * CNY per GMD (0.0981) where GMD per CNY (10.196) was meant; HUF, a currency the adapter has no unit
 * for, is 19.88 GMD per 100 forint. HUF of 2026-03-03 has no CBG figure of USD beside it.
 */
const CBG_ANSWERS = [
  answer("USD", [[MAR2, "72.39"]]),
  answer("EUR", [[MAR2, "78.54"]]),
  answer("GBP", [[MAR2, "93.50"]]),
  answer("CNY", [[MAR2, "0.0981"]]),
  answer("HUF", [
    [MAR3, "19.90"],
    [MAR2, "19.88"],
  ]),
];

async function storeOtherBanks(store: Store) {
  const eurb = ["1.0850", "0.8400", "7.7035", "395.00"];
  const usdb = ["0.9217", "0.7742", "7.1000", "364.06"];
  await storeBatches(
    store,
    "EURB",
    [{ provenance, records: ["USD", "GBP", "CNY", "HUF"].map((c, i) => rec(c, eurb[i]!)) }],
    AT,
    { baseCurrency: "EUR", quoteType: "Indirect" },
  );
  await storeBatches(
    store,
    "USDB",
    [{ provenance, records: ["EUR", "GBP", "CNY", "HUF"].map((c, i) => rec(c, usdb[i]!)) }],
    AT,
    { baseCurrency: "USD", quoteType: "Indirect" },
  );
}

describe("a new currency without a unit, held rows dated", () => {
  it("holds the unit-less rows with their ISO date and their figure whole", async () => {
    const parsed = await parseDocuments(cbg, CBG_ANSWERS);
    const huf = parsed[4]!;
    expect(huf.records).toEqual([]);
    expect(huf.held.map((h) => [h.kind, h.effectiveDate, h.currency, h.rate, h.unitless?.rate])).toEqual([
      ["unknown-unit", "2026-03-03", "HUF", "19.90", "19.90"],
      ["unknown-unit", "2026-03-02", "HUF", "19.88", "19.88"],
    ]);
  });
});

describe.each(storeDialects())("units by evidence and the check through USD on $name", (dialect) => {
  let store: Store;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ store, cleanup } = await dialect.open());
  });
  afterEach(async () => {
    await cleanup();
  });

  it("stores HUF per 100 by the evidence of two banks, holds the inverted CNY caught through USD", async () => {
    await storeOtherBanks(store);
    const parsed = await parseDocuments(cbg, CBG_ANSWERS);
    const outcome = await storeParsed(store, cbg.bank, parsed, "fetch", DEFAULT_CROSS_CHECK);
    expect(outcome).toMatchObject({ inserted: 4, held: 2, warned: 0 });
    const rows = await store.db
      .selectFrom("rates")
      .select(["effective_date", "currency", "rate", "unit_multiplier", "derivation"])
      .where("bank_id", "=", "CBG")
      .orderBy("currency")
      .execute();
    expect(rows.map((r) => `${r.effective_date} ${r.currency} ${r.rate} ${r.unit_multiplier}`)).toEqual([
      "2026-03-02 EUR 78.54 0",
      "2026-03-02 GBP 93.50 0",
      "2026-03-02 HUF 19.88 2",
      "2026-03-02 USD 72.39 0",
    ]);
    expect(rows[2]!.derivation).toMatch(
      /^unit 100 by evidence of 2 banks \(EURB, USDB on 2026-03-02\): 0\.002746\d* USD per HUF through the bank's USD at 72\.39 GMD, theirs 0\.00274/,
    );
    const anomalies = await listAnomalies(store, { banks: ["CBG"] });
    expect(anomalies.map((a) => `${a.kind} ${a.status} ${a.effectiveDate} ${a.currency} ${a.rate}`).sort()).toEqual([
      "direction-slip held 2026-03-02 CNY 0.0981",
      "unknown-unit held 2026-03-03 HUF 19.90",
    ]);
    const cny = anomalies.find((a) => a.currency === "CNY")!;
    expect(cny.reason).toContain("(through the bank's USD at 72.39 GMD: 0.00135516 USD per CNY)");
    expect(cny.reason).toContain("its inverse agrees with 2 other banks that day (0.140845 USD per CNY)");
    const huf = anomalies.find((a) => a.currency === "HUF")!;
    expect(huf.reason).toContain("other banks do not settle it");

    // The same answers again: the established figure is stored already and is neither held nor
    // written again; the held ones are counted as seen again, not added.
    const again = await storeParsed(store, cbg.bank, await parseDocuments(cbg, CBG_ANSWERS), "fetch");
    expect(again).toMatchObject({ inserted: 0, revised: 0, held: 2 });
    expect(await listAnomalies(store, { banks: ["CBG"] })).toHaveLength(2);
  });
});
