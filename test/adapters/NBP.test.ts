import { describe, expect, it } from "vitest";

import nbp from "../../adapters/NBP.js";
import { HttpError } from "../../src/errors.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://api.nbp.pl/api/exchangerates/tables/A/2026-03-01/2026-03-03/?format=json";
const parse = (body: Buffer | string, url = URL) => nbp.parse(Buffer.from(body), { url });

describe("NBP adapter", () => {
  it("reads the mid rates of every table of table A with every digit", async () => {
    expect(await recordsOf(parse(fixture("NBP/tables-a.json")))).toEqual([
      { effectiveDate: "2026-03-02", currency: "USD", rate: "3.6056" },
      { effectiveDate: "2026-03-02", currency: "HUF", rate: "0.011155" },
      { effectiveDate: "2026-03-02", currency: "EUR", rate: "4.2300" },
      { effectiveDate: "2026-03-02", currency: "IDR", rate: "0.00021385" },
      { effectiveDate: "2026-03-02", currency: "XDR", rate: "4.9266" },
      { effectiveDate: "2026-03-03", currency: "USD", rate: "3.6102" },
    ]);
  });

  const table = (date: string, rates: string) =>
    `[{"table":"A","no":"041/A/NBP/2026","effectiveDate":"2026-03-02","rates":[{"currency":"dolar amerykański","code":"USD","mid":3.6056},{"currency":"euro","code":"EUR","mid":4.2300}]},` +
    `{"table":"A","no":"042/A/NBP/2026","effectiveDate":"${date}","rates":[${rates}]}]`;
  const day1 = [
    { effectiveDate: "2026-03-02", currency: "USD", rate: "3.6056" },
    { effectiveDate: "2026-03-02", currency: "EUR", rate: "4.2300" },
  ];
  it.each([
    [
      "a mid that is not a number",
      table("2026-03-03", '{"code":"USD","mid":3.6102},{"code":"EUR","mid":"4,23"}'),
      [...day1, { effectiveDate: "2026-03-03", currency: "USD", rate: "3.6102" }],
      { kind: "bad-rate", source: "table 042/A/NBP/2026 rate 2", currency: "EUR", rate: "4,23" },
    ],
    [
      "a missing mid",
      table("2026-03-03", '{"code":"USD"},{"code":"EUR","mid":4.2312}'),
      [...day1, { effectiveDate: "2026-03-03", currency: "EUR", rate: "4.2312" }],
      { kind: "bad-rate", source: "table 042/A/NBP/2026 rate 1", currency: "USD" },
    ],
    [
      "a code that is not ISO 4217",
      table("2026-03-03", '{"code":"USD","mid":3.6102},{"code":"EUX","mid":4.2312}'),
      [...day1, { effectiveDate: "2026-03-03", currency: "USD", rate: "3.6102" }],
      { kind: "unknown-currency", source: "table 042/A/NBP/2026 rate 2", currency: "EUX" },
    ],
  ] as const)("holds %s and takes the other rates of every table", async (_what, body, records, held) => {
    await expectOneHeld(parse(body), { records: [...records], held });
  });

  it("holds every rate of a table whose date does not exist, and takes the other tables", async () => {
    const answer = await answerOf(
      parse(table("2026-02-30", '{"code":"USD","mid":3.6102},{"code":"EUR","mid":4.2312}')),
    );
    expect(answer.records).toEqual(day1);
    expect(answer.held.map((h) => [h.kind, h.currency, h.effectiveDate])).toEqual([
      ["bad-date", "USD", "2026-02-30"],
      ["bad-date", "EUR", "2026-02-30"],
    ]);
  });

  it("refuses a Table B answer whole: NBP's weekly table is not daily rates", async () => {
    await expect(Promise.resolve().then(() => parse(fixture("NBP/tables-b.json")))).rejects.toThrow(
      /^NBP: table 009\/B\/NBP\/2026 is Table B, NBP's weekly table, not the daily table A/,
    );
    // Also behind a Table A table in the same answer: nothing of the answer is stored.
    const mixed = `[${fixture("NBP/tables-a.json").toString().trim().slice(1, -1)},${fixture("NBP/tables-b.json").toString().trim().slice(1, -1)}]`;
    await expect(Promise.resolve().then(() => parse(mixed))).rejects.toThrow(/is Table B/);
  });

  it("converts the gold price per gram to the troy ounce exactly", async () => {
    // 595.71 x 31.1034768 = 18528.652164528; 624.9 x 31.1034768 = 19436.56265232
    expect(
      await recordsOf(
        parse(fixture("NBP/gold.json"), "https://api.nbp.pl/api/cenyzlota/2026-03-01/2026-03-03/?format=json"),
      ),
    ).toEqual([
      { effectiveDate: "2026-03-02", currency: "XAU", rate: "18528.652164528", derivation: "per-troy-ounce" },
      { effectiveDate: "2026-03-03", currency: "XAU", rate: "19436.56265232", derivation: "per-troy-ounce" },
    ]);
  });

  it("holds a gold price that is not a number and takes the other days", async () => {
    await expectOneHeld(parse('[{"data":"2026-03-02","cena":595.71},{"data":"2026-03-03","cena":"brak"}]'), {
      records: [
        { effectiveDate: "2026-03-02", currency: "XAU", rate: "18528.652164528", derivation: "per-troy-ounce" },
      ],
      held: { kind: "bad-rate", source: "gold price 2", effectiveDate: "2026-03-03", rate: "brak" },
    });
  });

  itRefusesWhole("NBP", parse, [
    ["a 404 HTML page", "<html><body><h1>404 NotFound - Not Found - Brak danych</h1></body></html>"],
    [
      "truncated JSON",
      '[{"table":"A","no":"041/A/NBP/2026","effectiveDate":"2026-03-02","rates":[{"code":"USD","mid":3.60',
    ],
    ["another bank's body", '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.1}]}'],
    [
      "table C (buy/sell)",
      '[{"table":"C","no":"041/C/NBP/2026","effectiveDate":"2026-03-02","rates":[{"code":"USD","bid":3.57,"ask":3.64}]}]',
    ],
    ["an unknown array", '[{"foo":1}]'],
    ["a table without rates", '[{"table":"A","no":"1","effectiveDate":"2026-03-02","rates":null}]'],
  ]);

  it.skipIf(!sharedFeedsPresent)("reads the recordings exactly (values read off the files by hand)", async () => {
    const a = recording("NBP/001.json");
    const rates = await recordsOf(nbp.parse(a.body, { url: a.url }));
    const find = (date: string, currency: string) =>
      rates.find((x) => x.effectiveDate === date && x.currency === currency);
    expect(rates).toHaveLength(64);
    expect(find("2026-03-02", "USD")).toEqual({ effectiveDate: "2026-03-02", currency: "USD", rate: "3.6056" });
    expect(find("2026-03-02", "THB")).toEqual({ effectiveDate: "2026-03-02", currency: "THB", rate: "0.1146" });
    expect(find("2026-03-02", "IDR")).toEqual({ effectiveDate: "2026-03-02", currency: "IDR", rate: "0.00021385" });
    const g = recording("NBP/003.json");
    // 624.92 x 31.1034768 = 19437.184721856
    expect((await recordsOf(nbp.parse(g.body, { url: g.url })))[1]).toEqual({
      effectiveDate: "2026-03-03",
      currency: "XAU",
      rate: "19437.184721856",
      derivation: "per-troy-ounce",
    });
  });

  it("asks table A and the gold prices for the window (never table B), a 404 being an empty window", async () => {
    const http = fakeHttp((req) => {
      if (req.url.includes("/tables/A/")) throw new HttpError(`${req.url}: HTTP 404`, 404);
      return { body: "[]" };
    });
    const docs = await nbp.fetch({ kind: "range", from: "2026-03-01", to: "2026-03-03" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([
      "https://api.nbp.pl/api/exchangerates/tables/A/2026-03-01/2026-03-03/?format=json",
      "https://api.nbp.pl/api/cenyzlota/2026-03-01/2026-03-03/?format=json",
    ]);
    expect(docs.map((d) => d.url)).toEqual([http.seen[1]!.url]);
    await nbp.fetch({ kind: "latest" }, { http, env: {} });
    expect(http.seen[2]!.url).toMatch(
      /^https:\/\/api\.nbp\.pl\/api\/exchangerates\/tables\/A\/\d{4}-\d{2}-\d{2}\/\d{4}-\d{2}-\d{2}\/\?format=json$/,
    );
  });

  it("passes on any other HTTP error", async () => {
    const http = fakeHttp(() => {
      throw new HttpError("HTTP 400", 400);
    });
    await expect(nbp.fetch({ kind: "range", from: "2026-03-01", to: "2026-03-03" }, { http, env: {} })).rejects.toThrow(
      HttpError,
    );
  });
});
