// History and discovery through a real OAuth client (openid-client v6): the set in force on a weekday,
// a weekend and a holiday, a range across a year boundary in four formats read back by independent
// readers (lossless-json, libxml2 against the XSD, papaparse, SheetJS) with the stored digits, the
// currency filter (Latest included), the errors, 304 and the encodings, the bank and currency lists.
import { request } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";

import { parseCsv } from "../support/csv.js";
import { XMLParser } from "fast-xml-parser";
import { isLosslessNumber, parse as parseLossless } from "lossless-json";
import { Validator } from "@seriousme/openapi-schema-validator";
import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as XLSX from "@e965/xlsx";
import { validateXML } from "xmllint-wasm";

import { EXCHANGE_RATES_XSD } from "../../src/publish/xsd.js";
import { recordQuoting } from "../../src/store/anomalies.js";
import { ingestBatches, type Provenance } from "../../src/store/rates.js";
import type { RateRecord } from "../../src/types.js";
import { startHarness, XLSX as XLSX_TYPE, type Harness } from "./support.js";

let h: Harness;
let auth: Record<string, string>;

const provenance = (body: string): Provenance => ({
  kind: "import",
  method: "GET",
  url: "https://bank.example/feed",
  startedAt: new Date("2025-01-03T14:00:00Z"),
  finishedAt: new Date("2025-01-03T14:00:01Z"),
  httpStatus: 200,
  body: Buffer.from(body),
});
const ingest = (bank: string, records: RateRecord[], body = JSON.stringify(records)) =>
  ingestBatches(h.store, bank, [{ provenance: provenance(body), records }]);

// CNB: Fri 20 Dec, Mon 23 Dec, then 24-26 Dec holidays, Fri 27, Mon 30, Tue 31, (1 Jan), Thu 2, Fri 3.
const CNB_DATES = ["2024-12-20", "2024-12-23", "2024-12-27", "2024-12-30", "2024-12-31", "2025-01-02", "2025-01-03"];
const usd = (i: number) => `24.${String(100 + i * 7).padStart(3, "0")}`; // trailing zeros kept: 24.100, 24.107...
const eur = (i: number) => `25.1${i}0`;
const huf = (i: number) => `6.10${i}`;

beforeAll(async () => {
  h = await startHarness();
  const records: RateRecord[] = [];
  CNB_DATES.forEach((d, i) => {
    records.push({ effectiveDate: d, currency: "EUR", rate: eur(i) });
    records.push({ effectiveDate: d, currency: "HUF", rate: huf(i), unitMultiplier: 2 });
    records.push({ effectiveDate: d, currency: "USD", rate: usd(i) });
  });
  ingest("CNB", records);
  recordQuoting(h.store, "CNB", "CZK", "Direct");
  ingest("ECB", [
    { effectiveDate: "2025-01-02", currency: "USD", rate: "1.0350" },
    { effectiveDate: "2025-01-03", currency: "USD", rate: "1.0300" },
  ]);
  recordQuoting(h.store, "ECB", "EUR", "Indirect");
  const config = await client.discovery(
    new URL(h.issuer),
    h.client.id,
    undefined,
    client.ClientSecretBasic(h.client.secret),
    {
      execute: [client.allowInsecureRequests],
    },
  );
  const tokens = await client.clientCredentialsGrant(config, { scope: h.config.scope });
  auth = { authorization: `Bearer ${tokens.access_token}` };
});
afterAll(async () => h.close());

// The server runs in this process: a test that holds the event loop for seconds (reading a big
// workbook) lets the server close fetch's idle pooled socket at the moment fetch reuses it. A request
// refused so (ECONNRESET before any answer) is sent once more, on a new connection.
const get = (path: string, headers: Record<string, string> = {}, method = "GET") => {
  const send = () => fetch(`${h.url}${path}`, { method, headers: { ...auth, ...headers } });
  return send().catch((error: Error & { cause?: { code?: string } }) => {
    if (error.cause?.code !== "ECONNRESET") throw error;
    return send();
  });
};

