// The client over every kind of query and source, against an in-process server: a daily bank with units
// (CNB, HUF per 100) and a monthly source (HMRC, its rates under MonthlyRates, learnt from the API's
// `other-frequency` answer). Each answer's figures and validity equal the HTTP answer's; `base`, `asOf`
// and `provenance` reach the server (the document says so); Convert, Calendar and Corrections are the
// server's JSON; an option the client does not know is a TypeError before any request.
import { parse as parseLossless } from "lossless-json";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import cnb from "../../adapters/CNB.js";
import hmrc from "../../adapters/HMRC.js";
import { ExratesClient, ExratesError, type DailyRates } from "@exrates/client";
import { gateRecords } from "../../src/ingest/validate.js";
import { publish } from "../support/unsigned.js";
import { recordQuoting } from "../../src/store/anomalies.js";
import { ingestBatches } from "../../src/store/rates.js";
import type { RateRecord } from "../../src/types.js";
import { fixture } from "../support/fixtures.js";
import { startTestServer, type InProcessServer } from "../support/server.js";

let server: InProcessServer;
let auth: Record<string, string>;
/** Every request the client sent (path and query). */
const sent: string[] = [];
let client: ExratesClient;

function ingest(bankId: string, url: string, at: string, records: RateRecord[], body: Buffer): void {
  const when = new Date(at);
  const provenance = { kind: "fetch" as const, method: "GET" as const, url, startedAt: when, finishedAt: when };
  ingestBatches(server.store, bankId, [{ provenance: { ...provenance, httpStatus: 200, body }, records }], when);
}

const cnbDay = (effectiveDate: string, usd: string, eur: string, huf: string): RateRecord[] => [
  { effectiveDate, currency: "EUR", rate: eur },
  { effectiveDate, currency: "HUF", rate: huf, unitMultiplier: 2 },
  { effectiveDate, currency: "USD", rate: usd },
];

async function storeHmrc(file: string, url: string, at: string): Promise<void> {
  const answer = await hmrc.parse(fixture(file), { url });
  ingest("HMRC", url, at, gateRecords("GBP", answer.records, answer.held).records, fixture(file));
}

beforeAll(async () => {
  server = await startTestServer({ publish: false });
  const cnbUrl = "https://api.cnb.cz/cnbapi/exrates/daily";
  ingest("CNB", cnbUrl, "2026-01-05T13:00:00Z", cnbDay("2026-01-05", "20.742", "24.195", "6.304"), Buffer.from("a"));
  ingest("CNB", cnbUrl, "2026-01-06T13:00:00Z", cnbDay("2026-01-06", "20.801", "24.210", "6.311"), Buffer.from("b"));
  // A correction of the 6th's EUR, an hour later.
  ingest("CNB", cnbUrl, "2026-01-06T14:00:00Z", cnbDay("2026-01-06", "20.801", "24.215", "6.311"), Buffer.from("c"));
  recordQuoting(server.store, "CNB", "CZK", "Direct");
  await storeHmrc(
    "HMRC/monthly_xml_2026-08.xml",
    "https://www.trade-tariff.service.gov.uk/api/v2/exchange_rates/files/monthly_xml_2026-08.xml",
    "2026-07-23T11:00:00Z",
  );
  recordQuoting(server.store, "HMRC", "GBP", "Indirect");
  await publish(server.store, [cnb, hmrc], server.config.outDir);
  auth = { authorization: `Bearer ${await server.token()}` };
  for (let i = 0; i < 50; i++) {
    if ((await get("/v1/Banks/HMRC/MonthlyRates/Latest")).status === 200) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  client = new ExratesClient({
    baseUrl: server.url,
    tokenUrl: server.tokenUrl,
    clientId: server.client.id,
    clientSecret: server.client.secret,
    cache: false,
    fetch: (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.pathname.startsWith("/v1/")) sent.push(url.pathname + url.search);
      return fetch(input, init);
    },
  });
}, 60_000);
afterAll(async () => server?.stop());

