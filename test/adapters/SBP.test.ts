import { describe, expect, it } from "vitest";

import sbp, { sbpCurrency } from "../../adapters/SBP.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const CURRENT = "https://www.sbp.org.pk/assets/document/BFER_Daily.xlsx";
const ARCHIVE = "https://www.sbp.org.pk/assets/document/BFER_Daily_Arch.xlsx";
const parse = (body: Buffer | string) => sbp.parse(Buffer.from(body), { url: CURRENT });

const JAPNESE = 'name "Japnese Yen" resolved by spelling, 1 edit from "Japanese Yen"';
const BHAT = 'name "Thai Bhat" resolved by spelling, 1 edit from "Thai Baht"';

describe("SBP adapter", () => {
  it("reads every table by its Currency/date row, maps misspelt names, takes the six decimals shown, holds an unknown name", async () => {
    await expectOneHeld(parse(fixture("SBP/BFER_Daily.xlsx")), {
      records: [
        { effectiveDate: "2026-04-01", currency: "JPY", rate: "1.759259", derivation: JAPNESE },
        { effectiveDate: "2026-04-02", currency: "JPY", rate: "1.752620", derivation: JAPNESE },
        { effectiveDate: "2026-04-01", currency: "USD", rate: "279.351786" },
        { effectiveDate: "2026-04-02", currency: "USD", rate: "279.323214" },
        { effectiveDate: "2026-04-01", currency: "NOK", rate: "28.617132" },
        { effectiveDate: "2026-04-01", currency: "THB", rate: "8.568000", derivation: BHAT },
        { effectiveDate: "2026-04-02", currency: "THB", rate: "8.540692", derivation: BHAT },
        // The second table, below the first.
        { effectiveDate: "2026-05-04", currency: "USD", rate: "279.100000" },
      ],
      held: {
        kind: "unknown-currency",
        source: 'sheet "Sheet1" C22',
        effectiveDate: "2026-05-04",
        currency: "Atlantean Drachma",
      },
    });
  });

  it("reads ICU's names exactly and the bank's own spellings by rule, saying how", () => {
    expect(["Swiss Franc", "Euro", "Hongkong Dollar", "U.S. Dollar", "UAE Dirham"].map((n) => sbpCurrency(n))).toEqual(
      ["CHF", "EUR", "HKD", "USD", "AED"].map((currency) => ({ currency })),
    );
    expect(sbpCurrency("Japnese Yen", "2026-04-01")).toEqual({ currency: "JPY", derivation: JAPNESE });
    expect(sbpCurrency("Thai Bhat", "2026-04-01")).toEqual({ currency: "THB", derivation: BHAT });
    expect(sbpCurrency("Singaporian Dollar", "2026-04-01")).toEqual({
      currency: "SGD",
      derivation: 'name "Singaporian Dollar" resolved by spelling, 1 edit from "singaporean dollar"',
    });
    expect(sbpCurrency("UK Pound Sterling", "2026-04-01")).toEqual({
      currency: "GBP",
      derivation: 'name "UK Pound Sterling" resolved by territory GB',
    });
    expect(sbpCurrency("Saudi Arabian Riyal", "2026-04-01")).toEqual({
      currency: "SAR",
      derivation: 'name "Saudi Arabian Riyal" resolved by territory SA',
    });
  });

  it("reads names no table lists, each by the rule that fits, and holds the one that fits several currencies", async () => {
    const answer = await answerOf(parse(fixture("SBP/unseen-names.xlsx")));
    const on = "2026-05-04";
    expect(answer.records).toEqual([
      {
        effectiveDate: on,
        currency: "USD",
        rate: "279.100000",
        derivation: 'name "U.S.A. Dollar" resolved by territory US',
      },
      {
        effectiveDate: on,
        currency: "GBP",
        rate: "375.250000",
        derivation: 'name "Pound Sterling (G.B.)" resolved by territory GB',
      },
      {
        effectiveDate: on,
        currency: "DKK",
        rate: "43.512500",
        derivation: 'name "Danish Krona" resolved by normalisation as "Danish Krone"',
      },
      {
        effectiveDate: on,
        currency: "SGD",
        rate: "218.400000",
        derivation: 'name "Singaporean Dollar" resolved by territory SG',
      },
      {
        effectiveDate: on,
        currency: "GHS",
        rate: "25.750000",
        derivation: 'name "Ghana Cedi" resolved by territory GH',
      },
      {
        effectiveDate: on,
        currency: "PHP",
        rate: "4.881500",
        derivation: 'name "Phillipine Peso" resolved by spelling, 2 edits from "Philippine Peso"',
      },
    ]);
    expect(answer.held).toEqual([
      {
        kind: "unknown-currency",
        source: 'sheet "Sheet1" C11',
        effectiveDate: on,
        currency: "Dollar",
        rate: "200",
        reason:
          'currency "Dollar" fits 22 currencies by unit on 2026-05-04 (AUD, BBD, BMD, BND, BSD, BZD, CAD, FJD, GYD, HKD, JMD, KYD, LRD, NAD, NZD, SBD, SGD, SRD, TTD, TWD, USD, XCD): held, not guessed',
      },
    ]);
  });

  it("holds a figure that is not a number", async () => {
    const ExcelJS = (await import("exceljs")).default;
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet("Sheet1");
    ws.addRow(["Country / Monetary Union", "Currency", new Date(Date.UTC(2026, 3, 1)), new Date(Date.UTC(2026, 3, 2))]);
    ws.addRow(["USA", "U.S. Dollar", 279.35178571428565, "279,32"]);
    ws.getCell("C2").numFmt = "0.000000";
    await expectOneHeld(parse(Buffer.from(await wb.xlsx.writeBuffer())), {
      records: [{ effectiveDate: "2026-04-01", currency: "USD", rate: "279.351786" }],
      held: { kind: "bad-rate", source: 'sheet "Sheet1" D2', effectiveDate: "2026-04-02", rate: "279,32" },
    });
  });

  itRefusesWhole("SBP", parse, [
    [
      "the home page served for an old URL",
      "<!DOCTYPE html><html><head><title>State Bank of Pakistan</title></head><body></body></html>",
    ],
    ["a truncated workbook", fixture("SBP/BFER_Daily.xlsx").subarray(0, 3000)],
    ["another bank's workbook", fixture("RBF/8.8-Exchange-Rates-Daily.xlsx")],
  ]);

  it.skipIf(!sharedFeedsPresent)("reads the recorded workbook exactly (values read off the file by hand)", async () => {
    const r = recording("SBP/002.xlsx");
    const records = await recordsOf(sbp.parse(r.body, { url: r.url }));
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency)?.rate;
    expect(find("2026-04-01", "USD")).toBe("279.351786"); // C31 279.35178571428565, shown 279.351786
    expect(find("2026-04-06", "USD")).toBe("279.300000"); // F31 279.3
    expect(find("2026-04-01", "JPY")).toBe("1.759259"); // C16, "Japnese Yen"
    expect(find("2026-04-01", "MYR")).toBe("69.238276"); // C18 69.23827635714285
    expect(find("2026-04-30", "OMR")).toBe("723.431125"); // X21 723.4311250000001
    expect(records).toHaveLength(23 * 22);
  });

  it("asks the current month for the latest, and the archive too (last) for a range", async () => {
    const http = fakeHttp(() => ({ body: "" }));
    await sbp.fetch({ kind: "latest" }, { http, env: {} });
    await sbp.fetch({ kind: "range", from: "2020-01-01", to: "2020-12-31" }, { http, env: {} });
    expect(http.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET ${CURRENT}`,
      `GET ${CURRENT}`,
      `GET ${ARCHIVE}`,
    ]);
  });
});
