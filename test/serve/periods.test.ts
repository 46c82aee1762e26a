// A period source end to end: HMRC's month stored (the XML, then the CSV with a figure corrected
// mid-month), published, and served under MonthlyRates: what is in force on a date (the month's last
// day yes, the next month's first no), a range, every format's validity (the XML against the XSD), the
// Bank resource's frequency, and a frequency the bank does not publish as a 404 naming its own.
import { parseCsv } from "../support/csv.js";
import { isLosslessNumber, parse as parseLossless } from "lossless-json";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as XLSX from "@e965/xlsx";
import { validateXML } from "xmllint-wasm";

import hmrc from "../../adapters/HMRC.js";
import { gateRecords } from "../../src/ingest/validate.js";
import { publish } from "../support/unsigned.js";
import { EXCHANGE_RATES_XSD } from "../../src/publish/xsd.js";
import { recordQuoting } from "../../src/store/anomalies.js";
import { ingestBatches } from "../../src/store/rates.js";
import { fixture } from "../support/fixtures.js";
import { startTestServer, type InProcessServer } from "../support/server.js";

let server: InProcessServer;
let auth: Record<string, string>;

async function store(file: string, url: string, at: string) {
  const answer = await hmrc.parse(fixture(file), { url });
  const { records } = gateRecords("GBP", answer.records, answer.held);
  const when = new Date(at);
  const provenance = {
    kind: "import" as const,
    method: "GET" as const,
    url,
    startedAt: when,
    finishedAt: when,
    httpStatus: 200,
  };
  ingestBatches(server.store, "HMRC", [{ provenance: { ...provenance, body: fixture(file) }, records }], when);
}

beforeAll(async () => {
  server = await startTestServer({ publish: false });
  await store(
    "HMRC/monthly_xml_2026-08.xml",
    "https://www.trade-tariff.service.gov.uk/api/v2/exchange_rates/files/monthly_xml_2026-08.xml",
    "2026-07-23T11:00:00Z",
  );
  await store(
    "HMRC/monthly_csv_2026-8.csv",
    "https://www.trade-tariff.service.gov.uk/uk/api/exchange_rates/files/monthly_csv_2026-8.csv",
    "2026-08-18T11:00:00Z",
  );
  recordQuoting(server.store, "HMRC", "GBP", "Indirect");
  await publish(server.store, [hmrc], server.config.outDir);
  auth = { authorization: `Bearer ${await server.token()}` };
  // The server loads the new generation within a second.
  for (let i = 0; i < 50; i++) {
    if ((await get("/v1/Banks/HMRC/MonthlyRates/Latest")).status === 200) break;
    await new Promise((r) => setTimeout(r, 100));
  }
}, 60_000);
afterAll(async () => server?.stop());

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, { headers: { ...auth, ...headers } });

type Entry = { rate: unknown; validFrom?: string; validTo?: string };
async function json(path: string): Promise<Record<string, Record<string, Entry>>> {
  const res = await get(path);
  expect(res.status).toBe(200);
  return (parseLossless(await res.text()) as { rates: Record<string, Record<string, Entry>> }).rates;
}
const text = (e: Entry | undefined) => (e && isLosslessNumber(e.rate) ? e.rate.value : undefined);

