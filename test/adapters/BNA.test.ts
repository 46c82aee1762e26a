import { describe, expect, it } from "vitest";

import bna from "../../adapters/BNA.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const SERVICE = "https://www.bna.ao/service/rest/taxas/get";
const RATES_URL = `${SERVICE}/evolucao/taxa/intervalo?datafim=2026-05-21&datainicio=2026-05-18&moeda=USD&tipocambio=M`;
const parse = (body: Buffer | string, url = RATES_URL) => bna.parse(Buffer.from(body), { url });

describe("BNA adapter", () => {
  it("reads the mid rates with every digit", async () => {
    expect(await parse(fixture("BNA/intervalo.json"))).toEqual([
      { effectiveDate: "2026-05-19", currency: "USD", rate: "913.116" },
      { effectiveDate: "2026-05-20", currency: "USD", rate: "913.1160" },
      { effectiveDate: "2026-05-21", currency: "USD", rate: "0.00004" },
    ]);
  });

  it("reads the currency list as no rates", async () => {
    expect(await parse(fixture("BNA/moedas.json"), `${SERVICE}/lista/moedas`)).toEqual([]);
  });

  it("drops XDRUSD, XAU and VEF (a VES-sized figure under the old code)", async () => {
    const body = (code: string) =>
      `{"genericResponse":[{"taxa":1.79548,"tipoCambio":"M","data":"2026-05-19","codigoMoeda":"${code}"}],"success":true}`;
    for (const code of ["VEF", "XAU", "XDRUSD"]) expect(await parse(body(code))).toEqual([]);
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<!DOCTYPE html><html><body>Erro</body></html>"],
    ["truncated JSON", '{"genericResponse":[{"taxa":913.1'],
    ["another bank's body", '[{"fecha":"2026-05-19","tasaEspecial":359.2061}]'],
    ["a failure answer", '{"genericResponse":null,"success":false,"message":"datainicio \'null\' inválida"}'],
    [
      "a buying rate instead of the mid",
      '{"genericResponse":[{"taxa":910.1,"tipoCambio":"C","data":"2026-05-19","codigoMoeda":"USD"}],"success":true}',
    ],
    [
      "a bad date",
      '{"genericResponse":[{"taxa":913.116,"tipoCambio":"M","data":"19-05-2026","codigoMoeda":"USD"}],"success":true}',
    ],
  ])("rejects %s with an error naming the bank", async (_what, body) => {
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^BNA: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recordings exactly (values read off the files by hand)", async () => {
    const list = recording("BNA/001.json");
    expect(await bna.parse(list.body, { url: list.url })).toEqual([]);
    const aed = recording("BNA/002.json");
    expect(await bna.parse(aed.body, { url: aed.url })).toEqual([
      { effectiveDate: "2026-05-19", currency: "AED", rate: "248.609" },
      { effectiveDate: "2026-05-20", currency: "AED", rate: "248.609" },
      { effectiveDate: "2026-05-21", currency: "AED", rate: "248.609" },
    ]);
    const usd = recording("BNA/066.json");
    expect((await bna.parse(usd.body, { url: usd.url })).at(-1)).toEqual({
      effectiveDate: "2026-05-21",
      currency: "USD",
      rate: "913.116",
    });
    const vef = recording("BNA/067.json");
    expect(await bna.parse(vef.body, { url: vef.url })).toEqual([]);
  });

  it("asks the currency list, then each listed currency (lower-case parameter names) but the excluded ones", async () => {
    const http = fakeHttp((req) => ({
      body: req.url.endsWith("/lista/moedas") ? fixture("BNA/moedas.json") : '{"genericResponse":[],"success":true}',
    }));
    await bna.fetch({ kind: "range", from: "2026-05-18", to: "2026-05-21" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([
      `${SERVICE}/lista/moedas`,
      `${SERVICE}/evolucao/taxa/intervalo?datafim=2026-05-21&datainicio=2026-05-18&moeda=AED&tipocambio=M`,
      `${SERVICE}/evolucao/taxa/intervalo?datafim=2026-05-21&datainicio=2026-05-18&moeda=USD&tipocambio=M`,
    ]);
  });
});