const get = (path: string) => fetch(`${server.url}${path}`, { headers: auth });

/** The HTTP answer's days as the client gives them: each rate's text, unit and validity. */
async function httpDays(path: string): Promise<Array<Pick<DailyRates, "effectiveDate" | "rates">>> {
  const res = await get(path);
  expect(res.status, path).toBe(200);
  const doc = parseLossless(await res.text(), null, (v: string) => v) as {
    rates: Record<string, Record<string, Record<string, string>>>;
  };
  return Object.entries(doc.rates).map(([effectiveDate, day]) => ({
    effectiveDate,
    rates: Object.entries(day)
      .filter(([code]) => /^[A-Z]{3}$/.test(code))
      .map(([currency, f]) => ({
        currency,
        rate: f.rate!,
        ...(f.unitMultiplier ? { unitMultiplier: Number(f.unitMultiplier) } : {}),
        ...(f.validFrom ? { validFrom: f.validFrom, validTo: f.validTo } : {}),
      })),
  }));
}
const figures = (d: DailyRates) => ({ effectiveDate: d.effectiveDate, rates: d.rates });

describe("the client on a monthly source (HMRC)", () => {
  it("finds MonthlyRates from the API's answer, once, and gives each figure its validity", async () => {
    sent.length = 0;
    const latest = await client.latest("HMRC", { currencies: ["JPY", "USD"] });
    expect(latest.frequency).toBe("Monthly");
    expect([figures(latest)]).toEqual(await httpDays("/v1/Banks/HMRC/MonthlyRates/Latest?currencies=JPY,USD"));
    expect(latest.rates.find((r) => r.currency === "JPY")).toMatchObject({
      rate: "196.3400",
      validFrom: "2026-08-01",
      validTo: "2026-08-31",
    });
    const onDate = await client.onDate("HMRC", "2026-08-15");
    expect([figures(onDate)]).toEqual(await httpDays("/v1/Banks/HMRC/MonthlyRates/2026-08-15"));
    const range = [];
    for await (const day of client.range("HMRC", { from: "2026-08-01", to: "2026-08-31" })) range.push(figures(day));
    expect(range).toEqual(await httpDays("/v1/Banks/HMRC/MonthlyRates?from=2026-08-01&to=2026-08-31"));
    // The daily path once (the 404 names the monthly one), then the monthly path only.
    expect(sent.map((s) => s.split("?")[0])).toEqual([
      "/v1/Banks/HMRC/DailyRates/Latest",
      "/v1/Banks/HMRC/MonthlyRates/Latest",
      "/v1/Banks/HMRC/MonthlyRates/2026-08-15",
      "/v1/Banks/HMRC/MonthlyRates",
    ]);
  });

  it("refuses a frequency given that the bank does not publish, with the API's named problem", async () => {
    const error = await client.latest("HMRC", { frequency: "Quarterly" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExratesError);
    expect((error as ExratesError).type).toBe("urn:exrates:problem:other-frequency");
    expect((error as ExratesError).extensions.path).toBe("/v1/Banks/HMRC/MonthlyRates");
  });

  it("converts through the month's figures", async () => {
    const conversion = await client.convert("HMRC", { from: "GBP", to: "JPY", amount: "100", date: "2026-08-15" });
    const http = (await (
      await get("/v1/Banks/HMRC/Convert?from=GBP&to=JPY&amount=100&date=2026-08-15")
    ).json()) as object;
    expect(conversion).toEqual(http);
    expect(conversion.result).toBe("19634");
  });
});

describe("the client on a daily bank with units (CNB)", () => {
  it("re-expresses against a base, keeping units, and says it is derived", async () => {
    const answer = await client.latest("CNB", { base: "USD", currencies: ["EUR", "HUF"] });
    expect(answer).toMatchObject({ baseCurrency: "USD", derivedFrom: { baseCurrency: "CZK", quoteType: "Direct" } });
    expect([figures(answer)]).toEqual(await httpDays("/v1/Banks/CNB/DailyRates/Latest?base=USD&currencies=EUR,HUF"));
    expect(answer.rates.find((r) => r.currency === "HUF")?.unitMultiplier).toBe(2);
  });

  it("answers as known at an instant: the figure before its correction", async () => {
    const asOf = "2026-01-06T13:30:00Z";
    const answer = await client.onDate("CNB", "2026-01-06", { asOf: new Date(asOf) });
    expect(answer.asOf).toBe("2026-01-06T13:30:00.000Z");
    expect(answer.rates.find((r) => r.currency === "EUR")?.rate).toBe("24.210");
    expect([figures(answer)]).toEqual(await httpDays(`/v1/Banks/CNB/DailyRates/2026-01-06?asOf=${asOf}`));
    expect((await client.onDate("CNB", "2026-01-06")).rates.find((r) => r.currency === "EUR")?.rate).toBe("24.215");
  });

  it("names the bank's answers each date's figures came from", async () => {
    const answer = await client.onDate("CNB", "2026-01-05", { provenance: true });
    expect(answer.provenance).toHaveLength(1);
    expect(answer.provenance![0]).toMatchObject({ kind: "fetch", url: "https://api.cnb.cz/cnbapi/exrates/daily" });
    expect(answer.rates.map((r) => r.currency)).toEqual(["EUR", "HUF", "USD"]);
  });

  it("lists the corrections, and the calendar, as the API answers them", async () => {
    const corrections = await client.corrections("CNB", { from: "2026-01-01", to: "2026-01-31" });
    expect(corrections).toEqual(await (await get("/v1/Banks/CNB/Corrections?from=2026-01-01&to=2026-01-31")).json());
    expect(corrections.corrections.map((c) => [c.effectiveDate, c.currency, c.previous.rate, c.current.rate])).toEqual([
      ["2026-01-06", "EUR", "24.210", "24.215"],
    ]);
    const calendar = await client.calendar("CNB", { year: 2026 });
    expect(calendar).toEqual(await (await get("/v1/Banks/CNB/Calendar?year=2026")).json());
    expect(calendar.closings.map((c) => c.date)).toContain("2026-01-01");
  });

  it("converts exactly, per 100 HUF", async () => {
    const conversion = await client.convert("CNB", { from: "HUF", to: "EUR", amount: "125000" });
    expect(conversion).toEqual(await (await get("/v1/Banks/CNB/Convert?from=HUF&to=EUR&amount=125000")).json());
    expect(conversion.figures.find((f) => f.currency === "HUF")?.unit).toBe(100);
  });
});

describe("options the client does not know", () => {
  it("are a TypeError at the call, before any request", async () => {
    sent.length = 0;
    const calls: Array<() => Promise<unknown>> = [
      () => client.latest("CNB", { baseCurrency: "USD" } as never),
      () => client.onDate("CNB", "2026-01-05", { as_of: "2026-01-05T00:00:00Z" } as never),
      () => client.range("CNB", { from: "2026-01-01", date: "2026-01-05" } as never).next(),
      () => client.convert("CNB", { from: "USD", to: "EUR", amount: "1", base: "CZK" } as never),
      () => client.calendar("CNB", { year: 2026, format: "ics" } as never),
      () => client.corrections("CNB", { since: "2026-01-01" } as never),
      () => client.banks({ all: true } as never),
      () => client.file("CNB", { format: "csv", decimals: 2 } as never),
      () => client.latest("CNB", { currencies: "EUR" } as never),
      () => client.latest("CNB", { asOf: 5 } as never),
      () => client.convert("CNB", { from: "USD", to: "EUR", amount: 0.1 + 0.2 }),
    ];
    for (const call of calls) await expect(call()).rejects.toBeInstanceOf(TypeError);
    await expect(client.latest("CNB", { baseCurrency: "USD" } as never)).rejects.toThrow(
      /unknown option "baseCurrency"/,
    );
    expect(sent).toEqual([]);
  });
});
