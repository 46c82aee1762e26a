// The history and discovery endpoints on each store engine (SQLite's HistoryReader, PostgreSQL's
// PostgresHistoryReader): the set in force on a weekday and a weekend, a 404 naming the stored dates,
// a range across a year boundary in JSON, CSV and XLSX read back with the stored digits, a range longer
// than one read chunk, the currency filter, the bank and currency lists, 304 and a new ETag after a
// revision. Both engines must give the same answers.
import { parseCsv } from "../support/csv.js";
import { isLosslessNumber, parse as parseLossless } from "lossless-json";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as XLSX from "@e965/xlsx";

import type { Store } from "../../src/store/database.js";
import { storeBatches } from "../../src/store/rates.js";
import type { QuoteType, RateRecord } from "../../src/types.js";
import { storeDialects } from "../support/postgres.js";
import { startTestServer, type InProcessServer } from "../support/server.js";

// CNB: Fri 20 Dec, Mon 23 Dec, then 24-26 Dec holidays, Fri 27, Mon 30, Tue 31, (1 Jan), Thu 2, Fri 3.
const CNB_DATES = ["2024-12-20", "2024-12-23", "2024-12-27", "2024-12-30", "2024-12-31", "2025-01-02", "2025-01-03"];
const usd = (i: number) => `24.${String(100 + i * 7).padStart(3, "0")}`; // trailing zeros kept: 24.100, 24.107...
const eur = (i: number) => `25.1${i}0`;
const huf = (i: number) => `6.10${i}`;
type Row = [string, string, string, number];

/** The stored rows of CNB between two dates, as [date, currency, rate, unit]. */
function stored(from: string, to: string, currencies = ["EUR", "HUF", "USD"]): Row[] {
  const out: Row[] = [];
  CNB_DATES.forEach((d, i) => {
    if (d < from || d > to) return;
    if (currencies.includes("EUR")) out.push([d, "EUR", eur(i), 0]);
    if (currencies.includes("HUF")) out.push([d, "HUF", huf(i), 2]);
    if (currencies.includes("USD")) out.push([d, "USD", usd(i), 0]);
  });
  return out;
}

type RatesJson = { rates: Record<string, Record<string, { rate: unknown; unitMultiplier?: unknown }>> };
function jsonRows(text: string): Row[] {
  const doc = parseLossless(text) as RatesJson;
  return Object.entries(doc.rates).flatMap(([d, day]) =>
    Object.entries(day).map(([c, r]): Row => [
      d,
      c,
      String(r.rate),
      isLosslessNumber(r.unitMultiplier) ? Number(r.unitMultiplier.value) : 0,
    ]),
  );
}

/** BIG: 3 currencies on 900 consecutive days from 2020-01-01, more rows than one read chunk (2048). */
const BIG_DAYS = 900;
const bigDate = (i: number) => new Date(Date.UTC(2020, 0, 1 + i)).toISOString().slice(0, 10);
const bigRate = (i: number, c: number) => `${c + 1}.${String(i).padStart(4, "0")}0`;

