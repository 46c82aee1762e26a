// End to end, without internet: `exrates backfill ECB CNB CBR --from 2025-01-01` through the shared feed
// mirror, then `exrates serve`; a client with an openid-client token reads dates and ranges of each bank
// in four formats, and every rate is the text the bank's feed gave: the stored rows are exactly what the
// bank's adapter reads from the recordings the mirror served, and the publication days the recordings do
// not cover are counted in the backfill's summary (the mirror answers a query it has no recording of
// with the first recording of the same path, so most of 2025 and 2026 is not there).
import { readFileSync } from "node:fs";
import { join } from "node:path";

import BetterSqlite3 from "better-sqlite3";
import { parseCsv } from "../support/csv.js";
import { XMLParser } from "fast-xml-parser";
import { isLosslessNumber, parse as parseLossless } from "lossless-json";
import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as XLSX from "@e965/xlsx";

import type { BackfillSummary } from "../../src/backfill/backfill.js";
import { addDays } from "../../src/feed/dates.js";
import { adapterFor } from "../../src/feed/registry.js";
import { parseDocuments, readSavedResponse } from "../../src/ingest/ingest.js";
import { expectedNewestDate, publicationDaysBetween } from "../../src/schedule/time.js";
import { FEEDS, haveMirror } from "../support/mirror.js";
import { testSite, type ChildServer, type TestSite } from "../support/server.js";

type Row = [string, string, string, number];

