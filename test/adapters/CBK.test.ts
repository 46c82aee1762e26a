import { describe, expect, it } from "vitest";

import cbk, { cbkLabel } from "../../adapters/CBK.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const AJAX = "https://www.centralbank.go.ke/wp-admin/admin-ajax.php?action=get_wdtable";
const parse = (body: Buffer | string) =>
  cbk.parse(Buffer.from(body), { url: `${AJAX}&table_id=193`, contentType: "text/html; charset=UTF-8" });

describe("CBK adapter", () => {
  it("maps names, keeps per-100 yen as unitMultiplier, inverts the KES / xxx cross rows, skips empty cells", async () => {
    // 1/24.0657 and 1/18.0461 to 10 significant digits, computed independently (Python decimal, half-even).
    expect(await recordsOf(parse(fixture("CBK/get_wdtable.json")))).toEqual([
      { effectiveDate: "2024-01-05", currency: "USD", rate: "157.9012" },
      { effectiveDate: "2024-01-05", currency: "JPY", rate: "109.3764", unitMultiplier: 2 },
      { effectiveDate: "2024-01-05", currency: "UGX", rate: "0.04155291556", derivation: "inverted" },
      { effectiveDate: "2024-01-05", currency: "BIF", rate: "0.05541363508", derivation: "inverted" },
      { effectiveDate: "2024-01-09", currency: "EUR", rate: "174.2870" },
    ]);
  });

  it("reads every recorded label, ICU's English names first, then the bank's own", () => {
    const labels = [
      "US DOLLAR",
      "STG POUND",
      "EURO",
      "SA RAND",
      "KES / USHS",
      "KES / TSHS",
      "KES / RWF",
      "KES / BIF",
      "AE DIRHAM",
      "CAN $",
      "S FRANC",
      "JPY (100)",
      "SW KRONER",
      "NOR KRONER",
      "DAN KRONER",
      "IND RUPEE",
      "HONGKONG DOLLAR",
      "SINGAPORE DOLLAR",
      "SAUDI RIYAL",
      "CHINESE YUAN",
      "AUSTRALIAN $",
    ];
    expect(cbkLabel("SA RAND", "2024-01-05")).toEqual({
      currency: "ZAR",
      derivation: 'name "SA RAND" resolved by territory ZA',
      units: "1",
      indirect: false,
    });
    expect(cbkLabel("IND RUPEE", "2024-01-05")).toMatchObject({
      derivation: 'name "IND RUPEE" resolved by territory IN',
    });
    expect(cbkLabel("STG POUND", "2024-01-05")).toEqual({ currency: "GBP", units: "1", indirect: false });
    const summary = (l: string) => {
      const { currency, units, indirect } = cbkLabel(l, "2024-01-05");
      return `${currency} ${units} ${indirect}`;
    };
    expect(labels.map(summary)).toEqual([
      "USD 1 false",
      "GBP 1 false",
      "EUR 1 false",
      "ZAR 1 false",
      "UGX 1 true",
      "TZS 1 true",
      "RWF 1 true",
      "BIF 1 true",
      "AED 1 false",
      "CAD 1 false",
      "CHF 1 false",
      "JPY 100 false",
      "SEK 1 false",
      "NOK 1 false",
      "DKK 1 false",
      "INR 1 false",
      "HKD 1 false",
      "SGD 1 false",
      "SAR 1 false",
      "CNY 1 false",
      "AUD 1 false",
    ]);
  });

  itRefusesWhole("CBK", parse, [
    ["truncated JSON", '{"draw":1,"data":[["05\\/01\\/2024","US DOLLAR","157.90'],
    ["another bank's JSON", '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.1}]}'],
  ]);

  const taken = [
    { effectiveDate: "2024-01-05", currency: "USD", rate: "157.9012" },
    { effectiveDate: "2024-01-05", currency: "EUR", rate: "172.7439" },
  ];
  it.each([
    [
      "an unknown currency name",
      '["05\\/01\\/2024","MARTIAN DOLLAR","1.0"]',
      { kind: "unknown-currency", currency: "MARTIAN DOLLAR" },
    ],
    [
      "a date that does not exist",
      '["31\\/02\\/2024","STG POUND","200.1950"]',
      { kind: "bad-date", effectiveDate: "31/02/2024" },
    ],
    [
      "a rate that is not a number",
      '["05\\/01\\/2024","STG POUND","2OO.1950"]',
      { kind: "bad-rate", rate: "2OO.1950" },
    ],
    ["a unit count that is not a whole number", '["05\\/01\\/2024","JPY (0)","109.3764"]', { kind: "unknown-unit" }],
    ["a short row", '["05\\/01\\/2024","STG POUND"]', { kind: "bad-row" }],
  ] as const)("holds %s and takes the other rows", async (_what, bad, held) => {
    const body = `{"draw":1,"data":[["05\\/01\\/2024","US DOLLAR","157.9012"],${bad},["05\\/01\\/2024","EURO","172.7439"]]}`;
    await expectOneHeld(parse(body), { records: taken, held: { ...held, source: "data[1]" } });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded table exactly (values read off the file by hand)", async () => {
    const r = recording("CBK/001.json");
    const records = await recordsOf(cbk.parse(r.body, { url: r.url, contentType: r.contentType }));
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    expect(find("2024-01-05", "USD")).toEqual({ effectiveDate: "2024-01-05", currency: "USD", rate: "157.9012" });
    expect(find("2024-01-05", "JPY")).toEqual({
      effectiveDate: "2024-01-05",
      currency: "JPY",
      rate: "109.3764",
      unitMultiplier: 2,
    });
    // "09/01/2024","KES / USHS","23.9967": 1/23.9967 = 0.04167239662 (10 significant digits).
    expect(find("2024-01-09", "UGX")).toEqual({
      effectiveDate: "2024-01-09",
      currency: "UGX",
      rate: "0.04167239662",
      derivation: "inverted",
    });
    expect(records.at(-1)).toEqual({
      effectiveDate: "2025-05-02",
      currency: "AUD",
      rate: "83.0551",
      derivation: 'name "AUSTRALIAN $" resolved by territory AU',
    });
    expect(records).toHaveLength(6909);
  });

  it("posts the whole-table form to table 193 for the latest, and to table 32 too for ranges before 2024", async () => {
    const http = fakeHttp(() => ({ body: '{"data":[]}' }));
    await cbk.fetch({ kind: "latest" }, { http, env: {} });
    await cbk.fetch({ kind: "range", from: "2023-12-01", to: "2024-02-01" }, { http, env: {} });
    await cbk.fetch({ kind: "range", from: "2010-01-01", to: "2010-12-31" }, { http, env: {} });
    expect(http.seen.map((r) => `${r.method} ${r.url} ${r.body}`)).toEqual([
      `POST ${AJAX}&table_id=193 draw=1&start=0&length=-1`,
      `POST ${AJAX}&table_id=32 draw=1&start=0&length=-1`,
      `POST ${AJAX}&table_id=193 draw=1&start=0&length=-1`,
      `POST ${AJAX}&table_id=32 draw=1&start=0&length=-1`,
    ]);
  });
});
