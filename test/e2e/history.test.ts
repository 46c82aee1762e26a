// End to end, without internet: `exrates backfill ECB CNB CBR` through the shared feed mirror (over
// the recorded range), then `exrates serve`; a client with an openid-client token reads dates and
// ranges of each bank in four formats, and every rate is the stored text the bank's feed gave.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import BetterSqlite3 from "better-sqlite3";
import { parse as parseCsv } from "csv-parse/sync";
import { XMLParser } from "fast-xml-parser";
import { isLosslessNumber, parse as parseLossless } from "lossless-json";
import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as XLSX from "@e965/xlsx";

import { FEEDS, haveMirror, startMirror, type Mirror } from "../support/mirror.js";
import { cli, finished, spawnCli, waitFor } from "./support.js";

type Row = [string, string, string, number];

describe.skipIf(!haveMirror)("history of the reference banks through the feed mirror", { timeout: 120_000 }, () => {
  let mirror: Mirror;
  let root: string;
  let server: ReturnType<typeof spawnCli>;
  let url: string;
  let auth: Record<string, string>;
  let db: BetterSqlite3.Database;

  beforeAll(async () => {
    mirror = await startMirror(["ECB", "CNB", "CBR"]);
    root = mkdtempSync(join(tmpdir(), "exrates-e2e-history-"));
    const env = {
      EXRATES_DATA_DIR: join(root, "data"),
      EXRATES_OUT_DIR: join(root, "out"),
      EXRATES_FEED_MIRROR: mirror.url,
    };
    const backfill = await cli(
      ["backfill", "ECB", "CNB", "CBR", "--from", "2026-03-01", "--to", "2026-03-05", "--pause", "0", "--json"],
      env,
      90_000,
    );
    expect(backfill.code, backfill.stderr.slice(-1500)).toBe(0);
    const created = await cli(["clients", "create", "erp", "--json"], env);
    const { client_id: id, client_secret: secret } = JSON.parse(created.stdout) as Record<string, string>;
    server = spawnCli(["serve"], { ...env, EXRATES_PORT: "0" });
    await waitFor(server, (o) => o.stdout.includes("exrates serving on "), 60_000);
    url = /exrates serving on (http:\/\/\S+)/.exec(server.out.stdout)![1]!;
    const config = await client.discovery(
      new URL(`${url}/auth/realms/exrates`),
      id!,
      undefined,
      client.ClientSecretPost(secret),
      { execute: [client.allowInsecureRequests] },
    );
    const tokens = await client.clientCredentialsGrant(config, { scope: "exchange-rates" });
    auth = { authorization: `Bearer ${tokens.access_token}` };
    db = new BetterSqlite3(join(env.EXRATES_DATA_DIR, "exrates.db"), { readonly: true });
  });
  afterAll(async () => {
    db?.close();
    if (server?.pid && server.exitCode === null) {
      process.kill(server.pid, "SIGTERM");
      await finished(server, 15_000);
    }
    await mirror?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  const get = (path: string) => fetch(`${url}${path}`, { headers: auth });
  const datesOf = (bank: string) =>
    db.prepare("select distinct effective_date from rates where bank_id = ? order by 1").pluck().all(bank) as string[];
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
      // 2026-03-07 is a Saturday: the set in force is the newest stored date before it.
      const saturday = "2026-03-07";
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
    expect(expected.length).toBeGreaterThan(40);
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
});