// In CI the recordings are a prerequisite: without them the test fails (startMirror throws) rather than skips.
describe.skipIf(!haveMirror && process.env.CI !== "true")(
  "history of the reference banks through the feed mirror",
  { timeout: 180_000 },
  () => {
    let site: TestSite;
    let server: ChildServer;
    let url: string;
    let auth: Record<string, string>;
    let db: BetterSqlite3.Database;
    let summary: BackfillSummary;
    let served: Array<{ request: string; file: string }>;

    beforeAll(async () => {
      site = await testSite({ feeds: ["ECB", "CNB", "CBR"], prefix: "exrates-e2e-history-" });
      const env = site.env;
      // The command as it is (the polite pause included), with the summary as JSON.
      const backfill = await site.cli(["backfill", "ECB", "CNB", "CBR", "--from", "2025-01-01", "--json"], {}, 100_000);
      expect(backfill.code, backfill.stderr.slice(-1500)).toBe(0);
      summary = JSON.parse(backfill.stdout) as BackfillSummary;
      served = site.mirror!.served();
      server = await site.serve({ client: await site.createClient("erp") });
      url = server.url;
      const { id, secret } = server.client!;
      const config = await client.discovery(
        new URL(`${url}/auth/realms/exrates`),
        id,
        undefined,
        client.ClientSecretPost(secret),
        { execute: [client.allowInsecureRequests] },
      );
      const tokens = await client.clientCredentialsGrant(config, { scope: "exchange-rates" });
      auth = { authorization: `Bearer ${tokens.access_token}` };
      db = new BetterSqlite3(join(env.EXRATES_DATA_DIR, "exrates.db"), { readonly: true });
    }, 170_000);
    afterAll(async () => {
      db?.close();
      await server?.stop("SIGTERM", 15_000);
      await site?.close();
    });

    const get = (path: string) => fetch(`${url}${path}`, { headers: auth });
    const datesOf = (bank: string) =>
      db
        .prepare("select distinct effective_date from rates where bank_id = ? order by 1")
        .pluck()
        .all(bank) as string[];
    const stored = (bank: string, from: string, to: string): Row[] =>
      (
        db
          .prepare(
            "select effective_date, currency, rate, unit_multiplier from rates where bank_id = ? and effective_date between ? and ? order by 1, 2",
          )
          .raw()
          .all(bank, from, to) as Row[]
      ).map(([d, c, r, u]) => [d, c, r, u]);
    const jsonRows = (text: string): Row[] => {
      const doc = parseLossless(text) as {
        rates: Record<string, Record<string, { rate: unknown; unitMultiplier?: unknown }>>;
      };
      return Object.entries(doc.rates).flatMap(([d, day]) =>
        Object.entries(day).map(([c, r]): Row => [
          d,
          c,
          isLosslessNumber(r.rate) ? r.rate.value : "not a number",
          isLosslessNumber(r.unitMultiplier) ? Number(r.unitMultiplier.value) : 0,
        ]),
      );
    };

    /**
     * What the bank's adapter reads from the recordings the mirror served for the answers the backfill
     * stored (its fetches; an answer read only to find the data, as CBR's daily list for a range, is not
     * one), by date then currency.
     */
    async function recorded(bank: string): Promise<Row[]> {
      const adapter = await adapterFor(bank);
      const file = new Map(served.map((a) => [a.request, a.file]));
      const urls = db
        .prepare("select distinct url from fetches where bank_id = ? and kind = 'fetch'")
        .pluck()
        .all(bank);
      expect(urls.length).toBeGreaterThan(0);
      const byKey = new Map<string, Row>();
      for (const url of urls as string[]) {
        // The mirror is asked for https://host/path?query as /host/path?query.
        const answer = file.get(`GET /${url.replace(/^https:\/\//, "")}`);
        expect(answer, `the mirror's answer to ${url}`).toBeDefined();
        const doc = await readSavedResponse(adapter, join(FEEDS, answer!), { url });
        for (const r of (await parseDocuments(adapter, [doc]))[0]!.records) {
          const row: Row = [r.effectiveDate, r.currency, r.rate, r.unitMultiplier ?? 0];
          const key = `${r.effectiveDate} ${r.currency}`;
          // Two recordings giving one date and currency must agree (else the store would hold a revision).
          expect(byKey.get(key) ?? row, `${bank} ${key} in ${answer}`).toEqual(row);
          byKey.set(key, row);
        }
      }
      return [...byKey.values()].sort((a, b) => (`${a[0]} ${a[1]}` < `${b[0]} ${b[1]}` ? -1 : 1));
    }

    it.each(["ECB", "CNB", "CBR"])(
      "%s: the backfill stored exactly what the served recordings hold, and counted the days they miss",
      async (bank) => {
        const s = summary.banks.find((b) => b.bankId === bank)!;
        expect(s).toMatchObject({ from: "2025-01-01", failed: 0, revised: 0, errors: [] });
        expect(s.stored).toBe(s.chunks);
        const expected = await recorded(bank);
        expect(expected.length).toBeGreaterThan(0);
        expect(stored(bank, "2025-01-01", s.to)).toEqual(expected);
        expect(db.prepare("select count(*) from anomalies where bank_id = ?").pluck().get(bank)).toBe(0);
        // Every publication day of the range up to the newest one due by now without rates is counted.
        const adapter = await adapterFor(bank);
        const expectedNewest = expectedNewestDate(adapter.bank, new Date());
        const last = s.to < expectedNewest ? s.to : expectedNewest;
        const have = new Set(datesOf(bank));
        const missing = publicationDaysBetween(adapter.bank, addDays(s.from, -1), last).filter((d) => !have.has(d));
        expect(missing.length).toBeGreaterThan(200);
        expect(s.daysWithoutPublication).toBe(missing.length);
      },
    );

    it.each(["ECB", "CNB", "CBR"])(
      "%s: the whole backfilled range in four formats is the recordings' digits",
      async (bank) => {
        const expected = await recorded(bank);
        const to = summary.banks.find((b) => b.bankId === bank)!.to;
        const range = `from=2025-01-01&to=${to}`;
        expect(jsonRows(await (await get(`/v1/Banks/${bank}/DailyRates?${range}`)).text())).toEqual(expected);
        const csv: string[][] = parseCsv(await (await get(`/v1/Banks/${bank}/DailyRates.csv?${range}`)).text());
        expect(csv.slice(1).map((r) => [r[3], r[4]])).toEqual(expected.map((r) => [r[0], r[2]]));
        const xml = await (await get(`/v1/Banks/${bank}/DailyRates.xml?${range}`)).text();
        const values = [...xml.matchAll(/<Rate currency="([A-Z]{3})" value="([^"]+)"/g)].map((m) => [m[1], m[2]]);
        expect(values).toEqual(expected.map((r) => [r[1], r[2]]));
        const wb = XLSX.read(
          Buffer.from(await (await get(`/v1/Banks/${bank}/DailyRates.xlsx?${range}`)).arrayBuffer()),
          {
            cellNF: true,
          },
        );
        const sheet = wb.Sheets.Rates!;
        const cells: string[] = [];
        for (let r = 2; sheet[`E${r}`]; r++) {
          const cell = sheet[`E${r}`] as XLSX.CellObject;
          cells.push(cell.t === "s" ? String(cell.v) : cell.w!);
        }
        expect(cells).toEqual(expected.map((r) => r[2]));
      },
    );

    it.each(["ECB", "CNB", "CBR"])(
      "%s: every stored date, a weekend and the day before the first, as stored",
      async (bank) => {
        const dates = datesOf(bank);
        expect(dates.length).toBeGreaterThan(1);
        for (const date of dates) {
          const res = await get(`/v1/Banks/${bank}/DailyRates/${date}`);
          expect(res.status, `${bank} ${date}`).toBe(200);
          expect(res.headers.get("content-location")).toBe(`/v1/Banks/${bank}/DailyRates/${date}`);
          expect(jsonRows(await res.text())).toEqual(stored(bank, date, date));
        }
        // The first Saturday after the first stored date: the set in force is the newest stored date before it.
        const saturday = saturdayAfter(dates[0]!);
        const inForce = dates.filter((d) => d <= saturday).pop()!;
        const weekend = await get(`/v1/Banks/${bank}/DailyRates/${saturday}.csv`);
        expect(weekend.headers.get("content-location")).toBe(`/v1/Banks/${bank}/DailyRates/${inForce}.csv`);
        const csv: string[][] = parseCsv(await weekend.text());
        expect(csv.slice(1).map((r) => [r[3], r[4]])).toEqual(stored(bank, inForce, inForce).map((r) => [r[0], r[2]]));
        const before = await get(`/v1/Banks/${bank}/DailyRates/2020-01-01`);
        expect(before.status).toBe(404);
        expect(await before.json()).toMatchObject({ firstDate: dates[0], latestDate: dates.at(-1) });
      },
    );

    it.each(["ECB", "CNB", "CBR"])("%s: the whole range in JSON, XML, CSV and XLSX, digit for digit", async (bank) => {
      const expected = stored(bank, "2026-01-01", "2026-12-31");
      expect(expected.length).toBeGreaterThan(10);
      const range = "from=2026-01-01&to=2026-12-31";
      expect(jsonRows(await (await get(`/v1/Banks/${bank}/DailyRates?${range}`)).text())).toEqual(expected);

      const xml = await (await get(`/v1/Banks/${bank}/DailyRates.xml?${range}`)).text();
      const parser = new XMLParser({
        ignoreAttributes: false,
        attributeNamePrefix: "",
        parseAttributeValue: false,
        isArray: (n) => n === "Rates" || n === "Rate",
      });
      const doc = parser.parse(xml) as {
        ExchangeRates: { Rates: Array<{ effectiveDate: string; Rate: Array<Record<string, string>> }> };
      };
      expect(
        doc.ExchangeRates.Rates.flatMap((r) =>
          r.Rate.map((x): Row => [r.effectiveDate, x.currency!, x.value!, Number(x.unitMultiplier ?? 0)]),
        ),
      ).toEqual(expected);

      const csv: string[][] = parseCsv(await (await get(`/v1/Banks/${bank}/DailyRates.csv?${range}`)).text());
      const direct = csv[1]![2] !== expected[0]![1];
      expect(
        csv.slice(1).map((r): Row => [r[3]!, direct ? r[1]! : r[2]!, r[4]!, Math.round(Math.log10(Number(r[5])))]),
      ).toEqual(expected);

      const wb = XLSX.read(Buffer.from(await (await get(`/v1/Banks/${bank}/DailyRates.xlsx?${range}`)).arrayBuffer()), {
        cellNF: true,
      });
      const sheet = wb.Sheets.Rates!;
      const cells: string[] = [];
      for (let r = 2; sheet[`E${r}`]; r++) {
        const cell = sheet[`E${r}`] as XLSX.CellObject;
        cells.push(cell.t === "s" ? String(cell.v) : cell.w!);
      }
      expect(cells).toEqual(expected.map((r) => r[2]));
    });

    it("ECB's USD of 2026-03-18 is the figure of the recorded feed", async () => {
      const recorded = /^D,USD,2026-03-18,([\d.]+)$/m.exec(readFileSync(join(FEEDS, "ECB", "002.csv"), "utf8"))![1]!;
      const res = await get("/v1/Banks/ECB/DailyRates/2026-03-18?currencies=USD,XAU");
      expect(res.headers.get("x-currencies-not-quoted")).toBe("XAU");
      expect(jsonRows(await res.text())).toEqual([["2026-03-18", "USD", recorded, 0]]);
    });
  },
);

/** The first Saturday after `from`. */
function saturdayAfter(from: string): string {
  const day = new Date(`${from}T00:00:00Z`);
  do day.setUTCDate(day.getUTCDate() + 1);
  while (day.getUTCDay() !== 6);
  return day.toISOString().slice(0, 10);
}
