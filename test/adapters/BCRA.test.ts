import { describe, expect, it } from "vitest";

import bcra from "../../adapters/BCRA.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const ENDPOINT = "https://api.bcra.gob.ar/estadisticascambiarias/v1.0/Cotizaciones";
const parse = (body: Buffer | string) => bcra.parse(Buffer.from(body), { url: `${ENDPOINT}?fecha=2026-03-19` });
const day = (rows: string) => `{"status":200,"results":{"fecha":"2026-03-19","detalle":[${rows}]}}`;

describe("BCRA adapter", () => {
  it("keeps tipoCotizacion verbatim, reads the per-1.000 unit, maps MXP to MXN and drops ARS, REF, VEB, CNH and zero metals", async () => {
    expect(await parse(fixture("BCRA/cotizaciones.json"))).toEqual([
      { effectiveDate: "2026-03-19", currency: "EUR", rate: "1612.04200000" },
      { effectiveDate: "2026-03-19", currency: "MXN", rate: "78.43832100" },
      { effectiveDate: "2026-03-19", currency: "USD", rate: "1394.50000000" },
      { effectiveDate: "2026-03-19", currency: "VND", rate: "53.04096500", unitMultiplier: 3 },
    ]);
  });

  it("reads a holiday as no records", async () => {
    expect(await parse('{"status":200,"results":{"fecha":null,"detalle":[]}}')).toEqual([]);
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<!DOCTYPE html><html><body>The request was rejected</body></html>"],
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
    [
      "a currency twice with different figures",
      day(
        '{"codigoMoneda":"USD","descripcion":"DOLAR","tipoCotizacion":1394.5},{"codigoMoneda":"USD","descripcion":"DOLAR","tipoCotizacion":1395.5}',
      ),
    ],
    ["a bad date", '{"status":200,"results":{"fecha":"19/03/2026","detalle":[]}}'],
  ])("rejects %s with an error naming the bank", async (_what, body) => {
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^BCRA: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("BCRA/001.json");
    const records = await bcra.parse(r.body, { url: r.url });
    expect(records).toHaveLength(33);
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
