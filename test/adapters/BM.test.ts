import { describe, expect, it, vi } from "vitest";

import bm, { BM_COUNTRIES, bmFileDate } from "../../adapters/BM.js";
import { createHttpClient } from "../../src/feed/http.js";
import { isNavigation, parseDocuments } from "../../src/ingest/ingest.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";
import { pdfOf } from "../support/pdf.js";
import { haveMirror, startMirror } from "../support/mirror.js";
import { withPages } from "../support/overlay.js";

const HOST = "https://www.bancomoc.mz";
const INDEX = `${HOST}/pt/areas-de-actuacao/mercados/mercado-cambial/`;
const PDF_URL = `${HOST}/media/ab12cd34/taxas-de-c%C3%A2mbio-de-refer%C3%AAncia-do-mercado-cambial-do-dia-05032026.pdf`;
const parse = (body: Buffer | string, url = PDF_URL) => bm.parse(Buffer.from(body), { url });

type Run = [x: number, y: number, text: string];
/** A row at height y: country words from x 38.7, the currency at 183.6, figures under the three columns. */
const row = (y: number, country: string, currency: string, ...figures: Array<string | undefined>): Run[] => [
  [38.7, y, country],
  [183.6, y, currency],
  ...figures.flatMap((f, i): Run[] => (f === undefined ? [] : [[[294, 404.4, 487.2][i]!, y, f]])),
];

/** A bulletin in the bank's layout (5 March 2026), with `change` applied to its runs. */
function bulletin(change: (runs: Run[]) => Run[] = (r) => r): Buffer {
  const runs: Run[] = [
    [287.1, 729.35, "MERCADO CAMBIAL"],
    [273.3, 717.75, "BOLETIM Nº 44/26"],
    [24.9, 706.15, "1. TAXAS DE CÂMBIO MÉDIAS DE REFERÊNCIA EM METICAIS DO DIA 05"],
    [452.7, 706.15, "Março"],
    [45.6, 694.55, "de 2026"],
    [335.4, 671.35, "CÂMBIOS(MT)"],
    [24.9, 659.75, "PAÍSES"],
    [183.6, 659.75, "MOEDAS"],
    [294, 659.75, "COMPRA"],
    [404.4, 659.75, "VENDA"],
    [480.3, 659.75, "MÉDIA"],
    ...row(636.55, "Estados Unidos(a)", "", "63,25", "64,52", "63,89"),
    [24.9, 613.35, "2. OUTRAS TAXAS MÉDIAS (b)"],
    [24.9, 601.75, "2.1. PAÍSES VIZINHOS"],
    [24.9, 590.15, "2.1.1 Meticais por Unidade de Moeda"],
    ...row(566.95, "Àfrica do Sul", "Rand", "3,90", "3,98", "3,94"),
    [24.9, 497.35, "2.1.2 Meticais por 1000 Unidades de Moeda"],
    ...row(462.55, "Japão", "Iene", "401,20", "409,25", "405,23"),
    // the label a little off the figures' baseline, as in the bank's files
    ...row(451.9, "Zimbabwe", "Dólar", "167,38", "170,74", "169,06").map(([x, y, t]): Run => [
      x,
      x < 200 ? y + 1.5 : y,
      t,
    ]),
    [24.9, 392.95, "2.2.1 Meticais por Unidade de Moeda"],
    ...row(369.75, "China/Offshore", "Renminbi", "9,30", "9,49", "9,40"),
    ...row(358.15, "União Europeia", "Euro", "1.073,27", "1.074,74", "1.074,01"),
    ...row(346.55, "Suíça", "Franco", "77,60", "79,16", "78,40"),
    [24.9, 242.15, "3. OUTRAS INFORMAÇÕES"],
    [24.9, 184.15, "Compra............."],
    [169.8, 184.15, "4.336,60000"],
    [231.9, 149.35, "Maputo, 06.03.2026"],
  ];
  return pdfOf(change(runs));
}
/** Where a record stood (a line of the page): any text. */
const ANY_SOURCE = expect.any(String) as unknown as string;
const USD = { effectiveDate: "2026-03-05", currency: "USD", rate: "63.89" };
const usdOnly = (runs: Run[]) => runs.filter(([, y]) => y > 600 || y < 250);

