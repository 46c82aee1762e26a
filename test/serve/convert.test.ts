// Convert and `base=` through a real OAuth client (openid-client v6), over small fixtures in the banks'
// own formats (CNB's JSON API: Direct, JPY per 100, IDR per 1000; ECB's SDMX-CSV: Indirect) read by
// their adapters, stored, and published by the real publisher. Every figure is checked digit for
// digit against the hand computation written beside it.
import { readFileSync } from "node:fs";

import { parseCsv } from "../support/csv.js";
import { parse as parseLossless } from "lossless-json";
import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as XLSX from "@e965/xlsx";
import { validateXML } from "xmllint-wasm";

import cnb from "../../adapters/CNB.js";
import ecb from "../../adapters/ECB.js";
import { publish } from "../support/unsigned.js";
import { EXCHANGE_RATES_XSD } from "../../src/publish/xsd.js";
import { recordQuoting } from "../../src/store/anomalies.js";
import { ingestBatches } from "../../src/store/rates.js";
import type { BankAdapter, RateRecord } from "../../src/types.js";
import { startHarness, type Harness } from "./support.js";

let h: Harness;
let auth: Record<string, string>;

async function load(adapter: BankAdapter, file: string, contentType: string): Promise<void> {
  const body = readFileSync(new URL(`../fixtures/${file}`, import.meta.url));
  const parsed = await adapter.parse(body, { url: adapter.bank.sourceUrl, contentType });
  const records: RateRecord[] = Array.isArray(parsed) ? parsed : parsed.records;
  const at = new Date("2026-03-02T13:31:00Z");
  ingestBatches(h.store, adapter.bank.id, [
    {
      provenance: {
        kind: "import",
        method: "GET",
        url: adapter.bank.sourceUrl,
        startedAt: at,
        finishedAt: at,
        httpStatus: 200,
        body,
      },
      records,
    },
  ]);
  recordQuoting(h.store, adapter.bank.id, adapter.bank.bankCurrency, adapter.bank.quoteType);
}