describe("a monthly source (HMRC)", () => {
  it("answers a dated lookup on the 15th with the month's figures and their validity", async () => {
    const rates = await json("/v1/Banks/HMRC/MonthlyRates/2026-08-15.json");
    expect(Object.keys(rates)).toEqual(["2026-08-01"]);
    const day = rates["2026-08-01"]!;
    expect(Object.keys(day)).toEqual(["AED", "JPY", "TRY", "USD", "XCD", "ZWG"]);
    expect(text(day.JPY)).toBe("196.3400");
    expect(day.JPY).toMatchObject({ validFrom: "2026-08-01", validTo: "2026-08-31" });
    // TRY's figure of the 1st is ended by its correction of the 18th.
    expect(text(day.TRY)).toBe("55.1200");
    expect(day.TRY).toMatchObject({ validFrom: "2026-08-01", validTo: "2026-08-17" });
  });

  it("keeps the month's figures in force on its last day, not on the next month's first", async () => {
    const last = await json("/v1/Banks/HMRC/MonthlyRates/2026-08-31");
    expect(Object.keys(last)).toEqual(["2026-08-18"]);
    expect(text(last["2026-08-18"]!.USD)).toBe("1.3365");
    expect(text(last["2026-08-18"]!.TRY)).toBe("58.0400");
    expect(last["2026-08-18"]!.TRY).toMatchObject({ validFrom: "2026-08-18", validTo: "2026-08-31" });
    const next = await get("/v1/Banks/HMRC/MonthlyRates/2026-09-01");
    expect(next.status).toBe(404);
    expect(((await next.json()) as { detail: string }).detail).toMatch(/in force on 2026-09-01|future/);
  });

  it("answers a range as the set in force on its first day, then one per day a figure starts", async () => {
    const rates = await json("/v1/Banks/HMRC/MonthlyRates?from=2026-08-10&to=2026-08-31&currencies=TRY,JPY");
    expect(Object.keys(rates)).toEqual(["2026-08-01", "2026-08-18"]);
    expect(Object.fromEntries(Object.entries(rates).map(([d, day]) => [d, text(day.TRY)]))).toEqual({
      "2026-08-01": "55.1200",
      "2026-08-18": "58.0400",
    });
  });

  it("publishes Latest under MonthlyRates with the validity, and the Bank resource names the frequency", async () => {
    const latest = await json("/v1/Banks/HMRC/MonthlyRates/Latest.json");
    expect(latest["2026-08-18"]!.AED).toMatchObject({ validFrom: "2026-08-01", validTo: "2026-08-31" });
    const bank = (await (await get("/v1/banks/HMRC")).json()) as { supportedFrequencies: string[] };
    expect(bank.supportedFrequencies).toEqual(["Monthly"]);
  });

  it("shows the frequency on the status page", async () => {
    const page = await (await fetch(`${server.url}/`)).text();
    const card = page.slice(page.indexOf('<article id="bank-HMRC"'));
    expect(card.slice(0, card.indexOf("</article>"))).toContain("<dt>Frequency</dt><dd>Monthly</dd>");
  });

  it.each([
    ["/v1/Banks/HMRC/DailyRates/Latest", "Daily"],
    ["/v1/Banks/HMRC/DailyRates/2026-08-15", "Daily"],
    ["/v1/Banks/HMRC/DailyRates?from=2026-08-01", "Daily"],
    ["/v1/Banks/HMRC/QuarterlyRates/2026-08-15", "Quarterly"],
  ])("answers %s with a 404 naming MonthlyRates", async (path, asked) => {
    const res = await get(path);
    expect(res.status).toBe(404);
    const problem = (await res.json()) as { type: string; detail: string; supportedFrequencies: string[] };
    expect(problem.type).toBe("urn:exrates:problem:other-frequency");
    expect(problem.detail).toContain(`publishes Monthly rates, not ${asked}`);
    expect(problem.supportedFrequencies).toEqual(["Monthly"]);
  });

  it("CSV: Valid From and Valid To after Unit", async () => {
    const res = await get("/v1/Banks/HMRC/MonthlyRates/2026-08-15.csv");
    const rows: string[][] = parseCsv(await res.text());
    expect(rows[0]).toEqual([
      "BankId",
      "From Currency",
      "To Currency",
      "Effective Date",
      "Exchange Rate",
      "Unit",
      "Valid From",
      "Valid To",
    ]);
    expect(rows.find((r) => r[2] === "TRY")).toEqual([
      "HMRC",
      "GBP",
      "TRY",
      "2026-08-01",
      "55.1200",
      "1",
      "2026-08-01",
      "2026-08-17",
    ]);
  });

  it("XML: validFrom and validTo attributes, valid against the published XSD (Latest and a date)", async () => {
    for (const path of ["/v1/Banks/HMRC/MonthlyRates/Latest.xml", "/v1/Banks/HMRC/MonthlyRates/2026-08-15.xml"]) {
      const xml = await (await get(path)).text();
      expect(xml).toContain('<Rate currency="JPY" value="196.3400" validFrom="2026-08-01" validTo="2026-08-31"/>');
      const result = await validateXML({
        xml: [{ fileName: "monthly.xml", contents: xml }],
        schema: [{ fileName: "exchange-rates-1.0.xsd", contents: EXCHANGE_RATES_XSD }],
      });
      expect(result.errors).toEqual([]);
    }
  });

  it("XLSX: two date columns after Unit, in the published Latest and a dated answer", async () => {
    for (const path of ["/v1/Banks/HMRC/MonthlyRates/Latest.xlsx", "/v1/Banks/HMRC/MonthlyRates/2026-08-15.xlsx"]) {
      const book = XLSX.read(Buffer.from(await (await get(path)).arrayBuffer()), { cellDates: false });
      const rows = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets.Rates!, {
        header: 1,
        raw: false,
        dateNF: "yyyy-mm-dd",
      });
      expect(rows[0]).toEqual([
        "BankId",
        "From Currency",
        "To Currency",
        "Effective Date",
        "Exchange Rate",
        "Unit",
        "Valid From",
        "Valid To",
      ]);
      const jpy = rows.find((r) => r[2] === "JPY")!;
      expect(jpy.slice(6)).toEqual(["2026-08-01", "2026-08-31"]);
    }
  });
});

