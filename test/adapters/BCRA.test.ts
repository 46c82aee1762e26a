import { describe, expect, it } from "vitest";

import bcra from "../../adapters/BCRA.js";
import { baseCurrencyOf } from "../../src/feed/adapter.js";
import { gateRecords } from "../../src/ingest/validate.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const ENDPOINT = "https://api.bcra.gob.ar/estadisticascambiarias/v1.0/Cotizaciones";
const parse = (body: Buffer | string) => bcra.parse(Buffer.from(body), { url: `${ENDPOINT}?fecha=2026-03-19` });
const day = (rows: string) => `{"status":200,"results":{"fecha":"2026-03-19","detalle":[${rows}]}}`;

describe("BCRA adapter", () => {
  it("keeps tipoCotizacion verbatim, reads the per-1.000 unit, maps MXP to MXN, skips ARS, REF and zero metals, holds VEB", async () => {
    const answer = await answerOf(parse(fixture("BCRA/cotizaciones.json")));
    expect(answer.records).toEqual([
      { effectiveDate: "2026-03-19", currency: "EUR", rate: "1612.04200000" },
      { effectiveDate: "2026-03-19", currency: "MXN", rate: "78.43832100" },
      { effectiveDate: "2026-03-19", currency: "USD", rate: "1394.50000000" },
      { effectiveDate: "2026-03-19", currency: "VND", rate: "53.04096500", unitMultiplier: 3 },
      // The offshore yuan goes on as written: a market code, published (src/feed/market-codes.ts).
      { effectiveDate: "2026-03-19", currency: "CNH", rate: "202.43003100" },
      { effectiveDate: "2026-03-19", currency: "USD", rate: "1394.50000000" },
    ]);
    expect(answer.held).toEqual([
      expect.objectContaining({ kind: "unknown-unit", currency: "VEB", rate: "3.13045430", source: "detalle[5]" }),
    ]);
    const gated = gateRecords(baseCurrencyOf(bcra.bank), answer.records, answer.held);
    expect(gated.records.map((r) => r.currency)).toEqual(["EUR", "MXN", "USD", "VND", "CNH"]);
    expect(gated.held.map((h) => [h.kind, h.currency])).toEqual([["unknown-unit", "VEB"]]);
  });

  it("reads a holiday as no records", async () => {
    expect(await recordsOf(parse('{"status":200,"results":{"fecha":null,"detalle":[]}}'))).toEqual([]);
  });

  itRefusesWhole("BCRA", parse, [
    [
      "truncated JSON",
      '{"status":200,"results":{"fecha":"2026-03-19","detalle":[{"codigoMoneda":"USD","tipoCotizacion":1394.5',
    ],
    [
      "another bank's body (CNB)",
      '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.170}]}',
    ],
    [
      "an error status",
      '{"status":400,"errorMessages":["fecha invalida"],"results":{"fecha":"2026-03-19","detalle":[]}}',
    ],
  ]);

  const usd = '{"codigoMoneda":"USD","descripcion":"DOLAR E.E.U.U.","tipoCotizacion":1394.50000000}';
  const eur = '{"codigoMoneda":"EUR","descripcion":"EURO","tipoCotizacion":1612.04200000}';
  const taken = [
    { effectiveDate: "2026-03-19", currency: "USD", rate: "1394.50000000" },
    { effectiveDate: "2026-03-19", currency: "EUR", rate: "1612.04200000" },
  ];
  it.each([
    [
      "a figure that is not a number",
      '{"codigoMoneda":"GBP","descripcion":"LIBRA","tipoCotizacion":"1.866,1"}',
      { kind: "bad-rate", currency: "GBP", rate: "1.866,1" },
    ],
    [
      "a unit count that is not whole",
      '{"codigoMoneda":"VND","descripcion":"DONG VIETNAM (C/1.5 UNIDADES)","tipoCotizacion":53.04096500}',
      { kind: "unknown-unit", currency: "VND" },
    ],
    [
      "a code that is no code",
      '{"codigoMoneda":"LIBRA","descripcion":"LIBRA","tipoCotizacion":1866.1}',
      { kind: "unknown-currency", currency: "LIBRA" },
    ],
  ] as const)("holds %s and takes the other rows", async (_what, bad, held) => {
    await expectOneHeld(parse(day(`${usd},${bad},${eur}`)), {
      records: taken,
      held: { ...held, source: "detalle[1]" },
    });
  });

  it("holds every row of a day whose date is not a date", async () => {
    const answer = await answerOf(parse(`{"status":200,"results":{"fecha":"19/03/2026","detalle":[${usd},${eur}]}}`));
    expect(answer.records).toEqual([]);
    expect(answer.held.map((h) => [h.kind, h.effectiveDate])).toEqual([
      ["bad-date", "19/03/2026"],
      ["bad-date", "19/03/2026"],
    ]);
  });

  it("passes a currency given twice with different figures to the gate, which holds both", async () => {
    const other = '{"codigoMoneda":"USD","descripcion":"DOLAR","tipoCotizacion":1395.5}';
    const answer = await answerOf(parse(day(`${usd},${other},${eur}`)));
    const gated = gateRecords("ARS", answer.records, answer.held);
    expect(gated.records).toEqual([taken[1]]);
    expect(gated.held.map((h) => [h.kind, h.currency, h.rate])).toEqual([
      ["conflict", "USD", "1394.50000000"],
      ["conflict", "USD", "1395.5"],
    ]);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("BCRA/001.json");
    const records = await recordsOf(bcra.parse(r.body, { url: r.url }));
    expect(records).toHaveLength(34); // CNH among them: a market code, published
    const find = (currency: string) => records.find((x) => x.currency === currency);
    expect(find("USD")).toEqual({ effectiveDate: "2026-03-19", currency: "USD", rate: "1394.50000000" });
    expect(find("JPY")).toEqual({ effectiveDate: "2026-03-19", currency: "JPY", rate: "8.83489600" });
    expect(find("VND")).toEqual({
      effectiveDate: "2026-03-19",
      currency: "VND",
      rate: "53.04096500",
      unitMultiplier: 3,
    });
    expect(find("XDR")).toEqual({ effectiveDate: "2026-03-19", currency: "XDR", rate: "1894.56770000" });
    expect(find("XAU")).toBeUndefined();
  });

  it("asks one fecha per weekday", async () => {
    const http = fakeHttp(() => ({ body: '{"status":200,"results":{"fecha":null,"detalle":[]}}' }));
    await bcra.fetch({ kind: "range", from: "2026-03-20", to: "2026-03-23" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([`${ENDPOINT}?fecha=2026-03-20`, `${ENDPOINT}?fecha=2026-03-23`]);
    const latest = fakeHttp(() => ({ body: '{"status":200,"results":{"fecha":null,"detalle":[]}}' }));
    await bcra.fetch({ kind: "latest" }, { http: latest, env: {} });
    expect(latest.seen.length).toBeGreaterThanOrEqual(2);
    for (const r of latest.seen) expect(r.url).toMatch(/Cotizaciones\?fecha=\d{4}-\d{2}-\d{2}$/);
  });
});