describe.each(storeDialects())("history endpoints on $name", (dialect) => {
  let store: Store;
  let cleanup: () => Promise<void>;
  let server: InProcessServer<Store>;
  let auth: Record<string, string>;
  let fetchCount = 0;

  const ingest = (bank: string, records: RateRecord[], quoting?: { baseCurrency: string; quoteType: QuoteType }) =>
    storeBatches(
      store,
      bank,
      [
        {
          provenance: {
            kind: "import",
            method: "GET",
            url: "https://bank.example/feed",
            startedAt: new Date("2025-01-03T14:00:00Z"),
            finishedAt: new Date(`2025-01-03T14:00:${String(++fetchCount % 60).padStart(2, "0")}Z`),
            httpStatus: 200,
            body: Buffer.from(`${bank} ${fetchCount}`),
          },
          records,
        },
      ],
      new Date(),
      quoting,
    );
  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, { headers: { ...auth, ...headers } });

  beforeAll(async () => {
    ({ store, cleanup } = await dialect.open());
    const records: RateRecord[] = [];
    CNB_DATES.forEach((d, i) => {
      records.push({ effectiveDate: d, currency: "EUR", rate: eur(i) });
      records.push({ effectiveDate: d, currency: "HUF", rate: huf(i), unitMultiplier: 2 });
      records.push({ effectiveDate: d, currency: "USD", rate: usd(i) });
    });
    await ingest("CNB", records, { baseCurrency: "CZK", quoteType: "Direct" });
    await ingest(
      "ECB",
      [
        { effectiveDate: "2025-01-02", currency: "USD", rate: "1.0350" },
        { effectiveDate: "2025-01-03", currency: "USD", rate: "1.0300" },
      ],
      { baseCurrency: "EUR", quoteType: "Indirect" },
    );
    const big: RateRecord[] = [];
    for (let i = 0; i < BIG_DAYS; i++)
      ["AUD", "CAD", "JPY"].forEach((currency, c) =>
        big.push({ effectiveDate: bigDate(i), currency, rate: bigRate(i, c) }),
      );
    await ingest("BIG", big, { baseCurrency: "XDR", quoteType: "Indirect" });
    // A SQLite server reads the file; a PostgreSQL one the store it is given (as a replica does).
    server = await startTestServer({
      store,
      publish: [
        { id: "CNB", date: "2025-01-03" },
        { id: "ECB", date: "2025-01-03" },
      ],
    });
    auth = { authorization: `Bearer ${await server.token()}` };
  });
  afterAll(async () => {
    await server?.stop();
    await cleanup?.();
  });

  it("answers a weekday with its own set, every digit as stored", async () => {
    const res = await get("/v1/Banks/CNB/DailyRates/2024-12-30");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-location")).toBe("/v1/Banks/CNB/DailyRates/2024-12-30");
    expect(jsonRows(await res.text())).toEqual(stored("2024-12-30", "2024-12-30"));
  });

  it("answers a weekend date with the previous publication, named in Content-Location", async () => {
    const res = await get("/v1/Banks/cnb/DailyRates/2024-12-28");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-location")).toBe("/v1/Banks/CNB/DailyRates/2024-12-27");
    expect(jsonRows(await res.text())).toEqual(stored("2024-12-27", "2024-12-27"));
  });

  it("is 404 beyond the publication gap, naming the dates that exist", async () => {
    const res = await get("/v1/Banks/CNB/DailyRates/2025-01-18");
    expect(res.status).toBe(404);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.detail).toMatch(/no set in force on 2025-01-18: its last stored set before it is 2025-01-03/);
    expect(body).toMatchObject({
      firstDate: "2024-12-20",
      latestDate: "2025-01-03",
      previousDate: "2025-01-03",
      missingPublicationDayCount: 10,
    });
    expect((await get("/v1/Banks/CNB/DailyRates/2024-12-19")).status).toBe(404);
  });

  describe("a range across a year boundary", () => {
    const path = "/v1/Banks/CNB/DailyRates?from=2024-12-27&to=2025-01-02";
    const expected = stored("2024-12-27", "2025-01-02");

    it("JSON", async () => {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(jsonRows(await res.text())).toEqual(expected);
    });

    it("CSV", async () => {
      const res = await get(`${path}&format=csv`);
      expect(res.headers.get("content-disposition")).toBe('attachment; filename="CNB-2024-12-27-2025-01-02.csv"');
      const rows: string[][] = parseCsv(await res.text());
      expect(rows[0]).toEqual(["BankId", "From Currency", "To Currency", "Effective Date", "Exchange Rate", "Unit"]);
      expect(rows.slice(1)).toEqual(expected.map(([d, c, r, u]) => ["CNB", c, "CZK", d, r, `1${"0".repeat(u)}`]));
    });

    it("XLSX", async () => {
      const res = await get(path.replace("DailyRates", "DailyRates.xlsx"));
      expect(res.status).toBe(200);
      const wb = XLSX.read(Buffer.from(await res.arrayBuffer()), { cellDates: true, cellNF: true });
      const rows = XLSX.utils
        .sheet_to_json<unknown[]>(wb.Sheets.Rates!, { header: 1, raw: false, dateNF: "yyyy-mm-dd" })
        .slice(1);
      expect(rows.map((r) => [r[3], r[1], r[4], Math.log10(Number(r[5]))])).toEqual(expected);
    });
  });

  it("streams a range longer than one read chunk, every row once and in order", async () => {
    const res = await get(`/v1/Banks/BIG/DailyRates.csv?from=2020-01-01&to=2022-12-31`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBeNull();
    const lines = (await res.text()).trimEnd().split("\n").slice(1);
    expect(lines).toHaveLength(BIG_DAYS * 3);
    const want: string[] = [];
    for (let i = 0; i < BIG_DAYS; i++)
      ["AUD", "CAD", "JPY"].forEach((c, k) => want.push(`BIG,XDR,${c},${bigDate(i)},${bigRate(i, k)},1`));
    expect(lines).toEqual(want);
  });

  it("writes a long range as XLSX from the read chunks, every row with its digits", async () => {
    const res = await get(`/v1/Banks/BIG/DailyRates.xlsx?from=2020-01-01&to=2022-12-31`);
    expect(res.status).toBe(200);
    const wb = XLSX.read(Buffer.from(await res.arrayBuffer()), { cellDates: true, cellNF: true });
    const rows = XLSX.utils
      .sheet_to_json<unknown[]>(wb.Sheets.Rates!, { header: 1, raw: false, dateNF: "yyyy-mm-dd" })
      .slice(1);
    const want: unknown[][] = [];
    for (let i = 0; i < BIG_DAYS; i++)
      ["AUD", "CAD", "JPY"].forEach((c, k) => want.push([bigDate(i), c, bigRate(i, k)]));
    expect(rows.map((r) => [r[3], r[2], r[4]])).toEqual(want);
  });

  it("gives a range's snapshot back when its client goes away mid-response", async () => {
    const abort = new AbortController();
    const res = await fetch(`${server.url}/v1/Banks/BIG/DailyRates.csv?from=2020-01-01&to=2022-12-31`, {
      headers: auth,
      signal: abort.signal,
    });
    expect(res.status).toBe(200);
    abort.abort();
    if (store.dialect === "postgres") {
      const pool = store.pool;
      for (let i = 0; i < 200 && pool.idleCount < pool.totalCount; i++) await new Promise((r) => setTimeout(r, 10));
      expect(pool.idleCount).toBe(pool.totalCount);
    }
    // The server goes on answering ranges.
    const again = await get("/v1/Banks/CNB/DailyRates?from=2024-12-20&to=2025-01-03&currencies=EUR");
    expect(jsonRows(await again.text())).toEqual(stored("2024-12-20", "2025-01-03", ["EUR"]));
  });

  it("filters currencies and names those not quoted", async () => {
    const dated = await get("/v1/Banks/CNB/DailyRates/2024-12-31?currencies=usd,jpy");
    expect(dated.headers.get("x-currencies-not-quoted")).toBe("JPY");
    expect(jsonRows(await dated.text())).toEqual(stored("2024-12-31", "2024-12-31", ["USD"]));
    const range = await get("/v1/Banks/CNB/DailyRates?from=2024-12-20&to=2025-01-03&currencies=HUF,GBP");
    expect(range.headers.get("x-currencies-not-quoted")).toBe("GBP");
    expect(jsonRows(await range.text())).toEqual(stored("2024-12-20", "2025-01-03", ["HUF"]));
  });

  it("lists the banks with their stored spans, and the currencies with since dates", async () => {
    const banks = await get("/v1/banks");
    expect(banks.status).toBe(200);
    const list = ((await banks.json()) as { banks: Array<Record<string, unknown>> }).banks;
    expect(list.map((b) => [b.id, b.firstEffectiveDate, b.latestEffectiveDate])).toEqual([
      ["CNB", "2024-12-20", "2025-01-03"],
      ["ECB", "2025-01-02", "2025-01-03"],
    ]);
    expect((await get("/v1/banks", { "if-none-match": banks.headers.get("etag")! })).status).toBe(304);
    const currencies = await get("/v1/currencies");
    const body = (await currencies.json()) as { currencies: Array<{ code: string; banks: unknown[] }> };
    expect(body.currencies.map((c) => c.code)).toEqual(["AUD", "CAD", "EUR", "HUF", "JPY", "USD"]);
    expect(body.currencies.find((c) => c.code === "USD")!.banks).toEqual([
      { bankId: "CNB", since: "2024-12-20", latest: "2025-01-03" },
      { bankId: "ECB", since: "2025-01-02", latest: "2025-01-03" },
    ]);
  });

  it("answers 304 for the ETag until a figure behind it is revised, then the new digits", async () => {
    const dated = "/v1/Banks/CNB/DailyRates/2025-01-02.csv";
    const range = "/v1/Banks/CNB/DailyRates?from=2025-01-01&to=2025-01-03";
    const first = await get(dated);
    const etag = first.headers.get("etag")!;
    const rangeEtag = (await get(range)).headers.get("etag")!;
    expect((await get(dated, { "if-none-match": etag })).status).toBe(304);
    expect((await get(range, { "if-none-match": rangeEtag })).status).toBe(304);
    // Another bank's ingest keeps the answer.
    await ingest("ECB", [{ effectiveDate: "2025-01-06", currency: "USD", rate: "1.0400" }]);
    expect((await get(dated, { "if-none-match": etag })).status).toBe(304);
    await ingest("CNB", [{ effectiveDate: "2025-01-02", currency: "USD", rate: "24.9990" }]);
    const revised = await get(dated, { "if-none-match": etag });
    expect(revised.status).toBe(200);
    expect(revised.headers.get("etag")).not.toBe(etag);
    expect(await revised.text()).toContain("CNB,USD,CZK,2025-01-02,24.9990,1\n");
    const revisedRange = await get(range, { "if-none-match": rangeEtag });
    expect(revisedRange.status).toBe(200);
    expect(jsonRows(await revisedRange.text())).toContainEqual(["2025-01-02", "USD", "24.9990", 0]);
  });
});
