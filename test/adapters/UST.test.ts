import { describe, expect, it } from "vitest";

import ust, { ustCurrency } from "../../adapters/UST.js";
import { gateRecords } from "../../src/ingest/validate.js";
import { inForceOn } from "../../src/store/periods.js";
import type { PeriodFigure } from "../../src/store/periods.js";
import { itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const API = "https://api.fiscaldata.treasury.gov/services/api/fiscal_service/v1/accounting/od/rates_of_exchange";
const FIXTURE = "UST/rates_of_exchange_2026q2.json";
const parse = (body: Buffer | string) => ust.parse(Buffer.from(body), { url: API });
const q2 = { effectiveDate: "2026-06-30", validTo: "2026-09-29" };
const plain = (records: Array<{ effectiveDate: string; validTo?: string; currency: string; rate: string }>) =>
  records.map(({ effectiveDate, validTo, currency, rate }) => ({ effectiveDate, validTo, currency, rate }));

describe("UST adapter", () => {
  it("reads each figure from its effective date to the day before the next quarter's end, foreign units per 1 USD", async () => {
    const answer = await answerOf(parse(fixture(FIXTURE)));
    expect(plain(answer.records.filter((r) => r.currency === "JPY"))).toEqual([
      { effectiveDate: "2026-03-31", validTo: "2026-06-29", currency: "JPY", rate: "150.01" },
      { ...q2, currency: "JPY", rate: "145.2" },
    ]);
  });

  it("keeps a mid-quarter amendment as its own figure from its effective date; the store ends the amended one the day before", async () => {
    const answer = await answerOf(parse(fixture(FIXTURE)));
    const won = plain(answer.records.filter((r) => r.currency === "KRW"));
    expect(won).toEqual([
      { ...q2, currency: "KRW", rate: "1380.0" },
      { effectiveDate: "2026-08-14", validTo: "2026-09-29", currency: "KRW", rate: "1421.5" },
    ]);
    const figures = won.map((r, i) => ({ ...r, validTo: r.validTo!, storedAt: "", fetchId: i + 1 }) as PeriodFigure);
    expect(inForceOn(figures, "2026-08-13")!.rows).toMatchObject([{ rate: "1380.0", validTo: "2026-08-13" }]);
    expect(inForceOn(figures, "2026-08-14")!.rows).toMatchObject([{ rate: "1421.5", validFrom: "2026-08-14" }]);
  });

  it("resolves Country-Currency labels by the kit's name rules, recording how", async () => {
    const answer = await answerOf(parse(fixture(FIXTURE)));
    const byCurrency = (code: string) => answer.records.find((r) => r.currency === code);
    expect(byCurrency("TRY")).toMatchObject({
      rate: "40.5",
      derivation: 'name "Turkey Lira" resolved by territory TR',
    });
    expect(byCurrency("XOF")).toMatchObject({ rate: "561.0", derivation: 'name "Benin" resolved by territory BJ' });
    expect(byCurrency("TOP")).toMatchObject({ rate: "2.35" });
    expect(ustCurrency("Euro Zone-Euro", "2026-06-30").currency).toBe("EUR");
    expect(ustCurrency("China-Renminbi", "2026-06-30").currency).toBe("CNY");
    // Cuba's two currencies: the label's unit decides, never the territory alone.
    expect(ustCurrency("Cuba-Peso", "2026-06-30").currency).toBe("CUP");
    expect(ustCurrency("Cuba-Chavito", "2026-06-30").currency).toBe("CUC");
    expect(() => ustCurrency("Bulgaria-Lev New", "2026-06-30")).toThrow(/neither "Bulgaria" nor "Lev"/);
  });

  it("holds an unknown label, a bad figure, an effective date outside its quarter and a dollar label not at 1; leaves the dollar itself out", async () => {
    const answer = await answerOf(parse(fixture(FIXTURE)));
    expect(answer.held.map((h) => [h.kind, h.source])).toEqual([
      ["bad-row", "data[11] (Panama-Dolares)"],
      ["unknown-currency", "data[12] (Atlantis-Drachma)"],
      ["bad-rate", "data[13] (Mexico-Peso)"],
      ["bad-date", "data[14] (Canada-Dollar)"],
    ]);
    expect(answer.records.some((r) => r.currency === "USD")).toBe(false);
  });

  it("one figure per currency through the gate: the CFA franc's territories folded, the euro's two figures held", async () => {
    const answer = await answerOf(parse(fixture(FIXTURE)));
    const gated = gateRecords("USD", answer.records, answer.held);
    expect(gated.records.filter((r) => r.currency === "XOF")).toHaveLength(1);
    expect(gated.held.filter((h) => h.kind === "conflict").map((h) => [h.currency, h.rate])).toEqual([
      ["EUR", "0.85"],
      ["EUR", "0.851"],
    ]);
  });

  itRefusesWhole("UST", parse, [
    ["a JSON of another layout", '{"rates":[{"code":"JPY","rate":"145.2"}]}'],
    ["a data array without its labels", '{"data":[{"record_date":"2026-06-30","rate":"1"}],"meta":{}}'],
    ["an empty table", '{"data":[],"meta":{"total-pages":0}}'],
    ["truncated JSON", '{"data":[{"record_date":"2026-06-30","effecti'],
  ]);

  it("fetches every page of the record dates that can be in force in the range", async () => {
    const page = (n: number) =>
      JSON.stringify({
        data: [
          {
            record_date: "2026-06-30",
            effective_date: "2026-06-30",
            country_currency_desc: "Japan-Yen",
            exchange_rate: `14${n}.0`,
          },
        ],
        meta: { "total-pages": 2 },
      });
    const http = fakeHttp((req) => ({ body: page(req.url.includes("page%5Bnumber%5D=2") ? 2 : 1) }));
    const docs = await ust.fetch({ kind: "range", from: "2026-07-01", to: "2026-09-30" }, { http, env: {} });
    expect(http.seen.map((r) => r.url.slice(API.length))).toEqual([
      "?fields=record_date,effective_date,country_currency_desc,exchange_rate&filter=record_date:gte:2026-03-31,record_date:lte:2026-09-30&page%5Bnumber%5D=1&page%5Bsize%5D=10000&sort=record_date",
      "?fields=record_date,effective_date,country_currency_desc,exchange_rate&filter=record_date:gte:2026-03-31,record_date:lte:2026-09-30&page%5Bnumber%5D=2&page%5Bsize%5D=10000&sort=record_date",
    ]);
    expect(docs).toHaveLength(2);
  });

  it.skipIf(!sharedFeedsPresent)(
    "reads the recorded table (2026-03-31 and 2026-06-30): amendments kept, few labels held",
    async () => {
      const r = recording("UST/001.json");
      const answer = await answerOf(ust.parse(r.body, { url: r.url }));
      expect(plain(answer.records.filter((x) => x.currency === "ILS"))).toEqual([
        { effectiveDate: "2026-03-31", validTo: "2026-06-29", currency: "ILS", rate: "3.165" },
        { effectiveDate: "2026-05-29", validTo: "2026-06-29", currency: "ILS", rate: "2.807" },
        { ...q2, currency: "ILS", rate: "2.977" },
      ]);
      expect(answer.held.map((h) => h.currency)).toEqual(["Bulgaria-Lev New"]);
    },
  );
});
