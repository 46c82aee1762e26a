import { describe, expect, it } from "vitest";

import bcb from "../../adapters/BCB.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const PERIOD =
  "https://olinda.bcb.gov.br/olinda/servico/PTAX/versao/v1/odata/CotacaoMoedaPeriodo(moeda=@moeda,dataInicial=@dataInicial,dataFinalCotacao=@dataFinalCotacao)";
const urlOf = (ccy: string) =>
  `${PERIOD}?@moeda=%27${ccy}%27&@dataInicial=%2703-01-2026%27&@dataFinalCotacao=%2703-07-2026%27&$filter=tipoBoletim%20eq%20%27Fechamento%27&$format=json`;
const parse = (body: Buffer | string, ccy = "JPY") => bcb.parse(Buffer.from(body), { url: urlOf(ccy) });

describe("BCB adapter", () => {
  it("takes the selling rate of the closing bulletin only, currency from the URL, trailing zeros kept", async () => {
    expect(await recordsOf(parse(fixture("BCB/jpy-period.json")))).toEqual([
      { effectiveDate: "2026-03-02", currency: "JPY", rate: "0.03311" },
      { effectiveDate: "2026-03-03", currency: "JPY", rate: "0.03370" },
    ]);
  });

  it("reads a period without bulletins as no records", async () => {
    expect(await recordsOf(parse('{"@odata.context":"x","value":[]}'))).toEqual([]);
  });

  itRefusesWhole("BCB", parse, [
    ["truncated JSON", '{"value":[{"cotacaoCompra":0.03310,"cotacaoVenda":0.033'],
    [
      "another bank's body (CNB)",
      '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.170}]}',
    ],
    ["items of another layout", '{"value":[{"data":"2026-03-02","venda":0.03311}]}'],
  ]);

  const bulletins = (bad: string) =>
    `{"value":[{"cotacaoCompra":0.03310,"cotacaoVenda":0.03311,"dataHoraCotacao":"2026-03-02 13:09:26.433","tipoBoletim":"Fechamento"},` +
    `${bad},` +
    `{"cotacaoCompra":0.03360,"cotacaoVenda":0.03370,"dataHoraCotacao":"2026-03-04 13:10:27.879","tipoBoletim":"Fechamento"}]}`;
  const taken = [
    { effectiveDate: "2026-03-02", currency: "JPY", rate: "0.03311" },
    { effectiveDate: "2026-03-04", currency: "JPY", rate: "0.03370" },
  ];
  it.each([
    [
      "a missing selling rate",
      '{"cotacaoCompra":0.03310,"dataHoraCotacao":"2026-03-03 13:09:26.433","tipoBoletim":"Fechamento"}',
      { kind: "bad-rate" },
    ],
    [
      "a timestamp in another form",
      '{"cotacaoVenda":0.03311,"dataHoraCotacao":"03/03/2026 13:09","tipoBoletim":"Fechamento"}',
      { kind: "bad-date", effectiveDate: "03/03/2026 13:09" },
    ],
    [
      "a date that does not exist",
      '{"cotacaoVenda":0.03311,"dataHoraCotacao":"2026-02-29 13:09:26.433","tipoBoletim":"Fechamento"}',
      { kind: "bad-date", effectiveDate: "2026-02-29 13:09:26.433" },
    ],
  ] as const)("holds %s and takes the other rows", async (_what, bad, held) => {
    await expectOneHeld(parse(bulletins(bad)), { records: taken, held: { ...held, source: "value[1]" } });
  });

  it("rejects a body whose URL names no PTAX currency", async () => {
    await expect(async () => parse('{"value":[]}', "XYZ")).rejects.toThrow(/^BCB: cannot tell the currency/);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recordings exactly (values read off the files by hand)", async () => {
    const usd = recording("BCB/010.json");
    const records = await recordsOf(bcb.parse(usd.body, { url: usd.url }));
    expect(records).toHaveLength(5);
    expect(records[0]).toEqual({ effectiveDate: "2026-03-02", currency: "USD", rate: "5.20010" });
    expect(records[4]).toEqual({ effectiveDate: "2026-03-06", currency: "USD", rate: "5.28780" });
    const eur = recording("BCB/005.json");
    expect((await recordsOf(bcb.parse(eur.body, { url: eur.url })))[0]).toEqual({
      effectiveDate: "2026-03-02",
      currency: "EUR",
      rate: "6.07420",
    });
    const aud = recording("BCB/001.json");
    expect((await recordsOf(bcb.parse(aud.body, { url: aud.url })))[1]).toEqual({
      effectiveDate: "2026-03-03",
      currency: "AUD",
      rate: "3.69980",
    });
  });

  it("asks each of the ten PTAX currencies with MM-DD-YYYY alias dates", async () => {
    const http = fakeHttp(() => ({ body: '{"value":[]}' }));
    await bcb.fetch({ kind: "range", from: "2026-03-01", to: "2026-03-07" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual(
      ["AUD", "CAD", "CHF", "DKK", "EUR", "GBP", "JPY", "NOK", "SEK", "USD"].map(urlOf),
    );
    const latest = fakeHttp(() => ({ body: '{"value":[]}' }));
    await bcb.fetch({ kind: "latest" }, { http: latest, env: {} });
    expect(latest.seen).toHaveLength(10);
    expect(latest.seen[9]!.url).toMatch(
      /@moeda=%27USD%27&@dataInicial=%27\d\d-\d\d-\d{4}%27&@dataFinalCotacao=%27\d\d-\d\d-\d{4}%27&\$filter=/,
    );
  });
});
