import { describe, expect, it } from "vitest";

import bna from "../../adapters/BNA.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const SERVICE = "https://www.bna.ao/service/rest/taxas/get";
const RATES_URL = `${SERVICE}/evolucao/taxa/intervalo?datafim=2026-05-21&datainicio=2026-05-18&moeda=USD&tipocambio=M`;
const parse = (body: Buffer | string, url = RATES_URL) => bna.parse(Buffer.from(body), { url });

describe("BNA adapter", () => {
  it("reads the mid rates with every digit", async () => {
    expect(await recordsOf(parse(fixture("BNA/intervalo.json")))).toEqual([
      { effectiveDate: "2026-05-19", currency: "USD", rate: "913.116" },
      { effectiveDate: "2026-05-20", currency: "USD", rate: "913.1160" },
      { effectiveDate: "2026-05-21", currency: "USD", rate: "0.00004" },
    ]);
  });

  it("treats the currency list as navigation, never parsed", () => {
    expect(bna.navigation?.test(`${SERVICE}/lista/moedas`)).toBe(true);
    expect(bna.navigation?.test(RATES_URL)).toBe(false);
  });

  it("drops XDRUSD, XAU and VEF (a VES-sized figure under the old code), refusing an answer of nothing else", async () => {
    const item = (code: string, taxa = "1.79548") =>
      `{"taxa":${taxa},"tipoCambio":"M","data":"2026-05-19","codigoMoeda":"${code}"}`;
    const body = (...items: string[]) => `{"genericResponse":[${items.join(",")}],"success":true}`;
    for (const code of ["VEF", "XAU", "XDRUSD"]) {
      expect(await parse(body(item(code), item("USD", "913.116")))).toEqual({
        records: [{ effectiveDate: "2026-05-19", currency: "USD", rate: "913.116" }],
        held: [],
      });
      await expect(async () => parse(body(item(code)))).rejects.toThrow(
        `BNA: every figure is for ${code}, which exrates leaves out`,
      );
    }
  });

  it("reads an empty list as the bank saying that it published nothing for the currency and days asked", async () => {
    expect(await parse('{"genericResponse":[],"success":true}')).toEqual({
      records: [],
      held: [],
      noPublication: "an empty genericResponse: no rates for the currency and days asked",
    });
  });

  itRefusesWhole("BNA", parse, [
    ["truncated JSON", '{"genericResponse":[{"taxa":913.1'],
    ["another bank's body", '[{"fecha":"2026-05-19","tasaEspecial":359.2061}]'],
    ["a failure answer", '{"genericResponse":null,"success":false,"message":"datainicio \'null\' inválida"}'],
    [
      "a buying rate instead of the mid",
      '{"genericResponse":[{"taxa":910.1,"tipoCambio":"C","data":"2026-05-19","codigoMoeda":"USD"}],"success":true}',
    ],
    ["the currency list where rates were expected", fixture("BNA/moedas.json")],
  ]);

  const row = (taxa: string, data: string, code = "USD") =>
    `{"taxa":${taxa},"tipoCambio":"M","data":"${data}","designacaoMoeda":"DÓLAR AMERICANO","codigoMoeda":"${code}"}`;
  const answer = (bad: string) =>
    `{"genericResponse":[${row("913.116", "2026-05-19")},${bad},${row("913.1160", "2026-05-21")}],"success":true}`;
  it.each([
    ["a date that does not exist", row("913.2", "2026-02-30"), { kind: "bad-date", effectiveDate: "2026-02-30" }],
    ["a date in another syntax", row("913.2", "20-05-2026"), { kind: "bad-date", effectiveDate: "20-05-2026" }],
    ["a figure that is not a number", row('"913,2"', "2026-05-20"), { kind: "bad-rate", rate: "913,2" }],
    ["a code that is not ISO 4217", row("913.2", "2026-05-20", "US$"), { kind: "unknown-currency", currency: "US$" }],
    ["an entry that is not a rate", '{"codigoMoeda":"USD"}', { kind: "bad-row" }],
  ] as const)("holds %s and takes the other rows", async (_what, bad, held) => {
    await expectOneHeld(parse(answer(bad)), {
      records: [
        { effectiveDate: "2026-05-19", currency: "USD", rate: "913.116" },
        { effectiveDate: "2026-05-21", currency: "USD", rate: "913.1160" },
      ],
      held: { ...held, source: "genericResponse[1]" },
    });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recordings exactly (values read off the files by hand)", async () => {
    expect(bna.navigation?.test(recording("BNA/001.json").url)).toBe(true);
    const aed = recording("BNA/002.json");
    expect(await recordsOf(bna.parse(aed.body, { url: aed.url }))).toEqual([
      { effectiveDate: "2026-05-19", currency: "AED", rate: "248.609" },
      { effectiveDate: "2026-05-20", currency: "AED", rate: "248.609" },
      { effectiveDate: "2026-05-21", currency: "AED", rate: "248.609" },
    ]);
    const usd = recording("BNA/066.json");
    expect((await recordsOf(bna.parse(usd.body, { url: usd.url }))).at(-1)).toEqual({
      effectiveDate: "2026-05-21",
      currency: "USD",
      rate: "913.116",
    });
    const vef = recording("BNA/067.json");
    await expect(async () => bna.parse(vef.body, { url: vef.url })).rejects.toThrow(
      "BNA: every figure is for VEF, which exrates leaves out",
    );
  });

  it("asks the currency list (navigation), then each listed currency (lower-case parameter names) but the excluded ones", async () => {
    const http = fakeHttp((req) => ({
      body: req.url.endsWith("/lista/moedas") ? fixture("BNA/moedas.json") : '{"genericResponse":[],"success":true}',
    }));
    const docs = await bna.fetch({ kind: "range", from: "2026-05-18", to: "2026-05-21" }, { http, env: {} });
    expect(docs.map((d) => d.role)).toEqual(["navigation", undefined, undefined]);
    expect(http.seen.map((r) => r.url)).toEqual([
      `${SERVICE}/lista/moedas`,
      `${SERVICE}/evolucao/taxa/intervalo?datafim=2026-05-21&datainicio=2026-05-18&moeda=AED&tipocambio=M`,
      `${SERVICE}/evolucao/taxa/intervalo?datafim=2026-05-21&datainicio=2026-05-18&moeda=USD&tipocambio=M`,
    ]);
  });
});
