import { describe, expect, it } from "vitest";

import cbn, { cbnCurrency } from "../../adapters/CBN.js";
import { RowProblem } from "../../src/errors.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const parse = (body: Buffer | string) =>
  cbn.parse(Buffer.from(body), { url: "https://www.cbn.gov.ng/api/GetAllExchangeRates" });

describe("CBN adapter", () => {
  it("takes centralrate, maps the currency names (spacing and case variants), drops WAUA and empty figures", async () => {
    expect(await recordsOf(parse(fixture("CBN/GetAllExchangeRates.json")))).toEqual([
      { effectiveDate: "2026-05-19", currency: "USD", rate: "1373.3717" },
      { effectiveDate: "2026-05-19", currency: "GBP", rate: "1840.6000" },
      { effectiveDate: "2026-05-19", currency: "XOF", rate: "2.4284" },
      { effectiveDate: "2026-05-19", currency: "XDR", rate: "1874.5" },
      { effectiveDate: "2002-01-02", currency: "JPY", rate: "0.8895" },
      { effectiveDate: "2026-05-18", currency: "SAR", rate: "365.9690" },
    ]);
  });

  it("reads the published names by ICU's and ISO's names exactly, and by rule saying how", () => {
    const exact = (name: string) => cbnCurrency(name, "2026-05-19");
    expect(["danish  kroner", "  POUND  STERLING ", "YUAN/RENMINBI", "UAE DIRHAM", "SDR"].map(exact)).toEqual(
      ["DKK", "GBP", "CNY", "AED", "XDR"].map((currency) => ({ currency })),
    );
    expect(["SOUTH AFRICAN RAND", "SWISS FRANC", "EURO", "Japanese Yen", "CFA", "RIYAL"].map(exact)).toEqual(
      ["ZAR", "CHF", "EUR", "JPY", "XOF", "SAR"].map((currency) => ({ currency })),
    );
    expect(exact("DANISH KRONA")).toEqual({
      currency: "DKK",
      derivation: 'name "DANISH KRONA" resolved by normalisation as "Danish Krone"',
    });
    expect(exact("POUNDS STERLING")).toEqual({
      currency: "GBP",
      derivation: 'name "POUNDS STERLING" resolved by normalisation as "Pound Sterling"',
    });
    expect(exact("YEN")).toEqual({
      currency: "JPY",
      derivation: 'name "YEN" resolved by unit, the one currency so called',
    });
    expect(() => exact("DOLLAR")).toThrow(RowProblem);
    // The bank's own currency resolves like any other: the ingest gate holds it (the base against itself).
    expect(exact("NAIRA")).toEqual({
      currency: "NGN",
      derivation: 'name "NAIRA" resolved by unit, the one currency so called',
    });
  });

  it("reads names no table lists, each by its rule, and holds a territory that had two currencies that day", async () => {
    const answer = await answerOf(parse(fixture("CBN/unseen-names.json")));
    const on = "2015-06-01";
    expect(answer.records).toEqual([
      {
        effectiveDate: on,
        currency: "USD",
        rate: "197.0000",
        derivation: 'name "U.S.A DOLLAR" resolved by territory US',
      },
      {
        effectiveDate: on,
        currency: "GBP",
        rate: "300.6012",
        derivation: 'name "POUND STERLING (G.B.)" resolved by territory GB',
      },
      {
        effectiveDate: on,
        currency: "DKK",
        rate: "29.1650",
        derivation: 'name "DANISH KRONA" resolved by normalisation as "Danish Krone"',
      },
      { effectiveDate: on, currency: "NOK", rate: "25.4417", derivation: 'name "NORWEGIAN" resolved by territory NO' },
      { effectiveDate: on, currency: "GHS", rate: "45.2004", derivation: 'name "GHANA CEDI" resolved by territory GH' },
      {
        effectiveDate: on,
        currency: "JPY",
        rate: "1.5881",
        derivation: 'name "JAPNESE YEN" resolved by spelling, 1 edit from "Japanese Yen"',
      },
    ]);
    expect(answer.held).toEqual([
      {
        kind: "unknown-currency",
        source: "[6]",
        effectiveDate: on,
        currency: "CUBA",
        rate: "197.0000",
        reason: 'currency "CUBA" fits 2 currencies by territory CU on 2015-06-01 (CUC, CUP): held, not guessed',
      },
    ]);
  });

  itRefusesWhole("CBN", parse, [
    ["truncated JSON", '[{"id":1,"currency":"US DOLLAR","ratedate":"2026-05-19","centralrate":"1373.3'],
    ["another bank's body", '{"success":true,"data":[]}'],
  ]);

  const row = (currency: string, date: string, rate: string) =>
    `{"id":1,"currency":"${currency}","ratedate":"${date}","buyingrate":"1","centralrate":"${rate}","sellingrate":"1"}`;
  const taken = [
    { effectiveDate: "2026-05-19", currency: "USD", rate: "1373.3717" },
    { effectiveDate: "2026-05-19", currency: "CHF", rate: "1739.7665" },
  ];
  it.each([
    [
      "a currency name that fits several currencies",
      row("DOLLAR", "2026-05-19", "100.1"),
      { kind: "unknown-currency", currency: "DOLLAR" },
    ],
    ["an unknown currency name", row("ATLANTEAN DRACHMA", "2026-05-19", "100.1"), { kind: "unknown-currency" }],
    [
      "a date in another form",
      row("EURO", "19/05/2026", "1593.9352"),
      { kind: "bad-date", effectiveDate: "19/05/2026" },
    ],
    ["a date that does not exist", row("EURO", "2026-02-30", "1593.9352"), { kind: "bad-date" }],
    ["a non-decimal figure", row("EURO", "2026-05-19", "N/A"), { kind: "bad-rate", rate: "N/A" }],
    ["a misplaced group separator", row("EURO", "2026-05-19", "15,93.9352"), { kind: "bad-rate", rate: "15,93.9352" }],
  ] as const)("holds %s and takes the rest of the history", async (_what, bad, held) => {
    const body = `[${row("US DOLLAR", "2026-05-19", "1373.3717")},${bad},${row("SWISS FRANC", "2026-05-19", "1739.7665")}]`;
    await expectOneHeld(parse(body), { records: taken, held: { ...held, source: "[1]" } });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("CBN/001.json");
    const records = await recordsOf(cbn.parse(r.body, { url: r.url }));
    expect(records).toHaveLength(48); // 13 names on 4 days, WAUA dropped
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    expect(find("2026-05-19", "USD")).toEqual({ effectiveDate: "2026-05-19", currency: "USD", rate: "1373.3717" });
    expect(find("2026-05-19", "XOF")).toEqual({ effectiveDate: "2026-05-19", currency: "XOF", rate: "2.4284" });
    expect(find("2026-05-19", "CNY")).toEqual({ effectiveDate: "2026-05-19", currency: "CNY", rate: "201.7321" });
    expect(find("2026-05-19", "EUR")).toEqual({ effectiveDate: "2026-05-19", currency: "EUR", rate: "1593.9352" });
    expect(find("2026-05-14", "USD")).toEqual({ effectiveDate: "2026-05-14", currency: "USD", rate: "1370.3862" });
  });

  it("asks the one whole-history endpoint", async () => {
    const http = fakeHttp(() => ({ body: "[]" }));
    await cbn.fetch({ kind: "latest" }, { http, env: {} });
    await cbn.fetch({ kind: "range", from: "2020-01-01", to: "2020-12-31" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([
      "https://www.cbn.gov.ng/api/GetAllExchangeRates",
      "https://www.cbn.gov.ng/api/GetAllExchangeRates",
    ]);
  });
});
