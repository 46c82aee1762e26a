import { describe, expect, it } from "vitest";

import imf, { IMF_CURRENCY_NAMES, imfCurrency } from "../../adapters/IMF.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL_REP = "https://www.imf.org/external/np/fin/data/rms_mth.aspx?SelectDate=2026-03-31&reportType=REP&tsvflag=Y";
const parse = (body: Buffer | string) =>
  imf.parse(Buffer.from(body), { url: URL_REP, contentType: "application/vnd.ms-excel" });
const report = (rows: string) =>
  `Representative Exchange Rates for Selected Currencies for March 2026\r\nCurrency\tMarch 02, 2026\r\n${rows}\r\n\r\nNotes:\r\n`;

describe("IMF adapter", () => {
  it("reads currency units per USD, inverts the (1) rows, skips NA and the dollar itself, drops thousands commas", async () => {
    expect(await parse(fixture("IMF/rep.tsv"))).toEqual([
      // 1 / 1.169800 and 1 / 1.160600 to 10 significant digits (worked out separately).
      { effectiveDate: "2026-03-02", currency: "EUR", rate: "0.8548469824", derivation: "inverted" },
      { effectiveDate: "2026-03-03", currency: "EUR", rate: "0.8616232983", derivation: "inverted" },
      { effectiveDate: "2026-03-02", currency: "JPY", rate: "156.400000" },
      { effectiveDate: "2026-03-03", currency: "KRW", rate: "1435.400000" },
    ]);
  });

  it("takes only the dollar's row of the SDR report, as XDR per USD", async () => {
    expect(await parse(fixture("IMF/sdrcv.tsv"))).toEqual([
      { effectiveDate: "2026-03-02", currency: "XDR", rate: "0.7296240000" },
    ]);
  });

  it("maps every name of its table to a three-letter code", () => {
    for (const code of Object.values(IMF_CURRENCY_NAMES)) expect(code).toMatch(/^[A-Z]{3}$/);
    expect(imfCurrency("U.K. pound")).toBe("GBP");
    expect(imfCurrency("Israeli New Shekel")).toBe("ILS");
    expect(imfCurrency("Trinidadian dollar")).toBe("TTD");
    expect(imfCurrency("Atlantean drachma")).toBeUndefined();
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<!DOCTYPE html><html><body>Page not found</body></html>"],
    [
      "a truncated report",
      "Representative Exchange Rates for Selected Currencies for March 2026\r\nCurrency\tMarch 02, 2026\r\nEuro(1)\t1.169800\r\nJapanese yen\t156.4",
    ],
    ["another bank's body", '<?xml version="1.0"?><ValCurs Date="2026-05-18"></ValCurs>'],
    ["an unknown currency name", report("Atlantean drachma\t12.5")],
    ["an unknown note marker", report("Botswana pula(2)\t0.0772")],
    [
      "a bad header date",
      "Representative Exchange Rates for Selected Currencies for March 2026\r\nCurrency\t2026-03-02\r\nJapanese yen\t156.4\r\n\r\nNotes:\r\n",
    ],
    ["a non-decimal value", report("Japanese yen\t156,40")],
  ])("rejects %s with an error naming the bank", async (_what, body) => {
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^IMF: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded reports exactly (values read off the files by hand)", async () => {
    const rep = recording("IMF/001.txt");
    const records = await imf.parse(rep.body, { url: rep.url, contentType: rep.contentType });
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    expect(find("2026-03-02", "CNY")).toEqual({ effectiveDate: "2026-03-02", currency: "CNY", rate: "6.882900" });
    expect(find("2026-03-02", "EUR")).toEqual({
      effectiveDate: "2026-03-02",
      currency: "EUR",
      rate: "0.8548469824",
      derivation: "inverted",
    });
    // U.K. pound(1) 1.341050 on March 02: 1 / 1.341050.
    expect(find("2026-03-02", "GBP")).toEqual({
      effectiveDate: "2026-03-02",
      currency: "GBP",
      rate: "0.7456843518",
      derivation: "inverted",
    });
    expect(find("2026-03-09", "AUD")).toBeUndefined(); // NA
    expect(find("2026-03-03", "KRW")).toEqual({ effectiveDate: "2026-03-03", currency: "KRW", rate: "1435.400000" });
    expect(find("2026-03-16", "UYU")).toEqual({ effectiveDate: "2026-03-16", currency: "UYU", rate: "40.477000" });
    expect(find("2026-03-02", "USD")).toBeUndefined();
    const sdr = recording("IMF/002.txt");
    const xdr = await imf.parse(sdr.body, { url: sdr.url, contentType: sdr.contentType });
    expect(xdr).toHaveLength(11);
    expect(xdr[0]).toEqual({ effectiveDate: "2026-03-02", currency: "XDR", rate: "0.7296240000" });
    expect(xdr[10]).toEqual({ effectiveDate: "2026-03-16", currency: "XDR", rate: "0.7360310000" });
  });

  it("asks both reports for each month of the range, with the month's last day", async () => {
    const http = fakeHttp(() => ({ body: "" }));
    await imf.fetch({ kind: "range", from: "2025-12-15", to: "2026-02-10" }, { http, env: {} });
    const base = "https://www.imf.org/external/np/fin/data/rms_mth.aspx";
    expect(http.seen.map((r) => r.url)).toEqual(
      ["2025-12-31", "2026-01-31", "2026-02-28"].flatMap((d) => [
        `${base}?SelectDate=${d}&reportType=REP&tsvflag=Y`,
        `${base}?SelectDate=${d}&reportType=SDRCV&tsvflag=Y`,
      ]),
    );
  });
});
