// A pair across banks and averages of a period over HTTP: five banks' figures of one day (own small
// fixtures in the shape the store keeps), and CNB's EUR over some weeks, seeded into a store and served.
import { readFileSync } from "node:fs";

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as XLSX from "@e965/xlsx";
import { validateXML } from "xmllint-wasm";

import { EXCHANGE_RATES_XSD } from "../../src/publish/xsd.js";
import { recordQuoting } from "../../src/store/anomalies.js";
import { ingestBatches } from "../../src/store/rates.js";
import type { RateRecord } from "../../src/types.js";
import { parseCsv } from "../support/csv.js";
import { BANK_DAYS, DAY } from "../pairs/fixture.js";
import { startHarness, type Harness } from "./support.js";

let h: Harness;
let auth: Record<string, string>;

// CNB's EUR (CZK per EUR) on the other days of the range: 2026-02-25..27, 2026-03-03..06, 30, 31.
const CNB_EUR: Array<[string, string]> = [
  ["2026-02-25", "24.300"],
  ["2026-02-26", "24.280"],
  ["2026-02-27", "24.310"],
  ["2026-03-03", "24.190"],
  ["2026-03-04", "24.205"],
  ["2026-03-05", "24.180"],
  ["2026-03-06", "24.150"],
  ["2026-03-30", "24.135"],
  ["2026-03-31", "24.120"],
];

function seed(bankId: string, records: RateRecord[], at: string): void {
  const when = new Date(at);
  const body = Buffer.from(`${bankId} fixture`);
  ingestBatches(h.store, bankId, [
    {
      provenance: {
        kind: "import",
        method: "GET",
        url: `https://example.test/${bankId}`,
        startedAt: when,
        finishedAt: when,
        httpStatus: 200,
        body,
      },
      records,
    },
  ]);
}