/** The stored rows of CNB between two dates, as [date, currency, rate, unit]. */
function stored(from: string, to: string, currencies = ["EUR", "HUF", "USD"]): Array<[string, string, string, number]> {
  const out: Array<[string, string, string, number]> = [];
  CNB_DATES.forEach((d, i) => {
    if (d < from || d > to) return;
    if (currencies.includes("EUR")) out.push([d, "EUR", eur(i), 0]);
    if (currencies.includes("HUF")) out.push([d, "HUF", huf(i), 2]);
    if (currencies.includes("USD")) out.push([d, "USD", usd(i), 0]);
  });
  return out;
}

type RatesJson = { bankId: string; rates: Record<string, Record<string, { rate: unknown; unitMultiplier?: unknown }>> };
function jsonRows(text: string): Array<[string, string, string, number]> {
  const doc = parseLossless(text) as RatesJson;
  return Object.entries(doc.rates).flatMap(([d, day]) =>
    Object.entries(day).map(([c, r]): [string, string, string, number] => [
      d,
      c,
      String(r.rate),
      isLosslessNumber(r.unitMultiplier) ? Number(r.unitMultiplier.value) : 0,
    ]),
  );
}

describe("the set in force on a date", () => {
  it.each([
    ["a weekday", "2024-12-30", "2024-12-30"],
    ["a Saturday", "2024-12-28", "2024-12-27"],
    ["a Sunday", "2024-12-29", "2024-12-27"],
    ["Christmas (a holiday)", "2024-12-25", "2024-12-23"],
    ["New Year's Day", "2025-01-01", "2024-12-31"],
  ])("on %s is the previous publication, named in the document and Content-Location", async (_what, asked, actual) => {
    const res = await get(`/v1/Banks/cnb/DailyRates/${asked}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("content-location")).toBe(`/v1/Banks/CNB/DailyRates/${actual}`);
    expect(jsonRows(await res.text())).toEqual(stored(actual, actual));
  });

  it("keeps the suffix and query in Content-Location, and names the file", async () => {
    const res = await get("/v1/Banks/CNB/DailyRates/2024-12-28.csv?currencies=usd");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-location")).toBe("/v1/Banks/CNB/DailyRates/2024-12-27.csv?currencies=usd");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="CNB-2024-12-27.csv"');
    expect(parseCsv(await res.text())).toEqual([
      ["BankId", "From Currency", "To Currency", "Effective Date", "Exchange Rate", "Unit"],
      ["CNB", "USD", "CZK", "2024-12-27", usd(2), "1"],
    ]);
  });

  it.each([
    ["before the first stored date", "2024-12-19", /before CNB's first stored date/],
    ["in the future", "2099-01-01", /in the future/],
    ["beyond the bank's normal gap", "2025-01-18", /no set in force on 2025-01-18/],
  ])("is 404 %s, saying which dates exist", async (_what, date, detail) => {
    const res = await get(`/v1/Banks/CNB/DailyRates/${date}`);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.detail).toMatch(detail);
    expect(body.detail).toMatch(/stored dates run from 2024-12-20 to 2025-01-03/);
    expect(body).toMatchObject({ status: 404, firstDate: "2024-12-20", latestDate: "2025-01-03" });
  });

  it("answers a date within the gap, and 400 for a malformed date", async () => {
    // Friday to Friday: the weekend and four days of holidays.
    expect((await get("/v1/Banks/CNB/DailyRates/2025-01-10")).headers.get("content-location")).toBe(
      "/v1/Banks/CNB/DailyRates/2025-01-03",
    );
    for (const bad of ["2024-13-01", "2024-02-30", "20241230", "2024-12-3"]) {
      const res = await get(`/v1/Banks/CNB/DailyRates/${bad}`);
      expect(res.status, bad).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toContain("is not a date");
    }
  });
});

describe("a range across a year boundary", () => {
  const path = "/v1/Banks/CNB/DailyRates?from=2024-12-27&to=2025-01-02";
  const expected = stored("2024-12-27", "2025-01-02");

  it("JSON: every date oldest first, every digit as stored", async () => {
    const res = await get(path);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(Object.keys((JSON.parse(text) as RatesJson).rates)).toEqual([
      "2024-12-27",
      "2024-12-30",
      "2024-12-31",
      "2025-01-02",
    ]);
    expect(jsonRows(text)).toEqual(expected);
  });

  it("XML: one Rates per date, valid against the published XSD", async () => {
    const res = await get(path, { accept: "application/xml" });
    expect(res.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    const xml = await res.text();
    const result = await validateXML({
      xml: [{ fileName: "range.xml", contents: xml }],
      schema: [{ fileName: "exchange-rates-1.0.xsd", contents: EXCHANGE_RATES_XSD }],
    });
    expect(result.errors).toEqual([]);
    const parser = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: "",
      parseAttributeValue: false,
      isArray: (n) => n === "Rates" || n === "Rate",
    });
    const doc = parser.parse(xml) as {
      ExchangeRates: { Rates: Array<{ effectiveDate: string; Rate: Array<Record<string, string>> }> };
    };
    const rows = doc.ExchangeRates.Rates.flatMap((r) =>
      r.Rate.map((x) => [r.effectiveDate, x.currency, x.value, Number(x.unitMultiplier ?? 0)]),
    );
    expect(rows).toEqual(expected);
  });

  it("CSV: one row per date and currency", async () => {
    const res = await get(`${path}&format=csv`);
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="CNB-2024-12-27-2025-01-02.csv"');
    const rows: string[][] = parseCsv(await res.text());
    rows.shift();
    expect(rows.map((r) => [r[3], r[1], r[4], Math.log10(Number(r[5]))])).toEqual(expected);
  });

  it("XLSX: one row per date and currency, the digits kept", async () => {
    const res = await get(path.replace("DailyRates", "DailyRates.xlsx"));
    expect(res.headers.get("content-type")).toBe(XLSX_TYPE);
    const wb = XLSX.read(Buffer.from(await res.arrayBuffer()), { cellDates: true, cellNF: true });
    const sheet = wb.Sheets.Rates!;
    const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: false, dateNF: "yyyy-mm-dd" }).slice(1);
    expect(rows.map((r) => [r[3], r[1], r[4], Math.log10(Number(r[5]))])).toEqual(expected);
  });

  it("defaults to to today and refuses a missing from, a reversed or an over-long range", async () => {
    const all = await get("/v1/Banks/CNB/DailyRates?from=2024-01-01");
    expect(jsonRows(await all.text())).toEqual(stored("2024-01-01", "2099-01-01"));
    for (const [query, detail] of [
      ["", /from .* is required/],
      ["?to=2025-01-01", /from .* is required/],
      ["?from=2025-01-02&to=2025-01-01", /is after/],
      ["?from=2014-01-01&to=2024-01-02", /at most 10 years/],
      ["?from=2024-1-1", /not a date/],
      ["?from=2024-01-01&from=2024-01-02", /more than once/],
    ] as const) {
      const res = await get(`/v1/Banks/CNB/DailyRates${query}`);
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toMatch(detail);
    }
    expect((await get("/v1/Banks/CNB/DailyRates?from=2014-01-01&to=2024-01-01")).status).toBe(200);
  });
});

describe("a long range", () => {
  it("is streamed in blocks (no Content-Length), across the store's read chunks, every row once", async () => {
    const codes = ["AUD", "CAD", "CHF", "DKK", "EUR", "GBP", "JPY", "NOK", "PLN", "SEK", "USD", "ZAR"];
    const records: RateRecord[] = [];
    for (let t = Date.UTC(2016, 0, 1); t < Date.UTC(2026, 0, 1); t += 86_400_000) {
      const d = new Date(t);
      if (d.getUTCDay() === 0 || d.getUTCDay() === 6) continue;
      codes.forEach((c, i) =>
        records.push({
          effectiveDate: d.toISOString().slice(0, 10),
          currency: c,
          rate: `${i + 1}.${(t / 86_400_000) % 1000}0`,
        }),
      );
    }
    ingest("BIG", records);
    recordQuoting(h.store, "BIG", "XDR", "Indirect");
    const res = await raw("GET", "/v1/Banks/BIG/DailyRates?from=2016-01-01&to=2025-12-31", {});
    expect(res.status).toBe(200);
    expect(res.headers["content-length"]).toBeUndefined();
    expect(res.headers["transfer-encoding"]).toBe("chunked");
    const rows = jsonRows(res.body.toString("utf8"));
    expect(rows).toHaveLength(records.length);
    expect(rows).toEqual(records.map((r) => [r.effectiveDate, r.currency, r.rate, 0]));
    const gz = await raw("GET", "/v1/Banks/BIG/DailyRates.csv?from=2016-01-01&to=2025-12-31", {
      "accept-encoding": "gzip",
    });
    const lines = gunzipSync(gz.body).toString("utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(records.length + 1);
    expect(lines[1]).toBe(`BIG,XDR,AUD,2016-01-01,${records[0]!.rate},1`);
    // XLSX too is streamed as it is zipped (never held whole), and reads back with every digit.
    const xlsx = await raw("GET", "/v1/Banks/BIG/DailyRates.xlsx?from=2016-01-01&to=2025-12-31", {});
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers["content-type"]).toBe(XLSX_TYPE);
    expect(xlsx.headers["content-length"]).toBeUndefined();
    expect(xlsx.headers["transfer-encoding"]).toBe("chunked");
    const wb = XLSX.read(xlsx.body, { cellDates: true, cellNF: true });
    const sheet = wb.Sheets.Rates!;
    expect(sheet["!autofilter"]).toEqual({ ref: `A1:F${records.length + 1}` });
    const cells = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: false, dateNF: "yyyy-mm-dd" });
    expect(cells[0]).toEqual(["BankId", "From Currency", "To Currency", "Effective Date", "Exchange Rate", "Unit"]);
    expect(cells.slice(1)).toEqual(records.map((r) => ["BIG", "XDR", r.currency, r.effectiveDate, r.rate, "1"]));
  });
});

describe("the currency filter", () => {
  it("keeps the asked currencies and names those not quoted", async () => {
    const res = await get("/v1/Banks/CNB/DailyRates?from=2024-12-30&to=2024-12-31&currencies=usd,GBP,HUF");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-currencies-not-quoted")).toBe("GBP");
    expect(jsonRows(await res.text())).toEqual(stored("2024-12-30", "2024-12-31", ["HUF", "USD"]));
  });

  it("applies to Latest, served from the published tree", async () => {
    const res = await get("/v1/Banks/CNB/DailyRates/Latest.csv?currencies=EUR,USD");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-currencies-not-quoted")).toBe("EUR");
    expect(await res.text()).toBe(
      "BankId,From Currency,To Currency,Effective Date,Exchange Rate,Unit\nCNB,USD,CZK,2026-04-02,20.611,1\n",
    );
    const none = await get("/v1/Banks/CNB/DailyRates/Latest?currencies=EUR");
    expect(JSON.parse(await none.text())).toEqual({
      bankId: "CNB",
      baseCurrency: "CZK",
      quoteType: "Direct",
      rates: { "2026-04-02": {} },
    });
  });

  it("is 400 for an unknown code", async () => {
    for (const path of [
      "/v1/Banks/CNB/DailyRates/Latest?currencies=USD,XYZ",
      "/v1/Banks/CNB/DailyRates/2024-12-30?currencies=US",
      "/v1/Banks/CNB/DailyRates?from=2024-12-30&currencies=USD,,EUR",
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(400);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
    }
  });
});

describe("caching, encodings, HEAD, the token", () => {
  it("answers 304 for the ETag until the data behind it changes", async () => {
    const path = "/v1/Banks/CNB/DailyRates/2024-12-31";
    const first = await get(path);
    const etag = first.headers.get("etag")!;
    expect(first.headers.get("last-modified")).toBeTruthy();
    expect((await get(path, { "if-none-match": etag })).status).toBe(304);
    // Another bank's new data and another date's correction change nothing here.
    ingest("ECB", [{ effectiveDate: "2025-01-06", currency: "USD", rate: "1.0400" }], "ecb later");
    ingest("CNB", [{ effectiveDate: "2024-12-30", currency: "USD", rate: "24.999" }], "other date");
    expect((await get(path, { "if-none-match": etag })).status).toBe(304);
    ingest("CNB", [{ effectiveDate: "2024-12-31", currency: "USD", rate: "24.121" }], "correction");
    const changed = await get(path, { "if-none-match": etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
    expect(jsonRows(await changed.text())).toContainEqual(["2024-12-31", "USD", "24.121", 0]);
    // The filter and the format are part of the ETag.
    expect((await get(`${path}?currencies=USD`)).headers.get("etag")).not.toBe(changed.headers.get("etag"));
    expect((await get(`${path}.csv`)).headers.get("etag")).not.toBe(changed.headers.get("etag"));
  });

  it("serves a cached answer, in every encoding, only while its own rows are unchanged", async () => {
    const path = "/v1/Banks/CNB/DailyRates/2024-12-23.csv";
    const before = await raw("GET", path, { "accept-encoding": "gzip" });
    expect(gunzipSync(before.body).toString("utf8")).toContain("CNB,USD,CZK,2024-12-23,24.107,1\n");
    // A commit of another date: the same answer, the same ETag.
    ingest("CNB", [{ effectiveDate: "2024-12-20", currency: "EUR", rate: "25.555" }], "another date");
    const again = await raw("GET", path, { "accept-encoding": "gzip" });
    expect(again.headers.etag).toBe(before.headers.etag);
    expect(again.body.equals(before.body)).toBe(true);
    // A revision of one of its figures: new rows, a new ETag, in the compressed encoding as well.
    ingest("CNB", [{ effectiveDate: "2024-12-23", currency: "USD", rate: "24.180" }], "revision");
    const revised = await raw("GET", path, { "accept-encoding": "gzip" });
    expect(revised.headers.etag).not.toBe(before.headers.etag);
    expect(gunzipSync(revised.body).toString("utf8")).toContain("CNB,USD,CZK,2024-12-23,24.180,1\n");
    expect((await get(path)).headers.get("content-location")).toBe(path);
  });

  it("compresses with gzip and br, and HEAD sends the headers alone", async () => {
    const path = "/v1/Banks/CNB/DailyRates?from=2024-12-20&to=2025-01-03&format=xml";
    const plain = await raw("GET", path, {});
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const gz = await raw("GET", path, { "accept-encoding": "gzip" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    const br = await raw("GET", path, { "accept-encoding": "br, gzip" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(br.headers.etag).not.toBe(plain.headers.etag);
    expect((await raw("GET", path, { "accept-encoding": "br", "if-none-match": plain.headers.etag! })).status).toBe(
      304,
    );
    const head = await raw("HEAD", path, {});
    expect(head.status).toBe(200);
    expect(head.headers["content-type"]).toBe("application/xml; charset=utf-8");
    expect(head.headers.etag).toBe(plain.headers.etag);
    expect(head.body.length).toBe(0);
  });

  it("needs the token and knows its banks", async () => {
    const res = await fetch(`${h.url}/v1/Banks/CNB/DailyRates/2024-12-30`);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe('Bearer realm="exrates"');
    expect((await fetch(`${h.url}/v1/currencies`)).status).toBe(401);
    expect((await get("/v1/Banks/NOPE/DailyRates/2024-12-30")).status).toBe(404);
    expect((await get("/v1/Banks/NOPE/DailyRates?from=2024-12-30")).status).toBe(404);
    expect((await get("/v1/currencies.xml")).status).toBe(406);
  });
});

describe("discovery", () => {
  it("GET /v1/banks: each Bank resource with its first and latest stored dates", async () => {
    const res = await get("/v1/banks");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { banks: Array<Record<string, unknown>> };
    expect(body.banks.map((b) => b.id)).toEqual(["CNB", "ECB"]);
    expect(body.banks[0]).toMatchObject({
      id: "CNB",
      bankCurrency: "CZK",
      dailyUpdateTime: "14:30:00",
      firstEffectiveDate: "2024-12-20",
      latestEffectiveDate: "2025-01-03",
    });
    expect((await get("/v1/banks", { "if-none-match": res.headers.get("etag")! })).status).toBe(304);
  });

  it("GET /v1/currencies: each code with its English name and the banks quoting it since when", async () => {
    const res = await get("/v1/currencies");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { currencies: Array<{ code: string; name: string; banks: unknown[] }> };
    const codes = body.currencies.map((c) => c.code);
    expect(codes).toEqual([...codes].sort());
    expect(codes).toEqual(expect.arrayContaining(["EUR", "HUF", "USD"]));
    const of = (code: string) => body.currencies.find((c) => c.code === code)!;
    expect(of("HUF").name).toBe("Hungarian Forint");
    expect(of("USD").name).toBe("US Dollar");
    expect(of("USD").banks.filter((b) => (b as { bankId: string }).bankId !== "BIG")).toEqual([
      { bankId: "CNB", since: "2024-12-20", latest: "2025-01-03" },
      { bankId: "ECB", since: "2025-01-02", latest: "2025-01-06" },
    ]);
  });
});

describe("the OpenAPI document", () => {
  it("stays valid and describes every new endpoint and the filter", async () => {
    const doc = (await (await fetch(`${h.url}/v1/openapi.json`)).json()) as {
      paths: Record<string, { get: { parameters: Array<{ name: string }> } }>;
    };
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    for (const path of [
      "/v1/Banks/{bankId}/DailyRates/{date}",
      "/v1/Banks/{bankId}/DailyRates",
      "/v1/banks",
      "/v1/currencies",
      "/v1/Banks/{bankId}/DailyRates/Latest",
    ])
      expect(doc.paths[path], path).toBeDefined();
    for (const path of [
      "/v1/Banks/{bankId}/DailyRates/{date}",
      "/v1/Banks/{bankId}/DailyRates",
      "/v1/Banks/{bankId}/DailyRates/Latest",
    ])
      expect(doc.paths[path]!.get.parameters.map((p) => p.name)).toContain("currencies");
  });
});

function raw(method: string, path: string, headers: Record<string, string>) {
  const url = new URL(h.url);
  return new Promise<{ status: number; headers: Record<string, string | undefined>; body: Buffer }>(
    (resolve, reject) => {
      const req = request(
        { host: url.hostname, port: url.port, method, path, headers: { ...auth, ...headers } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers as Record<string, string>,
              body: Buffer.concat(chunks),
            }),
          );
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end();
    },
  );
}

describe("a hole in the stored history is not a publication gap", () => {
  it("a Monday-to-Friday bank bridges seven days at most: the eighth is 404 naming the missing days", async () => {
    // CNB's stored dates end on Friday 2025-01-03; asked the next Saturday, a week and a day later.
    const res = await get("/v1/Banks/CNB/DailyRates/2025-01-11");
    expect(res.status).toBe(404);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      previousDate: "2025-01-03",
      missingPublicationDays: ["2025-01-06", "2025-01-07", "2025-01-08", "2025-01-09", "2025-01-10"],
      missingPublicationDayCount: 5,
    });
    expect(body.detail).toContain("its last stored set before it is 2025-01-03");
    expect(body.detail).toContain("5 of its publication days since have no set (2025-01-06, 2025-01-07");
    expect(body.detail).toContain("at most 7 days");
  });

  // Last in the file: NRBT's rows would show in the discovery lists above.
  it("years without data in the loaded history do not make an old set current", async () => {
    ingest("NRBT", [
      { effectiveDate: "2017-01-05", currency: "INR", rate: "6.1" },
      { effectiveDate: "2017-01-06", currency: "INR", rate: "6.2" },
      { effectiveDate: "2024-06-03", currency: "INR", rate: "83.4" },
    ]);
    recordQuoting(h.store, "NRBT", "BTN", "Direct");
    const res = await get("/v1/Banks/NRBT/DailyRates/2024-06-01");
    expect(res.status).toBe(404);
    const body = (await res.json()) as { detail: string; missingPublicationDays: string[] };
    // 2017-01-09 to 2024-05-31: every weekday of those years and a half.
    expect(body).toMatchObject({
      previousDate: "2017-01-06",
      nextDate: "2024-06-03",
      missingPublicationDayCount: 1930,
    });
    expect(body.missingPublicationDays).toHaveLength(10);
    expect(body.missingPublicationDays[0]).toBe("2017-01-09");
    expect(body.detail).toMatch(/1930 of its publication days since have no set \(2017-01-09, .*, \.\.\.\)/);
    // The days around the hole are still answered.
    expect((await get("/v1/Banks/NRBT/DailyRates/2017-01-08")).headers.get("content-location")).toBe(
      "/v1/Banks/NRBT/DailyRates/2017-01-06",
    );
    expect((await get("/v1/Banks/NRBT/DailyRates/2024-06-03")).status).toBe(200);
  });
});

describe("an open-ended range", () => {
  it("is named by its newest stored date, not by tomorrow", async () => {
    const res = await get("/v1/Banks/CNB/DailyRates.csv?from=2024-12-27");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="CNB-2024-12-27-2025-01-03.csv"');
    const asked = await get("/v1/Banks/CNB/DailyRates.csv?from=2024-12-27&to=2025-01-01");
    expect(asked.headers.get("content-disposition")).toBe('attachment; filename="CNB-2024-12-27-2025-01-01.csv"');
  });
});
