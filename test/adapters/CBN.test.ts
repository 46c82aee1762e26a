import { describe, expect, it } from "vitest";

import cbn, { CBN_ALIASES, cbnCurrency } from "../../adapters/CBN.js";
import { RowProblem } from "../../src/errors.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
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

  it("reads the published names through ICU's English names, then the bank's own variants", () => {
    for (const code of Object.values(CBN_ALIASES)) expect(code).toMatch(/^[A-Z]{3}$/);
    expect(cbnCurrency("DANISH KRONA")).toBe("DKK");
    expect(cbnCurrency("danish  kroner")).toBe("DKK");
    expect(cbnCurrency("YEN")).toBe("JPY");
    expect(cbnCurrency("POUNDS STERLING")).toBe("GBP");
    expect(cbnCurrency("YUAN/RENMINBI")).toBe("CNY");
    expect(cbnCurrency("UAE DIRHAM")).toBe("AED");
    expect(cbnCurrency("SOUTH AFRICAN RAND")).toBe("ZAR");
    expect(cbnCurrency("SWISS FRANC")).toBe("CHF");
    expect(cbnCurrency("EURO")).toBe("EUR");
    expect(cbnCurrency("Japanese Yen")).toBe("JPY");
    expect(cbnCurrency("SDR")).toBe("XDR");
    expect(cbnCurrency("CFA")).toBe("XOF");
    expect(() => cbnCurrency("NAIRA")).toThrow(RowProblem);
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
      "an unknown currency name",
      row("GHANA CEDI", "2026-05-19", "100.1"),
      { kind: "unknown-currency", currency: "GHANA CEDI" },
    ],
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