beforeAll(async () => {
  h = await startHarness({ publish: false });
  for (const day of BANK_DAYS) {
    const records = day.figures.map((f) => ({
      effectiveDate: day.effectiveDate,
      currency: f.currency,
      rate: f.rate,
      ...(f.unitMultiplier ? { unitMultiplier: f.unitMultiplier } : {}),
    }));
    if (day.bankId === "CNB")
      records.push(...CNB_EUR.map(([effectiveDate, rate]) => ({ effectiveDate, currency: "EUR", rate })));
    seed(day.bankId, records, day.publishedAt);
    recordQuoting(h.store, day.bankId, day.baseCurrency, day.quoteType);
  }
  auth = { authorization: `Bearer ${await h.token()}` };
});
afterAll(async () => h.close());

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${h.url}${path}`, { headers: { ...auth, ...headers } });

interface Bank {
  bankId: string;
  rate: string;
  quote: string;
  effectiveDate: string;
  publishedAt?: string;
}
interface Average {
  period: string;
}
interface Doc {
  banks: Bank[];
  averages: Average[];
  consensus: unknown;
  rounding: unknown;
}

async function json(path: string): Promise<Doc> {
  const res = await get(path);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Doc;
}

async function xsdErrors(xml: string) {
  const valid = await validateXML({
    xml: [{ fileName: "p.xml", contents: xml }],
    schema: [{ fileName: "s.xsd", contents: EXCHANGE_RATES_XSD }],
  });
  return valid.errors;
}

describe("GET /v1/Pairs/{BASE}/{QUOTE}", () => {
  it("on a date: every bank's figure as hand-computed, the median and the spread", async () => {
    const body = await json(`/v1/Pairs/USD/JPY/${DAY}`);
    const rates = Object.fromEntries(body.banks.map((b) => [b.bankId, b.rate]));
    // 162.45 / 1.0850; 22.280 x 100 / 14.870; 3.9512 x 100 / 2.6342; 1.3612 / 0.009122; 4.5830 x 100 / 3.0612
    expect(rates).toEqual({
      ECB: "149.7235023",
      CNB: "149.8318763",
      NBP: "149.9962038",
      BOC: "149.2216619",
      BNR: "149.7125310",
    });
    expect(body.consensus).toMatchObject({
      date: DAY,
      banks: 5,
      median: "149.7235023",
      min: "149.2216619",
      max: "149.9962038",
      dispersion: "0.005173148424",
      outliers: [],
    });
    const cnb = body.banks.find((b) => b.bankId === "CNB")!;
    expect(cnb).toMatchObject({
      quote: "cross",
      derived: true,
      through: "CZK",
    });
    expect(body.rounding).toEqual({ digits: 10, rule: "half away from zero" });
  });

  it("Latest, banks= restricting, a direct figure as published", async () => {
    const body = await json("/v1/Pairs/EUR/CZK/Latest?banks=ECB,CNB");
    expect(body.banks.map((b) => [b.bankId, b.rate, b.quote, b.effectiveDate])).toEqual([
      // CNB's newest set is 2026-03-31 (EUR 24.120); ECB's 2026-03-02 (CZK per EUR 24.170).
      ["CNB", "24.120", "direct", "2026-03-31"],
      ["ECB", "24.170", "direct", DAY],
    ]);
  });

  it("answers 304 to its own ETag, and refuses bad input with a reason", async () => {
    const first = await get(`/v1/Pairs/USD/JPY/${DAY}`);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"h-/);
    expect((await get(`/v1/Pairs/USD/JPY/${DAY}`, { "if-none-match": etag })).status).toBe(304);
    expect((await get("/v1/Pairs/USD/USD/Latest")).status).toBe(400);
    expect((await get("/v1/Pairs/USD/JPY/2026-02-30")).status).toBe(400);
    expect((await get("/v1/Pairs/USD/JPY/Latest?group=month")).status).toBe(400);
    expect((await get("/v1/Pairs/USD/JPY/Latest?banks=NOPE")).status).toBe(404);
  });

  it("in XML valid against the XSD, in CSV and in XLSX", async () => {
    const xml = await (await get(`/v1/Pairs/USD/JPY/${DAY}.xml`)).text();
    expect(xml).toContain('<Consensus date="2026-03-02" banks="5" median="149.7235023"');
    expect(await xsdErrors(xml)).toEqual([]);
    const csv = parseCsv(await (await get(`/v1/Pairs/USD/JPY/${DAY}`, { accept: "text/csv" })).text());
    const consensus = csv.find((r) => r[3] === "consensus")!;
    expect(consensus[5]).toBe("149.7235023");
    const xlsx = await get(`/v1/Pairs/USD/JPY/${DAY}.xlsx`);
    const book = XLSX.read(Buffer.from(await xlsx.arrayBuffer()));
    const rows = XLSX.utils.sheet_to_json<Record<string, unknown>>(book.Sheets.Pair!);
    expect(rows.find((r) => r.BankId === "ECB")?.Rate).toBe(149.7235023);
  });

  it("a range grouped by month: each bank's figures averaged", async () => {
    const body = await json("/v1/Pairs/EUR/CZK?from=2026-02-01&to=2026-03-31&group=month&banks=CNB");
    const march = body.averages.find((a) => a.period === "2026-03");
    // 24.165 + 24.190 + 24.205 + 24.180 + 24.150 + 24.135 + 24.120 = 169.145; / 7
    expect(march).toMatchObject({ bankId: "CNB", days: 7, sum: "169.145", mean: "24.16357143", partial: false });
  });
});

describe("group= on a bank's daily range", () => {
  it("a month's mean of CNB's EUR equals the hand-computed mean; a cut month is partial", async () => {
    const body = await json("/v1/Banks/CNB/DailyRates?from=2026-02-25&to=2026-03-31&group=month&currencies=EUR");
    expect(body).toMatchObject({ bankId: "CNB", baseCurrency: "CZK", group: "month", unit: 1 });
    const [february, march] = body.averages;
    // February from the 25th only: (24.300 + 24.280 + 24.310) / 3 = 24.29666666...
    expect(february).toMatchObject({ period: "2026-02", partial: true, days: 3, mean: "24.29666667" });
    expect(march).toMatchObject({
      period: "2026-03",
      currency: "EUR",
      partial: false,
      days: 7,
      sum: "169.145",
      mean: "24.16357143",
      exact: false,
      first: "2026-03-02",
      last: "2026-03-31",
      min: "24.120",
      max: "24.205",
      endOfPeriod: "24.120",
    });
    expect(body.rounding).toEqual({ digits: 10, rule: "half away from zero" });
  });

  it("in XML valid against the XSD", async () => {
    const res = await get("/v1/Banks/CNB/DailyRates.xml?from=2026-03-01&to=2026-03-15&group=week");
    expect(res.status).toBe(200);
    const xml = await res.text();
    expect(xml).toContain('<Average period="2026-W10"');
    expect(await xsdErrors(xml)).toEqual([]);
  });

  it("refuses an unknown group with the list", async () => {
    const res = await get("/v1/Banks/CNB/DailyRates?from=2026-03-01&group=fortnight");
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("week, month, quarter, year");
  });
});

// docs/API.md's worked examples, read from the document: each `GET` line and the JSON under it, where
// `...` stands for members left out and `// ...` is a comment. Every member shown must be the real one.
describe("the worked examples of docs/API.md", () => {
  const api = readFileSync(new URL("../../docs/API.md", import.meta.url), "utf8");
  const section = api.slice(api.indexOf("## A pair across banks and averages of a period"));
  const examples = [...section.matchAll(/```\nGET (\S+)\n\n([\s\S]*?)```/g)].map((m) => ({
    path: m[1]!,
    shown: JSON.parse(
      m[2]!
        .replace(/\s*\/\/[^\n]*/g, "")
        .replace(/,\s*\.\.\.\s*(?=[}\]])/g, "")
        .replace(/,\s*\.\.\.\s*,/g, ","),
    ) as unknown,
  }));

  /** Whether every member `shown` has is in `real` with the same value (arrays: item by item, same length). */
  function shownIn(real: unknown, shown: unknown, at = "$"): string[] {
    if (Array.isArray(shown)) {
      if (!Array.isArray(real) || real.length !== shown.length) return [`${at}: ${JSON.stringify(real)}`];
      return shown.flatMap((s, i) => shownIn(real[i], s, `${at}[${i}]`));
    }
    if (shown && typeof shown === "object") {
      if (!real || typeof real !== "object") return [`${at}: ${JSON.stringify(real)}`];
      return Object.entries(shown).flatMap(([k, v]) => shownIn((real as Record<string, unknown>)[k], v, `${at}.${k}`));
    }
    return real === shown ? [] : [`${at}: ${JSON.stringify(real)}, shown ${JSON.stringify(shown)}`];
  }

  it("shows two examples, a pair and a month's averages", () => {
    expect(examples.map((e) => e.path.split("?")[0])).toEqual([
      "/v1/Pairs/USD/JPY/2026-03-02",
      "/v1/Banks/CNB/DailyRates",
    ]);
  });

  it.each([0, 1])("example %i is the real answer (the pair asked of the three banks it names)", async (i) => {
    const { path, shown } = examples[i]!;
    const asked = path.startsWith("/v1/Pairs/") ? `${path}?banks=ECB,CNB,NBP` : path;
    const real = await json(asked);
    expect(shownIn(real, shown)).toEqual([]);
  });

  it("README's averages CSV is the real answer", async () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    const shown = /\n\s*"\$URL(\/v1\/Banks\/CNB\/DailyRates\.csv\?[^"]+)"\n((?:.+\n){2})/.exec(readme);
    expect(shown, "README's averages example").not.toBeNull();
    const res = await get(shown![1]!);
    expect(res.status).toBe(200);
    expect((await res.text()).replace(/\r\n/g, "\n")).toBe(shown![2]);
  });
});
