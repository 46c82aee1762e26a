import { describe, expect, it } from "vitest";

import inforeuro from "../../adapters/INFOREURO.js";
import { itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const API = "https://ec.europa.eu/budg/inforeuro/api/public/monthly-rates";
const SEPTEMBER = `${API}?lang=en&year=2026&month=9`;
const parseSeptember = (body: Buffer | string) => inforeuro.parse(Buffer.from(body), { url: SEPTEMBER });
const september = { effectiveDate: "2026-09-01", validTo: "2026-09-30" };

describe("INFOREURO adapter", () => {
  it("reads a month: every figure valid for the month asked for, its exact digits, the comment kept out", async () => {
    const answer = await answerOf(parseSeptember(fixture("INFOREURO/monthly-rates-2026-09.json")));
    expect(answer.records.filter((r) => ["BGN", "JPY", "CUP", "VES"].includes(r.currency))).toEqual([
      { ...september, currency: "BGN", rate: "1.9558" },
      { ...september, currency: "JPY", rate: "163.20" },
      // The comment's own number (120.5) is never the figure.
      { ...september, currency: "CUP", rate: "27.840" },
      { ...september, currency: "VES", rate: "123456789012345678.123456" },
    ]);
  });

  it("resolves a code ISO 4217 does not have by the row's currency name (FRC, the Congolese franc), holds what no rule resolves and a bad figure", async () => {
    const answer = await answerOf(parseSeptember(fixture("INFOREURO/monthly-rates-2026-09.json")));
    expect(answer.records.find((r) => r.rate === "3310.52")).toEqual({
      ...september,
      currency: "CDF",
      rate: "3310.52",
    });
    expect(answer.held.map((h) => [h.kind, h.currency, h.source])).toEqual([
      ["unknown-currency", "Atlantean drachma", "[4] (Atlantis)"],
      ["bad-rate", "TOP", "[6] (Tonga)"],
    ]);
  });

  it("keeps legacy ISO codes as published, a month before the euro per 1 ECU stored as per 1 EUR", async () => {
    const url = `${API}?lang=en&month=12&year=1998`;
    const answer = await answerOf(inforeuro.parse(fixture("INFOREURO/monthly-rates-1998-12.json"), { url }));
    const december = { effectiveDate: "1998-12-01", validTo: "1998-12-31" };
    expect(answer.records).toEqual([
      { ...december, currency: "DEM", rate: "1.96028" },
      { ...december, currency: "ROL", rate: "13521.0" },
    ]);
  });

  itRefusesWhole("INFOREURO", parseSeptember, [
    ["an object instead of the array", '{"rates":[{"isoA3Code":"JPY","value":163.2}]}'],
    ["another layout's array", '[{"code":"JPY","rate":163.2}]'],
    ["truncated JSON", '[{"country":"Japan","isoA3Code":"JPY","value":16'],
    ["an empty month", "[]"],
  ]);

  it("refuses an answer whose URL names no month", () => {
    expect(() => inforeuro.parse(fixture("INFOREURO/monthly-rates-2026-09.json"), { url: API })).toThrow(
      /^INFOREURO: an InforEuro answer needs its month/,
    );
  });

  it("fetches a range month by month, leaving out a month not fixed yet (an empty array)", async () => {
    const http = fakeHttp((req) => ({
      body: req.url.endsWith("month=11") ? "[]" : fixture("INFOREURO/monthly-rates-2026-09.json"),
    }));
    const docs = await inforeuro.fetch({ kind: "range", from: "2026-09-20", to: "2026-11-02" }, { http, env: {} });
    expect(http.seen.map((r) => r.url.slice(API.length))).toEqual([
      "?lang=en&year=2026&month=9",
      "?lang=en&year=2026&month=10",
      "?lang=en&year=2026&month=11",
    ]);
    expect(docs.map((d) => d.url.slice(API.length))).toEqual([
      "?lang=en&year=2026&month=9",
      "?lang=en&year=2026&month=10",
    ]);
  });

  it("asks for this month and the next for the latest", async () => {
    const http = fakeHttp(() => ({ body: "[]" }));
    expect(await inforeuro.fetch({ kind: "latest" }, { http, env: {} })).toEqual([]);
    expect(http.seen).toHaveLength(2);
  });

  it.skipIf(!sharedFeedsPresent)(
    "reads the recorded month (1998-12): legacy codes, FRC as CDF, nothing held",
    async () => {
      const r = recording("INFOREURO/001.json");
      const answer = await answerOf(inforeuro.parse(r.body, { url: r.url }));
      expect(answer.held).toEqual([]);
      expect(answer.records).toHaveLength(175);
      const december = { effectiveDate: "1998-12-01", validTo: "1998-12-31" };
      expect(answer.records.find((x) => x.currency === "CDF")).toEqual({
        ...december,
        currency: "CDF",
        rate: "2.90741",
      });
      expect(answer.records.find((x) => x.currency === "STD")).toEqual({
        ...december,
        currency: "STD",
        rate: "8002.89",
      });
    },
  );
});
