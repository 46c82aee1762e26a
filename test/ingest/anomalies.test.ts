// Ingest end to end on a real adapter's format (the CNB's JSON): a bad row costs only itself and is
// stored as an anomaly once; the cross-bank check holds unit and direction slips against other banks'
// stored figures and lets a real move through; a held figure is never published until released.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import cnb from "../../adapters/CNB.js";
import { parseDocuments, storeParsed } from "../../src/ingest/ingest.js";
import { releaseAnomaly } from "../../src/ingest/release.js";
import { publish } from "../support/unsigned.js";
import { listAnomalies } from "../../src/store/anomalies.js";
import type { SqliteStore as Store } from "../../src/store/database.js";
import type { FeedDocument, RateRecord } from "../../src/types.js";
import { testBank } from "../support/publish.js";
import { tempStore } from "../support/store.js";

const DAY = "2026-03-02";
const answer = (rows: Array<{ date?: string; code: string; amount?: number | string; rate: string }>): FeedDocument => {
  const body = `{"rates":[${rows
    .map((r) => `{"validFor":"${r.date ?? DAY}","currencyCode":"${r.code}","amount":${r.amount ?? 1},"rate":${r.rate}}`)
    .join(",")}]}`;
  const at = new Date("2026-03-02T13:31:00Z");
  return {
    url: "https://api.cnb.cz/cnbapi/exrates/daily-year?lang=EN&year=2026",
    method: "GET",
    status: 200,
    contentType: "application/json",
    body: Buffer.from(body),
    startedAt: at,
    finishedAt: at,
  };
};

// Two other banks that quote the US dollar and the koruna: one Indirect (EUR base), one Direct (PLN base).
const eurBank = testBank("EURB", { bankCurrency: "EUR", quoteType: "Indirect" });
const plnBank = testBank("PLNB", { bankCurrency: "PLN", quoteType: "Direct" });

async function storeOther(store: Store, bank: typeof eurBank, records: RateRecord[]): Promise<void> {
  const at = new Date();
  const doc: FeedDocument = { ...answer([]), url: `https://${bank.bank.id}.example/`, startedAt: at, finishedAt: at };
  await storeParsed(store, bank.bank, [{ doc, records, held: [] }], "fetch");
}

async function othersOn(store: Store, date: string, czkPerEur: string, plnPerCzk: string): Promise<void> {
  await storeOther(store, eurBank, [
    { effectiveDate: date, currency: "USD", rate: "1.0850" },
    { effectiveDate: date, currency: "CZK", rate: czkPerEur },
  ]);
  await storeOther(store, plnBank, [
    { effectiveDate: date, currency: "USD", rate: "3.9500" },
    { effectiveDate: date, currency: "CZK", rate: plnPerCzk },
  ]);
}

const ingest = async (store: Store, doc: FeedDocument) =>
  storeParsed(store, cnb.bank, await parseDocuments(cnb, [doc]), "fetch");
const stored = (store: Store, currency: string, date = DAY) =>
  store.sqlite
    .prepare("select rate from rates where bank_id = 'CNB' and effective_date = ? and currency = ?")
    .pluck()
    .get(date, currency) as string | undefined;

let ctx: Awaited<ReturnType<typeof tempStore>>;
beforeEach(async () => {
  ctx = await tempStore();
});
afterEach(() => ctx.cleanup());

describe("a bad row costs only itself", () => {
  const withBadRow = answer([
    { code: "EUR", rate: "24.170" },
    { code: "USD", rate: '"n/a"' },
    { code: "JPY", amount: 100, rate: "13.141" },
  ]);

  it("stores every other row and records the bad one as a held anomaly with its reason and answer", async () => {
    const outcome = await ingest(ctx.store, withBadRow);
    expect([outcome.inserted, outcome.held]).toEqual([2, 1]);
    expect([stored(ctx.store, "EUR"), stored(ctx.store, "JPY"), stored(ctx.store, "USD")]).toEqual([
      "24.170",
      "13.141",
      undefined,
    ]);
    const [a, ...rest] = await listAnomalies(ctx.store);
    expect(rest).toEqual([]);
    expect(a).toMatchObject({
      bankId: "CNB",
      effectiveDate: DAY,
      currency: "USD",
      rate: "n/a",
      kind: "bad-rate",
      status: "held",
      source: "rates[1]",
      fetchId: outcome.fetchIds[0],
      timesSeen: 1,
    });
    expect(a!.reason).toMatch(/not a decimal/);
    expect(outcome.newAnomalies).toHaveLength(1);
  });

  it("adds no duplicate anomaly when the same answer is ingested again", async () => {
    await ingest(ctx.store, withBadRow);
    const again = await ingest(ctx.store, withBadRow);
    expect([again.inserted, again.unchanged, again.held, again.newAnomalies.length]).toEqual([0, 2, 1, 0]);
    const list = await listAnomalies(ctx.store);
    expect(list.map((a) => [a.kind, a.timesSeen])).toEqual([["bad-rate", 2]]);
  });

  it("holds both figures of a date and currency given twice, and takes the rest", async () => {
    const outcome = await ingest(
      ctx.store,
      answer([
        { code: "EUR", rate: "24.170" },
        { code: "USD", rate: "20.611" },
        { code: "USD", rate: "20.116" },
      ]),
    );
    expect([outcome.inserted, outcome.held]).toEqual([1, 2]);
    expect((await listAnomalies(ctx.store)).map((a) => [a.kind, a.rate])).toEqual([
      ["conflict", "20.611"],
      ["conflict", "20.116"],
    ]);
  });
});

