import { afterEach, describe, expect, it, vi } from "vitest";

import bcp, { BCP_CURRENCIES, bcpCurrency } from "../../adapters/BCP.js";
import { FeedError } from "../../src/errors.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const page = (year: number, moneda: string) =>
  `https://www.bcp.gov.py/webapps/web/cotizacion/monedas-historica?anho=${year}&moneda=${moneda}`;
const parse = (body: Buffer | string, url = page(2024, "USD")) => bcp.parse(Buffer.from(body), { url });

describe("BCP adapter", () => {
  afterEach(() => vi.useRealTimers());

  it("reads the day × month matrix by position, with dot thousands and decimal commas, skipping ND", async () => {
    expect(await recordsOf(parse(fixture("BCP/usd-2024.html")))).toEqual([
      { effectiveDate: "2024-01-02", currency: "USD", rate: "7281.04" },
      { effectiveDate: "2024-02-01", currency: "USD", rate: "7271.63" },
      { effectiveDate: "2024-02-29", currency: "USD", rate: "7304.95" },
      { effectiveDate: "2024-12-31", currency: "USD", rate: "7880.00" },
    ]);
  });

  it("keeps gold as published (already per troy ounce)", async () => {
    expect(await recordsOf(parse(fixture("BCP/xau-2024.html"), page(2024, "XAU")))).toEqual([
      { effectiveDate: "2024-01-02", currency: "XAU", rate: "14865900.50" },
    ]);
  });

  it("reads the title's currency names by ICU first, then the bank's own spellings", () => {
    const titles: Record<string, string> = {
      "DOLAR AMERICANO": "USD",
      EURO: "EUR",
      "LIBRA ESTERLINA": "GBP",
      "YEN JAPONES": "JPY",
      "FRANCO SUIZO": "CHF",
      "DOLAR CANADIENSE": "CAD",
      "DOLAR AUSTRALIANO": "AUD",
      "YUAN CHINO": "CNY",
      "REAL BRASILERO": "BRL",
      "PESO ARGENTINO": "ARS",
      "PESO CHILENO": "CLP",
      "PESO MEXICANO": "MXN",
      "PESO URUGUAYO": "UYU",
      "PESO COLOMBIANO": "COP",
      "BOLIVIAN BOLIVIANO": "BOB",
      "DOLAR NEOZELANDES": "NZD",
      "RAND SUDAFRICANO": "ZAR",
      "CORONA SUECA": "SEK",
      "CORONA DANESA": "DKK",
      "CORONA NORUEGA": "NOK",
      "DERECHO ESPECIAL DE GIRO": "XDR",
      ORO: "XAU",
      "UAE DIRHAM": "AED",
      "PERUVIAN NUEVO SOL": "PEN",
      "SINGAPORE DOLLAR": "SGD",
      "NEW TAIWAN DOLLAR": "TWD",
    };
    for (const [name, code] of Object.entries(titles)) expect(bcpCurrency(name).currency).toBe(code);
    expect(BCP_CURRENCIES.every((c) => Object.values(titles).includes(c))).toBe(true);
    expect(bcpCurrency("REAL BRASILERO")).toEqual({
      currency: "BRL",
      derivation: 'name "REAL BRASILERO" resolved by spelling, 1 edit from "real brasileño"',
    });
    expect(bcpCurrency("DERECHO ESPECIAL DE GIRO")).toEqual({
      currency: "XDR",
      derivation: 'name "DERECHO ESPECIAL DE GIRO" resolved by normalisation as "derechos especiales de giro"',
    });
    expect(bcpCurrency("UAE DIRHAM")).toEqual({ currency: "AED" });
    expect(() => bcpCurrency("PESO FUERTE")).toThrow(FeedError);
  });

  itRefusesWhole("BCP", (body) => parse(body), [
    [
      "a Cloudflare page",
      "<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>Checking your browser</body></html>",
    ],
    ["a truncated page", fixture("BCP/usd-2024.html").toString().slice(0, 4000)],
    ["another bank's body", '{"rates":[]}'],
  ]);

  it.each([
    ["a missing month label", fixture("BCP/no-month.html").toString(), page(2024, "EUR")],
    ["a page of another currency than asked", fixture("BCP/usd-2024.html").toString(), page(2024, "EUR")],
    ["a page of another year than asked", fixture("BCP/usd-2024.html").toString(), page(2025, "USD")],
  ])("refuses %s as a whole, naming BCP", async (_what, body, url) => {
    await expect(async () => parse(body, url)).rejects.toThrow(FeedError);
    await expect(async () => parse(body, url)).rejects.toThrow(/^BCP: /);
  });

  it("holds a rate on a day that does not exist (30 February) and takes the others", async () => {
    await expectOneHeld(parse(fixture("BCP/bad-day.html"), page(2023, "CLP")), {
      records: [{ effectiveDate: "2023-01-02", currency: "CLP", rate: "8.25" }],
      held: { kind: "bad-date", source: "day 30 FEB", rate: "7,55" },
    });
  });

  it("holds a figure that is not a number and takes the others", async () => {
    const body = fixture("BCP/usd-2024.html").toString().replace(">7.271,63<", ">7.271.63<");
    await expectOneHeld(parse(body), {
      records: [
        { effectiveDate: "2024-01-02", currency: "USD", rate: "7281.04" },
        { effectiveDate: "2024-02-29", currency: "USD", rate: "7304.95" },
        { effectiveDate: "2024-12-31", currency: "USD", rate: "7880.00" },
      ],
      held: { kind: "bad-rate", source: "day 1 FEB", rate: "7.271.63" },
    });
  });

  it("holds the rates of a page whose currency name is unknown", async () => {
    await expectOneHeld(parse(fixture("BCP/unknown-name.html"), page(2024, "XYZ")), {
      records: [],
      held: { kind: "unknown-currency", currency: "PESO FUERTE", rate: "7.281,04" },
    });
  });

  it("reads every rates matrix of a page", async () => {
    const one = fixture("BCP/xau-2024.html").toString();
    const matrix = one.slice(one.lastIndexOf('<table id="cotizacion-interbancaria"'), one.lastIndexOf("</table>") + 8);
    const two = one.replace(
      matrix,
      matrix + matrix.replace(">14.865.900,50<", ">ND<").replace(/(>3<\/th><td[^>]*>)ND/, "$114.900.000,00"),
    );
    const answer = await answerOf(parse(two, page(2024, "XAU")));
    expect(answer.records).toEqual([
      { effectiveDate: "2024-01-02", currency: "XAU", rate: "14865900.50" },
      { effectiveDate: "2024-01-03", currency: "XAU", rate: "14900000.00" },
    ]);
  });

  it("asks one page per year and currency", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-05-20T20:00:00Z"));
    const http = fakeHttp(() => ({ body: "" }));
    await bcp.fetch({ kind: "latest" }, { http, env: {} });
    await bcp.fetch({ kind: "range", from: "2024-12-01", to: "2025-01-31" }, { http, env: {} });
    const urls = http.seen.map((r) => `${r.method} ${r.url}`);
    expect(urls).toHaveLength(75);
    expect(urls.slice(0, 2)).toEqual(["GET " + page(2026, "USD"), "GET " + page(2026, "EUR")]);
    expect(urls[24]).toBe("GET " + page(2026, "XAU"));
    expect(urls[25]).toBe("GET " + page(2024, "USD"));
    expect(urls[74]).toBe("GET " + page(2025, "XAU"));
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded years exactly (values read off the files by hand)", async () => {
    const usd = recording("BCP/001.html");
    const u = await recordsOf(bcp.parse(usd.body, { url: usd.url }));
    const find = (records: typeof u, date: string) => records.find((x) => x.effectiveDate === date);
    expect(find(u, "2024-01-01")).toBeUndefined();
    expect(find(u, "2024-01-02")).toEqual({ effectiveDate: "2024-01-02", currency: "USD", rate: "7281.04" });
    expect(find(u, "2024-02-01")).toEqual({ effectiveDate: "2024-02-01", currency: "USD", rate: "7271.63" });
    expect(find(u, "2024-02-29")).toEqual({ effectiveDate: "2024-02-29", currency: "USD", rate: "7304.95" });
    expect(find(u, "2024-01-31")).toEqual({ effectiveDate: "2024-01-31", currency: "USD", rate: "7280.74" });
    const clp = recording("BCP/011.html");
    const c = await recordsOf(bcp.parse(clp.body, { url: clp.url }));
    expect(find(c, "2024-01-02")).toEqual({ effectiveDate: "2024-01-02", currency: "CLP", rate: "8.25" });
    const aed = recording("BCP/021.html");
    expect(find(await recordsOf(bcp.parse(aed.body, { url: aed.url })), "2024-01-02")).toEqual({
      effectiveDate: "2024-01-02",
      currency: "AED",
      rate: "1982.58",
    });
  });
});