describe("BM adapter", () => {
  it("reads the dollar fixing and the crosses: MÉDIA as published, per-1000 as unitMultiplier 3, decimal commas", async () => {
    const { records, held } = await answerOf(parse(bulletin()));
    expect(records.map(({ source, ...r }) => (void source, r))).toEqual([
      USD,
      { effectiveDate: "2026-03-05", currency: "ZAR", rate: "3.94" },
      { effectiveDate: "2026-03-05", currency: "JPY", rate: "405.23", unitMultiplier: 3 },
      { effectiveDate: "2026-03-05", currency: "CNH", rate: "9.40" },
      { effectiveDate: "2026-03-05", currency: "EUR", rate: "1074.01" },
      { effectiveDate: "2026-03-05", currency: "CHF", rate: "78.40" },
    ]);
    // The offshore yuan is published as its market code (above); the Zimbabwe row is held, with its reason.
    expect(held.map((h) => [h.kind, h.currency, h.rate])).toEqual([
      ["unknown-currency", "Zimbabwe", "167,38 170,74 169,06"],
    ]);
    expect(held[0]!.reason).toMatch(/which Zimbabwean currency/);
  });

  it("takes the exact mean of COMPRA and VENDA for a bulletin without MÉDIA (before November 2020), flagged", async () => {
    const old = (runs: Run[]) => usdOnly(runs).filter(([x, y]) => !(x > 470 && y > 600 && y < 700));
    expect((await answerOf(parse(bulletin(old)))).records).toEqual([
      { ...USD, rate: "63.885", derivation: "mean", source: ANY_SOURCE },
    ]);
  });

  it("takes the dollar row without its label (section 1 is the dollar fixing)", async () => {
    const unlabelled = (runs: Run[]) => usdOnly(runs).filter(([, y, t]) => !(y === 636.55 && t.startsWith("Estados")));
    expect((await answerOf(parse(bulletin(unlabelled)))).records).toMatchObject([USD]);
  });

  const swap = (from: string, to: string) => (rs: Run[]) => rs.map(([x, y, t]): Run => [x, y, t === from ? to : t]);
  it.each([
    ["an unknown country", swap("Àfrica do Sul", "Atlântida"), "unknown-currency"],
    ["a figure that is not a number", swap("3,94", "3,9x4"), "bad-rate"],
    ["a dash for its MÉDIA (never replaced by a mean)", swap("3,94", "-"), "bad-rate"],
  ] as const)("holds a row with %s and takes the others", async (_what, change, kind) => {
    const bad = (runs: Run[]) => change(runs.filter(([, y]) => y > 560 || y < 250));
    await expectOneHeld(parse(bulletin(bad)), { records: [{ ...USD, source: ANY_SOURCE }], held: { kind } });
  });

  it("holds every row of a bulletin whose heading is no real date", async () => {
    const answer = await answerOf(
      parse(
        bulletin((rs) =>
          usdOnly(rs)
            .map(([x, y, t]): Run => [x, y, t === "Março" ? "Fevereiro" : t])
            .map(([x, y, t]): Run => [x, y, t.replace("DIA 05", "DIA 30")]),
        ),
        HOST,
      ),
    );
    expect(answer.records).toEqual([]);
    expect(answer.held.map((h) => h.kind)).toEqual(["bad-date"]);
  });

  itRefusesWhole("BM", (body) => parse(body), [
    [
      "another day's bulletin under this name",
      bulletin((rs) => rs.map(([x, y, t]): Run => [x, y, t.replace("DIA 05", "DIA 04")])),
    ],
    ["a bulletin without its dated heading", bulletin((rs) => rs.slice(3))],
    ["a bulletin without its column header", bulletin((rs) => rs.filter(([, , t]) => t !== "COMPRA"))],
    ["a bulletin without rates", bulletin((rs) => rs.filter(([, y]) => y > 640 || y < 250))],
    ["a truncated PDF", bulletin().subarray(0, 400)],
  ]);

  it("reads the market page, the listings that meet the range, then each bulletin of the range", async () => {
    const listing = (years: string) => `${HOST}/pt/tabelas-de-taxas-de-cambio-de-referencia-diarias/${years}/`;
    const pdf = (id: string, day: string) =>
      `/media/${id}/taxas-de-câmbio-de-referência-do-mercado-cambial-do-dia-${day}.pdf`;
    const pages: Record<string, string> = {
      [INDEX]: fixture("BM/mercado-cambial.html").toString(),
      [listing("2026-2025")]:
        `<ul><li><a href="${pdf("ab12cd34", "05032026")}">5 de Março</a></li><li><a href="${pdf("zz99", "04032026")}">4</a></li><li><a href="${pdf("old1", "31122025")}">31</a></li></ul>`,
    };
    const http = fakeHttp((req) => {
      const page = pages[req.url];
      return page !== undefined ? { body: page } : req.url.endsWith(".pdf") ? { body: bulletin() } : undefined;
    });
    const docs = await bm.fetch({ kind: "range", from: "2026-03-04", to: "2026-03-06" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([
      INDEX,
      listing("2026-2025"),
      `${HOST}/media/zz99/taxas-de-c%C3%A2mbio-de-refer%C3%AAncia-do-mercado-cambial-do-dia-04032026.pdf`,
      PDF_URL,
    ]);
    expect(docs.map((d) => d.role ?? isNavigation(bm, d))).toEqual(["navigation", "navigation", false, false]);
    // Saved copies of the market page and a listing are told apart by their content: navigation, never parsed.
    for (const page of [INDEX, listing("2026-2025")])
      expect(
        isNavigation(bm, { url: page, method: "GET", contentType: "text/html", body: Buffer.from(pages[page]!) }),
      ).toBe(true);
    expect(bmFileDate(PDF_URL)).toBe("2026-03-05");
  });

  it("reads a saved bulletin given without its URL (the bank's source URL is the market page)", async () => {
    const saved = { url: bm.bank.sourceUrl, method: "GET" as const, contentType: "application/pdf" };
    expect(isNavigation(bm, { ...saved, body: bulletin(usdOnly) })).toBe(false);
    const { records } = await answerOf(bm.parse(bulletin(usdOnly), { url: bm.bank.sourceUrl }));
    expect(records).toMatchObject([USD]);
  });

  it("names every recorded country, and holds the ones that have no currency to publish", () => {
    const held = Object.entries(BM_COUNTRIES)
      .filter(([, v]) => typeof v === "object")
      .map(([k]) => k);
    expect(held).toEqual(["zimbabwe"]);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded bulletin exactly (values read off the file by hand)", async () => {
    const file = recording("BM/001.pdf");
    const { records, held } = await answerOf(bm.parse(file.body, { url: file.url }));
    // Estados Unidos(a) 63,27 64,54 63,91; Japão Iene 396,53 404,49 400,51 (per 1000); União Europeia 74,01.
    const day = "2026-09-02";
    expect(records.map(({ source, ...r }) => (void source, r))).toEqual(
      [
        ["USD", "63.91"],
        ["ZAR", "3.97"],
        ["BWP", "5.02"],
        ["SZL", "3.97"],
        ["MUR", "1.36"],
        ["ZMW", "3.36"],
        ["JPY", "400.51", 3],
        ["MWK", "37.22", 3],
        ["TZS", "24.25", 3],
        ["BRL", "12.39"],
        ["CAD", "45.93"],
        ["CNH", "9.51"],
        ["CNY", "9.51"],
        ["DKK", "9.90"],
        ["GBP", "86.12"],
        ["NOK", "6.84"],
        ["SEK", "6.63"],
        ["CHF", "78.46"],
        ["EUR", "74.01"],
      ].map(([currency, rate, units]) => ({
        effectiveDate: day,
        currency,
        rate,
        ...(units ? { unitMultiplier: units } : {}),
      })),
    );
    expect(held.map((h) => [h.kind, h.currency])).toEqual([["unknown-currency", "Zimbabwe"]]);
  });

  it.skipIf(!haveMirror)(
    "fetches and parses through the feed mirror (market page and listing, not recorded, ours)",
    async () => {
      const mirror = await startMirror(["BM"]);
      const pdf = "/media/prubk0qz/taxas-de-câmbio-de-referência-do-mercado-cambial-do-dia-02092026.pdf";
      try {
        const http = withPages(createHttpClient({ mirror: mirror.url, retries: 0 }), {
          [INDEX]: fixture("BM/mercado-cambial.html"),
          [`${HOST}/pt/tabelas-de-taxas-de-cambio-de-referencia-diarias/2026-2025/`]: `<a href="${pdf}">2 de Setembro</a>`,
        });
        const docs = await bm.fetch({ kind: "range", from: "2026-09-01", to: "2026-09-04" }, { http, env: {} });
        // The mirror logs each answer as it sends it: wait for the last line.
        await vi.waitFor(() => expect(mirror.served().map((s) => s.file)).toEqual(["BM/001.pdf"]));
        const parsed = await parseDocuments(bm, docs);
        expect([parsed.at(-1)!.records.length, parsed.at(-1)!.held.length]).toEqual([19, 1]);
      } finally {
        await mirror.stop();
      }
    },
  );
});
