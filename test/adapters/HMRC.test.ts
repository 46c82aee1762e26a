import { describe, expect, it } from "vitest";

import hmrc from "../../adapters/HMRC.js";
import { HttpError } from "../../src/errors.js";
import { gateRecords } from "../../src/ingest/validate.js";
import { itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const XML_URL = "https://www.trade-tariff.service.gov.uk/api/v2/exchange_rates/files/monthly_xml_2026-08.xml";
const CSV_URL = "https://www.trade-tariff.service.gov.uk/uk/api/exchange_rates/files/monthly_csv_2026-8.csv";
const parseXml = (body: Buffer | string) => hmrc.parse(Buffer.from(body), { url: XML_URL });
const parseCsv = (body: Buffer | string) => hmrc.parse(Buffer.from(body), { url: CSV_URL });
const august = { effectiveDate: "2026-08-01", validTo: "2026-08-31" };

describe("HMRC adapter", () => {
  it("reads the XML month: every figure valid for the Period, HMRC's ZIG label as ZWG, its ECS row and a bad figure held", async () => {
    const answer = await answerOf(parseXml(fixture("HMRC/monthly_xml_2026-08.xml")));
    expect(answer.records.find((r) => r.currency === "JPY")).toEqual({ ...august, currency: "JPY", rate: "196.3400" });
    expect(answer.records.find((r) => r.currency === "ZWG")).toEqual({ ...august, currency: "ZWG", rate: "35.6210" });
    expect(answer.held.map((h) => [h.kind, h.currency, h.source])).toEqual([
      ["unknown-currency", "ECS", "exchangeRate[10] (Ecuador)"],
      ["bad-rate", "EUR", "exchangeRate[12] (Eurozone)"],
    ]);
  });

  it("folds the one-row-per-country list to one figure per currency through the gate, holding a conflict and non-ISO codes", async () => {
    const answer = await answerOf(parseXml(fixture("HMRC/monthly_xml_2026-08.xml")));
    const gated = gateRecords("GBP", answer.records, answer.held);
    expect(gated.records).toEqual([
      { ...august, currency: "AED", rate: "4.9091" },
      { ...august, currency: "XCD", rate: "3.6090" },
      { ...august, currency: "JPY", rate: "196.3400" },
      { ...august, currency: "USD", rate: "1.3365" },
      { ...august, currency: "ZWG", rate: "35.6210" },
    ]);
    const kinds = gated.held.map((h) => `${h.kind} ${h.currency}`).sort();
    expect(kinds).toEqual([
      "bad-rate EUR",
      "conflict XOF",
      "conflict XOF",
      "unknown-currency ECS",
      "unknown-currency NAC",
    ]);
  });

  it("reads the CSV fallback with each row's own start and end: a figure corrected mid-month starts on its own date", async () => {
    const answer = await answerOf(parseCsv(fixture("HMRC/monthly_csv_2026-8.csv")));
    expect(answer.held).toEqual([]);
    expect(answer.records.filter((r) => r.currency === "TRY")).toEqual([
      { ...august, currency: "TRY", rate: "55.1200" },
      { effectiveDate: "2026-08-18", validTo: "2026-08-31", currency: "TRY", rate: "58.0400" },
    ]);
  });

  itRefusesWhole("HMRC", parseXml, [
    [
      "a list without its Period",
      '<?xml version="1.0"?><exchangeRateMonthList><exchangeRate/></exchangeRateMonthList>',
    ],
    ["another XML document", '<?xml version="1.0"?><gesmes:Envelope xmlns:gesmes="x"><Cube/></gesmes:Envelope>'],
    ["truncated XML", '<?xml version="1.0"?><exchangeRateMonthList Period="01/Aug/2026 to 31/Aug/2026"><exchangeRate>'],
  ]);
  itRefusesWhole("HMRC", parseCsv, [["a CSV of another layout", "Date,USD,EUR\n2026-08-03,1.1,1.2\n"]]);

  it("fetches a range month by month, XML first, the CSV when the XML fails, nothing for a month not published yet (404)", async () => {
    const notFound = () => {
      throw new HttpError("HTTP 404", 404);
    };
    const http = fakeHttp((req) => {
      if (req.url.includes("2026-10")) return notFound();
      if (req.url.endsWith("monthly_xml_2026-09.xml")) throw new HttpError("HTTP 503", 503);
      return {
        body: req.url.endsWith(".csv")
          ? fixture("HMRC/monthly_csv_2026-8.csv")
          : fixture("HMRC/monthly_xml_2026-08.xml"),
      };
    });
    const docs = await hmrc.fetch({ kind: "range", from: "2026-08-15", to: "2026-10-02" }, { http, env: {} });
    expect(http.seen.map((r) => r.url.replace("https://www.trade-tariff.service.gov.uk", ""))).toEqual([
      "/api/v2/exchange_rates/files/monthly_xml_2026-08.xml",
      "/api/v2/exchange_rates/files/monthly_xml_2026-09.xml",
      "/uk/api/exchange_rates/files/monthly_csv_2026-9.csv",
      "/api/v2/exchange_rates/files/monthly_xml_2026-10.xml",
      "/uk/api/exchange_rates/files/monthly_csv_2026-10.csv",
    ]);
    expect(docs.map((d) => d.url.slice(-28))).toEqual(
      ["files/monthly_xml_2026-08.xml", "/files/monthly_csv_2026-9.csv"].map((u) => u.slice(-28)),
    );
  });

  it("asks for this month and the next for the latest", async () => {
    const http = fakeHttp(() => ({ body: fixture("HMRC/monthly_xml_2026-08.xml") }));
    await hmrc.fetch({ kind: "latest" }, { http, env: {} });
    expect(http.seen).toHaveLength(2);
    expect(http.seen.every((r) => /monthly_xml_\d{4}-\d{2}\.xml$/.test(r.url))).toBe(true);
  });

  it.skipIf(!sharedFeedsPresent)(
    "reads the recorded files: 2021-01's XML and 2026-08's CSV agree with their Period",
    async () => {
      const xml = recording("HMRC/001.xml");
      const jan = await answerOf(hmrc.parse(xml.body, { url: xml.url }));
      expect(jan.records.find((r) => r.currency === "AED")).toEqual({
        effectiveDate: "2021-01-01",
        validTo: "2021-01-31",
        currency: "AED",
        rate: "4.9576",
      });
      const csv = recording("HMRC/010.csv");
      const aug = await answerOf(hmrc.parse(csv.body, { url: csv.url }));
      expect(aug.records[0]).toEqual({ ...august, currency: "AED", rate: "4.9091" });
      expect(aug.held).toEqual([]);
    },
  );
});
