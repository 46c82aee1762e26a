import { readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import bccr, { columnDate } from "../../adapters/BCCR.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const DATA =
  "https://apim.bccr.fi.cr/SDDE/api/Bccr.GE.SDDE.IndicadoresSitioExterno.GrupoVariables.API/CuadroGrupoVariables/ObtenerDatosCuadro";
const TOKEN =
  "https://apim.bccr.fi.cr/SDDE/api/Bccr.GE.SDDE.IndicadoresSitioExterno.ServiciosUsuario.API/Token/GenereCSRF";
const parse = (body: Buffer | string, url = `${DATA}?IdGrupoVariable=1`) => bccr.parse(Buffer.from(body), { url });
const JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJBbm9uaW1vIn0.c2lnbmF0dXJl";

describe("BCCR adapter", () => {
  it("takes the selling reference rate (318, Venta/Sell) of each date column, skipping empty days", async () => {
    expect(await recordsOf(parse(fixture("BCCR/cuadro.json")))).toEqual([
      { effectiveDate: "2025-12-31", currency: "USD", rate: "500.49" },
      { effectiveDate: "2026-01-01", currency: "USD", rate: "500.49" },
      { effectiveDate: "2026-01-03", currency: "USD", rate: "498.30" },
    ]);
  });

  it("reads the column titles in English and Spanish", () => {
    expect(columnDate("15 dec 2025")).toBe("2025-12-15");
    expect(columnDate("04 ago 2026", ["es"])).toBe("2026-08-04");
    expect(columnDate("15 dic 2025", ["es"])).toBe("2025-12-15");
    expect(columnDate("31 feb 2026")).toBeUndefined();
  });

  it("marks the token answer as navigation, never parsed", () => {
    expect(bccr.navigation?.test(TOKEN)).toBe(true);
    expect(bccr.navigation?.test(`${DATA}?IdGrupoVariable=1`)).toBe(false);
  });

  const cuadro = readFileSync(new URL("../fixtures/BCCR/cuadro.json", import.meta.url), "utf8");
  itRefusesWhole("BCCR", parse, [
    ["truncated JSON", cuadro.slice(0, 600)],
    ["another bank's body", '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.1}]}'],
    [
      "a cuadro whose 318 row is the buying rate",
      cuadro.replace(
        '"idIndicador":318,"nombreEspanol":"Venta","nombreIngles":"Sell"',
        '"idIndicador":318,"nombreEspanol":"Compra","nombreIngles":"Buy"',
      ),
    ],
    ["a cuadro without the selling rate", cuadro.replace('"idIndicador":318', '"idIndicador":319')],
    ["a column of another kind", cuadro.replace('"field":"serie1"', '"field":"total1"')],
    ["the token where the cuadro was expected", JWT],
  ]);

  const taken = [
    { effectiveDate: "2025-12-31", currency: "USD", rate: "500.49" },
    { effectiveDate: "2026-01-01", currency: "USD", rate: "500.49" },
  ];
  it.each([
    [
      "English and Spanish figures that differ",
      cuadro.replace('"serie3":"498,30"', '"serie3":"498,31"'),
      { kind: "conflict", rate: "498.30" },
    ],
    [
      "a column that is not a date",
      cuadro.replace('"tituloIngles":"03 jan 2026"', '"tituloIngles":"Q1 2026"'),
      { kind: "bad-date", effectiveDate: "Q1 2026/03 ene 2026" },
    ],
    [
      "a figure that is not a number",
      cuadro.replace('"serie3Ingles":"498.30"', '"serie3Ingles":"498.3O"'),
      { kind: "bad-rate", rate: "498.3O" },
    ],
  ] as const)("holds %s and takes the other columns", async (_what, body, held) => {
    await expectOneHeld(parse(body), { records: taken, held: { ...held, source: "column serie3" } });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded cuadro exactly (values read off the file by hand)", async () => {
    const r = recording("BCCR/002.json");
    const records = await recordsOf(bccr.parse(r.body, { url: r.url }));
    expect(records).toHaveLength(60);
    expect(records[0]).toEqual({ effectiveDate: "2025-12-15", currency: "USD", rate: "500.49" });
    expect(records[5]).toEqual({ effectiveDate: "2025-12-20", currency: "USD", rate: "498.05" });
    expect(records.at(-1)).toEqual({ effectiveDate: "2026-02-12", currency: "USD", rate: "490.28" });
    const t = recording("BCCR/001.txt");
    expect(bccr.navigation?.test(t.url)).toBe(true);
  });

  it("gets the token in a session and sends it with the Origin to the data request", async () => {
    const http = fakeHttp((req) => ({ body: req.url === TOKEN ? JWT : "{}" }));
    const docs = await bccr.fetch({ kind: "range", from: "2026-01-01", to: "2026-03-31" }, { http, env: {} });
    expect(http.seen).toEqual([
      { method: "GET", url: TOKEN, headers: undefined },
      {
        method: "GET",
        url: `${DATA}?IdGrupoVariable=1&FechaInicio=2026-01-01T00:00:00&FechaFin=2026-03-31&CantidadSeriesAMostrar=100`,
        headers: { token_csrf: JWT, Origin: "https://sdd.bccr.fi.cr" },
      },
    ]);
    expect(docs.map((d) => [d.role, d.url])).toEqual([
      ["navigation", TOKEN],
      [
        undefined,
        `${DATA}?IdGrupoVariable=1&FechaInicio=2026-01-01T00:00:00&FechaFin=2026-03-31&CantidadSeriesAMostrar=100`,
      ],
    ]);
    const waf = fakeHttp(() => ({ body: "<html><body>blocked</body></html>" }));
    await expect(bccr.fetch({ kind: "latest" }, { http: waf, env: {} })).rejects.toThrow(/^BCCR: /);
  });
});
