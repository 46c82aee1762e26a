import { describe, expect, it } from "vitest";

import imf, { IMF_ALIASES, imfCurrency } from "../../adapters/IMF.js";
import { currencyFromName, resolveCurrencyName } from "../../src/feed/currency-names.js";
import { foldName } from "../../src/feed/fold.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL_REP = "https://www.imf.org/external/np/fin/data/rms_mth.aspx?SelectDate=2026-03-31&reportType=REP&tsvflag=Y";
const parse = (body: Buffer | string) =>
  imf.parse(Buffer.from(body), { url: URL_REP, contentType: "application/vnd.ms-excel" });
const report = (rows: string) =>
  `Representative Exchange Rates for Selected Currencies for March 2026\r\nCurrency\tMarch 02, 2026\r\n${rows}\r\n\r\nNotes:\r\n`;

describe("IMF adapter", () => {
  it("reads currency units per USD, inverts the (1) rows, skips NA and the dollar itself, drops thousands commas", async () => {
    expect(await recordsOf(parse(fixture("IMF/rep.tsv")))).toEqual([
      // 1 / 1.169800 and 1 / 1.160600 to 10 significant digits (worked out separately).
      { effectiveDate: "2026-03-02", currency: "EUR", rate: "0.8548469824", derivation: "inverted" },
      { effectiveDate: "2026-03-03", currency: "EUR", rate: "0.8616232983", derivation: "inverted" },
      { effectiveDate: "2026-03-02", currency: "JPY", rate: "156.400000" },
      { effectiveDate: "2026-03-03", currency: "KRW", rate: "1435.400000" },
    ]);
  });

  it("takes only the dollar's row of the SDR report, as XDR per USD", async () => {
    expect(await recordsOf(parse(fixture("IMF/sdrcv.tsv")))).toEqual([
      { effectiveDate: "2026-03-02", currency: "XDR", rate: "0.7296240000" },
    ]);
  });

  it("reads every table of a month whose dates are split over several tables", async () => {
    // 1 / 1.150100, 1 / 1.152300 and 1 / 1.149800 to 10 significant digits (worked out separately).
    expect(await recordsOf(parse(fixture("IMF/rep-two-tables.tsv")))).toEqual([
      { effectiveDate: "2026-04-01", currency: "EUR", rate: "0.8694896096", derivation: "inverted" },
      { effectiveDate: "2026-04-02", currency: "EUR", rate: "0.8678295583", derivation: "inverted" },
      { effectiveDate: "2026-04-01", currency: "JPY", rate: "158.100000" },
      { effectiveDate: "2026-04-01", currency: "KRW", rate: "1480.200000" },
      { effectiveDate: "2026-04-02", currency: "KRW", rate: "1478.900000" },
      // The second table: April 03 and 06.
      { effectiveDate: "2026-04-03", currency: "EUR", rate: "0.8697164724", derivation: "inverted" },
      { effectiveDate: "2026-04-03", currency: "JPY", rate: "158.330000" },
      { effectiveDate: "2026-04-06", currency: "JPY", rate: "157.950000" },
      { effectiveDate: "2026-04-06", currency: "KRW", rate: "1475.000000" },
    ]);
  });

  it("resolves the IMF's names by ICU's names, then by rule saying how, then by its own two aliases", () => {
    expect(imfCurrency("U.K. pound", "2026-04-01")).toEqual({
      currency: "GBP",
      derivation: 'name "U.K. pound" resolved by territory GB',
    });
    expect(imfCurrency("Botswana pula", "2026-04-01")).toEqual({
      currency: "BWP",
      derivation: 'name "Botswana pula" resolved by territory BW',
    });
    expect(imfCurrency("U.A.E. dirham")).toEqual({ currency: "AED" });
    expect(imfCurrency("Israeli New Shekel")).toEqual({ currency: "ILS" });
    expect(imfCurrency("Trinidadian dollar")).toEqual({ currency: "TTD" });
    expect(imfCurrency("Chinese   yuan")).toEqual({ currency: "CNY" });
    expect(() => imfCurrency("Atlantean drachma")).toThrow(/^IMF: /);
    for (const name of Object.keys(IMF_ALIASES)) {
      expect(foldName(name)).toBe(name);
      expect(currencyFromName(name)).toBeUndefined();
      expect(() => resolveCurrencyName("IMF", name, { date: "2026-04-01" })).toThrow(/^IMF: /); // no rule reaches it
    }
  });

  itRefusesWhole("IMF", parse, [
    [
      "a truncated report",
      "Representative Exchange Rates for Selected Currencies for March 2026\r\nCurrency\tMarch 02, 2026\r\nEuro(1)\t1.169800\r\nJapanese yen\t156.4",
    ],
    [
      "a report cut at the end of a table",
      "Representative Exchange Rates for Selected Currencies for March 2026\r\nCurrency\tMarch 02, 2026\r\nEuro(1)\t1.169800\r\n",
    ],
    ["another bank's body", '<?xml version="1.0"?><ValCurs Date="2026-05-18"></ValCurs>'],
    [
      "a header that is not dates",
      "Representative Exchange Rates for Selected Currencies for March 2026\r\nCurrency\t2026-03-02\r\nJapanese yen\t156.4\r\n\r\nNotes:\r\n",
    ],
    [
      "a report without a Currency header",
      "Representative Exchange Rates for Selected Currencies for March 2026\r\nJapanese yen\t156.4\r\n\r\nNotes:\r\n",
    ],
  ]);

  const taken = [
    { effectiveDate: "2026-03-02", currency: "JPY", rate: "156.400000" },
    { effectiveDate: "2026-03-02", currency: "KRW", rate: "1435.400000" },
  ];
  it.each([
    [
      "an unknown currency name",
      "Atlantean drachma\t12.5",
      { kind: "unknown-currency", currency: "Atlantean drachma" },
    ],
    ["an unknown note marker", "Botswana pula(2)\t0.0772", { kind: "unknown-unit", currency: "Botswana pula(2)" }],
    ["a figure that is not a decimal", "Swiss franc\t0,7748", { kind: "bad-rate", rate: "0,7748" }],
    ["a zero", "Swiss franc\t0.000000", { kind: "bad-rate", rate: "0.000000" }],
  ] as const)("holds %s and takes the other rows", async (_what, bad, held) => {
    await expectOneHeld(parse(report(`Japanese yen\t156.400000\r\n${bad}\r\nKorean won\t1,435.400000`)), {
      records: taken,
      held: { ...held, source: "line 4, column 2" },
    });
  });

  it("holds the figures of a header date that does not exist", async () => {
    const body =
      "Representative Exchange Rates for Selected Currencies for April 2026\r\nCurrency\tApril 30, 2026\tApril 31, 2026\r\nJapanese yen\t158.1\t158.2\r\n\r\nNotes:\r\n";
    await expectOneHeld(parse(body), {
      records: [{ effectiveDate: "2026-04-30", currency: "JPY", rate: "158.1" }],
      held: { kind: "bad-date", effectiveDate: "April 31, 2026", rate: "158.2", source: "line 3, column 3" },
    });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded reports exactly (values read off the files by hand)", async () => {
    const rep = recording("IMF/001.txt");
    const records = await recordsOf(imf.parse(rep.body, { url: rep.url, contentType: rep.contentType }));
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
      derivation: 'inverted; name "U.K. pound" resolved by territory GB',
    });
    expect(find("2026-03-09", "AUD")).toBeUndefined(); // NA
    expect(find("2026-03-03", "KRW")).toEqual({ effectiveDate: "2026-03-03", currency: "KRW", rate: "1435.400000" });
    expect(find("2026-03-16", "UYU")).toEqual({ effectiveDate: "2026-03-16", currency: "UYU", rate: "40.477000" });
    expect(find("2026-03-02", "USD")).toBeUndefined();
    const sdr = recording("IMF/002.txt");
    const xdr = await recordsOf(imf.parse(sdr.body, { url: sdr.url, contentType: sdr.contentType }));
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