beforeAll(async () => {
  h = await startHarness({ publish: false });
  await load(cnb, "CNB/convert-days.json", "application/json");
  await load(ecb, "ECB/convert-days.csv", "text/csv");
  await publish(h.store, [cnb, ecb], h.config.outDir);
  const config = await client.discovery(
    new URL(h.issuer),
    h.client.id,
    undefined,
    client.ClientSecretBasic(h.client.secret),
    { execute: [client.allowInsecureRequests] },
  );
  const tokens = await client.clientCredentialsGrant(config, { scope: h.config.scope });
  auth = { authorization: `Bearer ${tokens.access_token}` };
  // The server picks the new tree up within a second.
  for (let i = 0; i < 50; i++) {
    if ((await get("/v1/Banks/ECB/DailyRates/Latest")).status === 200) break;
    await new Promise((r) => setTimeout(r, 100));
  }
});
afterAll(async () => h.close());

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${h.url}${path}`, { headers: { ...auth, ...headers } });

async function json(path: string): Promise<Record<string, unknown>> {
  const res = await get(path);
  expect(res.status, await res.clone().text()).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
  return (await res.json()) as Record<string, unknown>;
}

describe("Convert", () => {
  it("through CNB's Latest (2026-01-05) by default: USD to EUR", async () => {
    // 1250.00 x 20.742 / 24.195 = 25927.5 / 24.195 = 1071.605703657780533168...
    expect(await json("/v1/Banks/CNB/Convert?from=USD&to=EUR&amount=1250.00")).toEqual({
      bankId: "CNB",
      baseCurrency: "CZK",
      quoteType: "Direct",
      effectiveDate: "2026-01-05",
      amount: "1250.00",
      from: "USD",
      to: "EUR",
      result: "1071.61",
      unrounded: "1071.6057036577805331",
      unroundedExact: false,
      rounding: { rule: "half away from zero", decimals: 2 },
      formula: "1250.00 x 20.742 / 24.195",
      figures: [
        { currency: "USD", rate: "20.742", unit: 1, effectiveDate: "2026-01-05" },
        { currency: "EUR", rate: "24.195", unit: 1, effectiveDate: "2026-01-05" },
      ],
    });
  });

  it("between two foreign currencies of different units (JPY per 100, EUR per 1) on a date", async () => {
    // 125000 x 13.226 / 100 / 24.195 = 16532.5 / 24.195 = 683.302335193221740028...
    const body = await json("/v1/Banks/CNB/Convert?from=JPY&to=EUR&amount=125000&date=2026-01-05");
    expect(body).toMatchObject({
      date: "2026-01-05",
      effectiveDate: "2026-01-05",
      result: "683.30",
      unrounded: "683.30233519322174002",
      formula: "125000 x 13.226 / 100 / 24.195",
      figures: [
        { currency: "JPY", rate: "13.226", unit: 100, effectiveDate: "2026-01-05" },
        { currency: "EUR", rate: "24.195", unit: 1, effectiveDate: "2026-01-05" },
      ],
    });
  });

  it("on a Saturday through the Friday's set, to JPY's zero minor digits", async () => {
    // 2026-01-03 is a Saturday: the set of Friday 2026-01-02.
    // 1250.00 x 20.611 / 13.141 x 100 = 2576375 / 13.141 = 196056.236207290160566... -> 196056 (JPY: 0 decimals)
    const body = await json("/v1/Banks/CNB/Convert?from=USD&to=JPY&amount=1250.00&date=2026-01-03");
    expect(body).toMatchObject({
      date: "2026-01-03",
      effectiveDate: "2026-01-02",
      result: "196056",
      unrounded: "196056.23620729016056",
      rounding: { rule: "half away from zero", decimals: 0 },
      formula: "1250.00 x 20.611 / 13.141 x 100",
    });
  });

  it("to the bank's own currency, exactly (IDR per 1000)", async () => {
    // 1000000 x 1.233 / 1000 = 1233 (exact) -> 1233.00 CZK
    const body = await json("/v1/Banks/CNB/Convert?from=IDR&to=CZK&amount=1000000&date=2026-01-02");
    expect(body).toMatchObject({
      result: "1233.00",
      unrounded: "1233",
      unroundedExact: true,
      formula: "1000000 x 1.233 / 1000",
      figures: [{ currency: "IDR", rate: "1.233", unit: 1000, effectiveDate: "2026-01-02" }],
    });
  });

  it("through an Indirect bank (ECB): the target's figure over the source's", async () => {
    // 1250.00 x 182.63 / 1.1767 = 228287.5 / 1.1767 = 194006.543723973825104... -> 194007 JPY
    const body = await json("/v1/Banks/ECB/Convert?from=USD&to=JPY&amount=1250.00&date=2026-02-20");
    expect(body).toMatchObject({
      quoteType: "Indirect",
      baseCurrency: "EUR",
      result: "194007",
      unrounded: "194006.54372397382510",
      formula: "1250.00 x 182.63 / 1.1767",
    });
  });

  it("from ECB's own currency, a half rounded away from zero (half-even would give 1469.12)", async () => {
    // 1250.00 x 1.1753 = 1469.125 (exact) -> 1469.13
    const body = await json("/v1/Banks/ECB/Convert?from=EUR&to=USD&amount=1250.00&date=2026-02-19");
    expect(body).toMatchObject({ result: "1469.13", unrounded: "1469.125", unroundedExact: true });
    expect(body.formula).toBe("1250.00 x 1.1753");
  });

  it("in XML (valid against the XSD) and CSV", async () => {
    const xml = await get("/v1/Banks/ECB/Convert.xml?from=USD&to=EUR&amount=1250&date=2026-02-20");
    expect(xml.status).toBe(200);
    const text = await xml.text();
    // 1250 / 1.1767 = 1062.292852893685731282... -> 1062.29
    expect(text).toContain('<Result currency="EUR" value="1062.29" unrounded="1062.2928528936857312"');
    expect(text).toContain('<Figure currency="USD" value="1.1767" unit="1" effectiveDate="2026-02-20"/>');
    const valid = await validateXML({
      xml: [{ fileName: "c.xml", contents: text }],
      schema: [{ fileName: "s.xsd", contents: EXCHANGE_RATES_XSD }],
    });
    expect(valid.errors).toEqual([]);
    const csv = await get("/v1/Banks/ECB/Convert?from=USD&to=EUR&amount=1250&date=2026-02-20", { accept: "text/csv" });
    expect(parseCsv(await csv.text())).toEqual([
      [
        "BankId",
        "Effective Date",
        "Amount",
        "From Currency",
        "To Currency",
        "Result",
        "Unrounded Result",
        "Decimals",
        "Rounding",
        "Formula",
      ],
      [
        "ECB",
        "2026-02-20",
        "1250",
        "USD",
        "EUR",
        "1062.29",
        "1062.2928528936857312",
        "2",
        "half away from zero",
        "1250 / 1.1767",
      ],
    ]);
    expect((await get("/v1/Banks/ECB/Convert.xlsx?from=USD&to=EUR&amount=1")).status).toBe(406);
  });

  it("404 for a currency not quoted that day, naming the nearest date the bank quoted it", async () => {
    const res = await get("/v1/Banks/CNB/Convert?from=IDR&to=EUR&amount=1&date=2026-01-06");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      type: "urn:exrates:problem:currency-not-quoted",
      currencies: ["IDR"],
      effectiveDate: "2026-01-05",
      nearestDates: { IDR: "2026-01-02" },
    });
    expect(body.detail).toBe(
      "CNB quoted no rate of IDR (nearest date CNB quoted it: 2026-01-02) on 2026-01-05, the set in force on 2026-01-06",
    );
    const never = (await (await get("/v1/Banks/CNB/Convert?from=KWD&to=CZK&amount=1")).json()) as Record<
      string,
      unknown
    >;
    expect(never).toMatchObject({ status: 404, nearestDates: { KWD: null }, effectiveDate: "2026-01-05" });
  });

  it.each([
    ["an exponent", "1e3", /not a plain non-negative decimal/],
    ["a sign", "-5", /not a plain non-negative decimal/],
    ["a thousands separator", "1,250.00", /not a plain non-negative decimal/],
    ["more than 30 digits", `${"1".repeat(29)}.12`, /more than 30 digits/],
    ["nothing", "", /not a plain non-negative decimal/],
  ])("400 for an amount with %s", async (_what, amount, detail) => {
    const res = await get(`/v1/Banks/CNB/Convert?from=USD&to=EUR&amount=${encodeURIComponent(amount)}`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toMatch(detail);
  });

  it("400 for a 10,000-character amount quotes its first 100 characters only", async () => {
    const amount = `${"7".repeat(9_999)}x`;
    const res = await get(`/v1/Banks/CNB/Convert?from=USD&to=EUR&amount=${amount}`);
    expect(res.status).toBe(400);
    const { detail } = (await res.json()) as { detail: string };
    expect(detail).toContain(`"${"7".repeat(100)}…" (10000 characters)`);
    expect(detail).not.toContain("7".repeat(101));
    expect(detail.length).toBeLessThan(300);
  });

  it("400 without from, to or amount, or for a code that is not ISO 4217", async () => {
    for (const q of ["from=USD&to=EUR", "from=USD&amount=1", "from=XYZ&to=EUR&amount=1"])
      expect((await get(`/v1/Banks/CNB/Convert?${q}`)).status).toBe(400);
  });
});

type Rates = Record<string, Record<string, { rate: unknown; unitMultiplier?: unknown }>>;
const text = (rates: Rates) =>
  Object.fromEntries(
    Object.entries(rates).map(([d, day]) => [
      d,
      Object.fromEntries(
        Object.entries(day).map(([c, r]) => [
          c,
          [String(r.rate), r.unitMultiplier === undefined ? "" : String(r.unitMultiplier as number)],
        ]),
      ),
    ]),
  );

describe("base=", () => {
  it("re-expresses a range against USD, each day through its own USD figure", async () => {
    const res = await get("/v1/Banks/CNB/DailyRates?from=2026-01-02&to=2026-01-05&base=usd");
    expect(res.status).toBe(200);
    const doc = parseLossless(await res.text()) as {
      baseCurrency: string;
      quoteType: string;
      derivedFrom: unknown;
      rates: Rates;
    };
    expect(doc.baseCurrency).toBe("USD");
    expect(doc.quoteType).toBe("Direct");
    expect(doc.derivedFrom).toEqual({ baseCurrency: "CZK", quoteType: "Direct" });
    expect(text(doc.rates)).toEqual({
      "2026-01-02": {
        CZK: ["0.04851778177", ""], // 1 / 20.611
        EUR: ["1.172674785", ""], // 24.170 / 20.611
        IDR: ["0.05982242492", "3"], // 1.233 / 20.611 (per 1000 IDR, as published)
        JPY: ["0.6375721702", "2"], // 13.141 / 20.611 (per 100 JPY)
      },
      "2026-01-05": {
        CZK: ["0.04821135860", ""], // 1 / 20.742 (the tenth digit a zero)
        EUR: ["1.166473821", ""], // 24.195 / 20.742
        JPY: ["0.6376434288", "2"], // 13.226 / 20.742
      },
    });
  });

  it("marks the document derived in XML (valid) and CSV, and keeps the filter", async () => {
    const xml = await (await get("/v1/Banks/CNB/DailyRates/2026-01-04.xml?base=USD&currencies=EUR")).text();
    expect(xml).toContain(
      '<ExchangeRates xmlns="urn:exrates:exchange-rates:1.0" derivedFromBaseCurrency="CZK" derivedFromQuoteType="Direct">',
    );
    expect(xml).toContain(
      '<Rates effectiveDate="2026-01-02">\n    <Rate currency="EUR" value="1.172674785"/>\n  </Rates>',
    );
    const valid = await validateXML({
      xml: [{ fileName: "r.xml", contents: xml }],
      schema: [{ fileName: "s.xsd", contents: EXCHANGE_RATES_XSD }],
    });
    expect(valid.errors).toEqual([]);
    const csv = parseCsv(await (await get("/v1/Banks/ECB/DailyRates/Latest.csv?base=USD&currencies=EUR,JPY")).text());
    expect(csv).toEqual([
      ["BankId", "From Currency", "To Currency", "Effective Date", "Exchange Rate", "Unit", "Derived"],
      ["ECB", "USD", "EUR", "2026-02-20", "0.8498342823", "1", "EUR Indirect"], // 1 / 1.1767 = 0.84983428231...
      ["ECB", "USD", "JPY", "2026-02-20", "155.2052350", "1", "EUR Indirect"], // 182.63 / 1.1767 = 155.205234979...
    ]);
  });

  it("adds a Derived column to the XLSX, and a Derived From row to its Bank sheet", async () => {
    const res = await get("/v1/Banks/CNB/DailyRates/2026-01-05.xlsx?base=USD");
    expect(res.status).toBe(200);
    const book = XLSX.read(Buffer.from(await res.arrayBuffer()), { type: "buffer" });
    const rows = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets.Rates!, { header: 1, raw: false });
    expect(rows[0]).toEqual([
      "BankId",
      "From Currency",
      "To Currency",
      "Effective Date",
      "Exchange Rate",
      "Unit",
      "Derived",
    ]);
    expect(rows.slice(1).map((r) => [r[1], r[2], r[4], r[6]])).toEqual([
      ["CZK", "USD", "0.04821135860", "CZK Direct"], // 1 / 20.742
      ["EUR", "USD", "1.166473821", "CZK Direct"], // 24.195 / 20.742
      ["JPY", "USD", "0.6376434288", "CZK Direct"], // 13.226 / 20.742, per 100
    ]);
    const bank = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets.Bank!, { header: 1 });
    expect(bank).toContainEqual(["Derived From", "CZK Direct"]);
  });

  it("404 for a base the bank did not quote that day; the official answer without base is unchanged", async () => {
    const res = await get("/v1/Banks/CNB/DailyRates/2026-01-05?base=IDR");
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ nearestDates: { IDR: "2026-01-02" } });
    const plain = await (await get("/v1/Banks/CNB/DailyRates/Latest")).text();
    expect(plain).toBe(readFileSync(`${h.config.outDir}/v1/Banks/CNB/DailyRates/Latest.json`, "utf8"));
    expect(await (await get("/v1/Banks/CNB/DailyRates/Latest?base=CZK")).text()).toBe(plain);
  });
});