describe("the cross-bank check at ingest", () => {
  // 1 EUR = 24.196 CZK and 1 CZK = 0.1771 PLN: 1 USD = 22.30 CZK by both banks.
  beforeEach(() => othersOn(ctx.store, DAY, "24.196", "0.1771"));

  it("holds a unit slip, stores the rest, and never publishes the held figure", async () => {
    const outcome = await ingest(
      ctx.store,
      answer([
        { code: "EUR", rate: "24.170" },
        { code: "USD", rate: "2230.0" },
      ]),
    );
    expect([outcome.inserted, outcome.held]).toEqual([1, 1]);
    expect(stored(ctx.store, "USD")).toBeUndefined();
    const [a] = await listAnomalies(ctx.store);
    expect(a).toMatchObject({ kind: "unit-slip", status: "held", currency: "USD", rate: "2230.0" });
    const out = join(ctx.dir, "out");
    await publish(ctx.store, [cnb], out);
    const latest = readFileSync(join(out, "v1/Banks/CNB/DailyRates/Latest.json"), "utf8");
    expect(latest).toContain("24.170");
    expect(latest).not.toContain("2230.0");
  });

  it("holds a direction slip", async () => {
    await ingest(ctx.store, answer([{ code: "USD", rate: "0.04484" }]));
    expect((await listAnomalies(ctx.store)).map((a) => [a.kind, a.status])).toEqual([["direction-slip", "held"]]);
    expect(stored(ctx.store, "USD")).toBeUndefined();
  });

  it("lets through a devaluation two other banks show on the same day", async () => {
    await ingest(ctx.store, answer([{ date: "2026-02-27", code: "USD", rate: "22.300" }]));
    await othersOn(ctx.store, "2026-03-03", "33.875", "0.1265");
    const outcome = await ingest(ctx.store, answer([{ date: "2026-03-03", code: "USD", rate: "31.220" }]));
    expect([outcome.inserted, outcome.held, outcome.warned]).toEqual([1, 0, 0]);
    expect(stored(ctx.store, "USD", "2026-03-03")).toBe("31.220");
    expect(await listAnomalies(ctx.store, { banks: ["CNB"] })).toEqual([]);
  });

  it("keeps a held figure held without a new entry when it is sent again, and takes it once released", async () => {
    const slip = answer([{ code: "USD", rate: "2230.0" }]);
    await ingest(ctx.store, slip);
    const again = await ingest(ctx.store, slip);
    expect([again.inserted, again.held]).toEqual([0, 1]);
    const [a, ...rest] = await listAnomalies(ctx.store);
    expect(rest).toEqual([]);
    await releaseAnomaly(ctx.store, a!.id, "reviewer", new Date("2026-03-02T15:00:00Z"));
    expect(stored(ctx.store, "USD")).toBe("2230.0");
    const [released] = await listAnomalies(ctx.store);
    expect(released).toMatchObject({
      status: "released",
      releasedBy: "reviewer",
      releasedAt: "2026-03-02T15:00:00.000Z",
    });
    const afterRelease = await ingest(ctx.store, slip);
    expect([afterRelease.unchanged, afterRelease.held, afterRelease.newAnomalies.length]).toEqual([1, 0, 0]);
  });

  it("refuses to release what is not a publishable figure", async () => {
    await ingest(ctx.store, answer([{ code: "USD", rate: '"n/a"' }]));
    const [a] = await listAnomalies(ctx.store);
    await expect(releaseAnomaly(ctx.store, a!.id, "reviewer")).rejects.toThrow(
      /cannot be published: its figure "n\/a"/,
    );
    await expect(releaseAnomaly(ctx.store, 999, "reviewer")).rejects.toThrow(/no anomaly 999/);
  });
});
