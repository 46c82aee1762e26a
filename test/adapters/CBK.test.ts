import { describe, expect, it } from "vitest";

import cbk, { CBK_NAMES } from "../../adapters/CBK.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const AJAX = "https://www.centralbank.go.ke/wp-admin/admin-ajax.php?action=get_wdtable";
const parse = (body: Buffer | string) =>
  cbk.parse(Buffer.from(body), { url: `${AJAX}&table_id=193`, contentType: "text/html; charset=UTF-8" });

describe("CBK adapter", () => {
  it("maps names, keeps per-100 yen as unitMultiplier, inverts the KES / xxx cross rows, skips empty cells", async () => {
    // 1/24.0657 and 1/18.0461 to 10 significant digits, computed independently (Python decimal, half-even).
    expect(await parse(fixture("CBK/get_wdtable.json"))).toEqual([
      { effectiveDate: "2024-01-05", currency: "USD", rate: "157.9012" },
      { effectiveDate: "2024-01-05", currency: "JPY", rate: "109.3764", unitMultiplier: 2 },
      { effectiveDate: "2024-01-05", currency: "UGX", rate: "0.04155291556", derivation: "inverted" },
      { effectiveDate: "2024-01-05", currency: "BIF", rate: "0.05541363508", derivation: "inverted" },
      { effectiveDate: "2024-01-09", currency: "EUR", rate: "174.2870" },
    ]);
  });

  it("covers every recorded name", () => {
    expect(Object.fromEntries(Object.entries(CBK_NAMES).map(([k, v]) => [k, v.currency]))).toEqual({
      "US DOLLAR": "USD",
      "STG POUND": "GBP",
      EURO: "EUR",
      "SA RAND": "ZAR",
      "KES / USHS": "UGX",
      "KES / TSHS": "TZS",
      "KES / RWF": "RWF",
      "KES / BIF": "BIF",
      "AE DIRHAM": "AED",
      "CAN $": "CAD",
      "S FRANC": "CHF",
      "JPY (100)": "JPY",
      "SW KRONER": "SEK",
      "NOR KRONER": "NOK",
      "DAN KRONER": "DKK",
      "IND RUPEE": "INR",
      "HONGKONG DOLLAR": "HKD",
      "SINGAPORE DOLLAR": "SGD",
      "SAUDI RIYAL": "SAR",
      "CHINESE YUAN": "CNY",
      "AUSTRALIAN $": "AUD",
    });
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<!DOCTYPE html><html><body>Access denied</body></html>"],
    ["truncated JSON", '{"draw":1,"data":[["05\\/01\\/2024","US DOLLAR","157.90'],
    ["another bank's JSON", '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.1}]}'],
    ["an unknown currency name", '{"data":[["05\\/01\\/2024","MARTIAN DOLLAR","1.0"]]}'],
    ["a bad date", '{"data":[["31\\/02\\/2024","US DOLLAR","157.9012"]]}'],
    ["a non-number", '{"data":[["05\\/01\\/2024","US DOLLAR","abc"]]}'],
  ])("rejects %s with an error naming the bank", async (_what, body) => {
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^CBK: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded table exactly (values read off the file by hand)", async () => {
    const r = recording("CBK/001.json");
    const records = await cbk.parse(r.body, { url: r.url, contentType: r.contentType });
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
    expect(records.at(-1)).toEqual({ effectiveDate: "2025-05-02", currency: "AUD", rate: "83.0551" });
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