describe("a monthly source as known at an instant (asOf) and through Convert", () => {
  // The August XML was stored on 2026-07-23 at 11:00 UTC, the CSV with TRY's correction on 2026-08-18.
  const before = "2026-08-01T00:00:00Z";

  it("answers a date with the figures in force as known then: the CSV's TRY rows not known yet", async () => {
    const res = await get(`/v1/Banks/HMRC/MonthlyRates/2026-08-31.json?asOf=${before}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-as-of")).toBe("2026-08-01T00:00:00.000Z");
    const rates = (parseLossless(await res.text()) as { rates: Record<string, Record<string, Entry>> }).rates;
    expect(Object.keys(rates)).toEqual(["2026-08-01"]);
    expect(Object.keys(rates["2026-08-01"]!)).toEqual(["AED", "JPY", "USD", "XCD", "ZWG"]);
    expect(text(rates["2026-08-01"]!.JPY)).toBe("196.3400");
    expect(rates["2026-08-01"]!.JPY).toMatchObject({ validFrom: "2026-08-01", validTo: "2026-08-31" });
    // Known now: TRY, its figure of the 18th in force on the 31st.
    const now = await json("/v1/Banks/HMRC/MonthlyRates/2026-08-31.json");
    expect(text(now["2026-08-18"]!.TRY)).toBe("58.0400");
  });

  it("answers Latest and a range as known then, in every format with the validity", async () => {
    const latest = await get(`/v1/Banks/HMRC/MonthlyRates/Latest.csv?asOf=${before}&currencies=JPY,TRY`);
    expect(latest.status).toBe(200);
    expect(latest.headers.get("x-currencies-not-quoted")).toBe("TRY");
    const rows: string[][] = parseCsv(await latest.text());
    expect(rows.slice(1)).toEqual([["HMRC", "GBP", "JPY", "2026-08-01", "196.3400", "1", "2026-08-01", "2026-08-31"]]);
    const range = await get(`/v1/Banks/HMRC/MonthlyRates.xml?from=2026-08-10&to=2026-08-31&asOf=${before}`);
    const xml = await range.text();
    expect(xml).toContain("<AsOf>2026-08-01T00:00:00.000Z</AsOf>");
    expect(xml.match(/<Rates effectiveDate=/g)).toHaveLength(1);
    expect(xml).toContain('<Rate currency="JPY" value="196.3400" validFrom="2026-08-01" validTo="2026-08-31"/>');
    expect(xml).not.toContain('currency="TRY"');
    const now = await get("/v1/Banks/HMRC/MonthlyRates.xml?from=2026-08-10&to=2026-08-31");
    expect((await now.text()).match(/<Rates effectiveDate=/g)).toHaveLength(2);
  });

  it("answers an instant before anything was stored with a 404, and DailyRates?asOf with the other-frequency 404", async () => {
    const early = await get("/v1/Banks/HMRC/MonthlyRates/2026-08-15?asOf=2026-07-01T00:00:00Z");
    expect(early.status).toBe(404);
    expect(((await early.json()) as { detail: string }).detail).toMatch(/Nothing of bank HMRC was stored yet/);
    const daily = await get(`/v1/Banks/HMRC/DailyRates/2026-08-15?asOf=${before}`);
    expect(daily.status).toBe(404);
    expect(((await daily.json()) as { type: string }).type).toBe("urn:exrates:problem:other-frequency");
  });

  it("converts on a date through the figures in force on it (before and after a mid-month correction)", async () => {
    const on = async (date: string) => {
      const res = await get(`/v1/Banks/HMRC/Convert?from=GBP&to=TRY&amount=100&date=${date}`);
      expect(res.status).toBe(200);
      return (await res.json()) as { result: string; effectiveDate: string };
    };
    expect(await on("2026-08-10")).toMatchObject({ result: "5512.00", effectiveDate: "2026-08-01" });
    expect(await on("2026-08-20")).toMatchObject({ result: "5804.00", effectiveDate: "2026-08-18" });
    const after = await get("/v1/Banks/HMRC/Convert?from=GBP&to=TRY&amount=100&date=2026-09-15");
    expect(after.status).toBe(404);
  });
});

describe("a monthly source re-expressed (base=)", () => {
  it("keeps each figure's validity in Latest: the days both the figure and the new base's are in force", async () => {
    const rates = await json("/v1/Banks/HMRC/MonthlyRates/Latest.json?base=USD");
    const [day] = Object.values(rates);
    expect(day!.USD).toBeUndefined();
    expect(day!.GBP).toMatchObject({ validFrom: "2026-08-01", validTo: "2026-08-31" });
    expect(day!.JPY).toMatchObject({ validFrom: "2026-08-01", validTo: "2026-08-31" });
    // TRY's figure of the 18th (its correction) is in force from the 18th: so is its cross rate.
    expect(day!.TRY).toMatchObject({ validFrom: "2026-08-18", validTo: "2026-08-31" });
  });

  it("keeps the validity in XML and CSV too", async () => {
    const xml = await (await get("/v1/Banks/HMRC/MonthlyRates/Latest.xml?base=USD")).text();
    expect(xml).toMatch(/<Rate currency="JPY" value="[0-9.]+" validFrom="2026-08-01" validTo="2026-08-31"\/>/);
    const csvText = await (await get("/v1/Banks/HMRC/MonthlyRates/Latest.csv?base=USD")).text();
    const csv: string[][] = parseCsv(csvText);
    const valid = csv[0]!.indexOf("Valid From");
    expect(valid).toBeGreaterThan(0);
    const jpy = csv.find((r) => r.includes("JPY"))!;
    expect(jpy.slice(valid, valid + 2)).toEqual(["2026-08-01", "2026-08-31"]);
  });

  it("refuses base= on a date or a range by name rather than answering without it", async () => {
    for (const path of [
      "/v1/Banks/HMRC/MonthlyRates/2026-08-15.json?base=USD",
      "/v1/Banks/HMRC/MonthlyRates?from=2026-08-01&to=2026-08-31&base=USD",
    ]) {
      const r = await get(path);
      expect(r.status, path).toBe(400);
      expect(((await r.json()) as { unknown: string[] }).unknown, path).toEqual(["base"]);
    }
  });
});
