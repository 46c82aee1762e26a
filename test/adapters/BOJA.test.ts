import { describe, expect, it } from "vitest";

import boja, { BOJA_NAMES, tableHeaders } from "../../adapters/BOJA.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const PAGE = "https://boj.org.jm/market/foreign-exchange/counter-rates/";
const AJAX = "https://boj.org.jm/wp-admin/admin-ajax.php?action=get_wdtable&table_id=134";
const parse = (body: Buffer | string, url = AJAX) =>
  boja.parse(Buffer.from(body), { url, contentType: "text/html; charset=UTF-8" });

describe("BOJA adapter", () => {
  it("takes the exact mean of buying DMD & TT and selling DMD, TT & Cash, the selling rate alone when buying is 0", async () => {
    expect(await parse(fixture("BOJA/get_wdtable.json"))).toEqual([
      { effectiveDate: "2026-03-02", currency: "USD", rate: "156.3066", derivation: "mean" }, // (155.3493 + 157.2639) / 2
      { effectiveDate: "2026-03-02", currency: "JPY", rate: "0.9937", derivation: "mean" }, // (0.9801 + 1.0073) / 2
      { effectiveDate: "2026-03-02", currency: "DOP", rate: "2.5707", derivation: "mean" }, // (2.5355 + 2.6059) / 2
      { effectiveDate: "2026-03-03", currency: "KYD", rate: "191.7852" },
    ]);
  });

  it("maps every recorded name, and leaves the Northern Ireland pound out on purpose", () => {
    expect(BOJA_NAMES).toEqual({
      "AUSTRALIAN DOLLAR": "AUD",
      "BAHAMAS DOLLAR": "BSD",
      "BARBADOS DOLLAR": "BBD",
      "BELIZE DOLLAR": "BZD",
      "CANADA DOLLAR": "CAD",
      "CAYMAN DOLLAR": "KYD",
      "DOMINICAN REP. PESO": "DOP",
      "E. C. DOLLAR": "XCD",
      EURO: "EUR",
      "GIBRALTAR POUND": "GIP",
      "GREAT BRITAIN POUND": "GBP",
      "GUYANA DOLLAR": "GYD",
      "HONG KONG DOLLAR": "HKD",
      "JAPANESE YEN": "JPY",
      "NORTHERN IRELAND POUND": null,
      "SWISS FRANC": "CHF",
      "U.S. DOLLAR": "USD",
    });
  });

  it("reads the counter-rates page as no records after checking its nonce and column headers", async () => {
    expect(await parse(fixture("BOJA/counter-rates.html"), PAGE)).toEqual([]);
    expect(tableHeaders(fixture("BOJA/counter-rates.html").toString())).toEqual([
      "Date",
      "Currency",
      "DMD & TT",
      "Notes",
      "Coins",
      "DMD, TT & Cash",
    ]);
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<!DOCTYPE html><html><body>Request Rejected</body></html>"],
    ["truncated JSON", '{"draw":1,"data":[["02 Mar 2026","EURO","179.56'],
    ["another bank's JSON", '{"draw":1,"data":[["05\\/01\\/2024","US DOLLAR","157.9012"]]}'],
    ["an unknown currency name", '{"data":[["02 Mar 2026","MARS DOLLAR","1","1","0","1"]]}'],
    ["a bad date", '{"data":[["31 Feb 2026","EURO","1","1","0","1"]]}'],
  ])("rejects %s with an error naming the bank", async (_what, body) => {
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^BOJA: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recordings exactly (values read off the files by hand)", async () => {
    const page = recording("BOJA/001.html");
    // The headers of table 134, and its definition naming column 3 `buying` and column 6 `selling`.
    expect(tableHeaders(page.body.toString())).toEqual([
      "Date",
      "Currency",
      "DMD & TT",
      "Notes",
      "Coins",
      "DMD, TT & Cash",
    ]);
    expect(page.body.toString()).toContain('"origHeader":"buying","displayHeader":"DMD &amp; TT"');
    expect(page.body.toString()).toContain('"origHeader":"selling","displayHeader":"DMD, TT &amp; Cash"');
    expect(await boja.parse(page.body, { url: page.url })).toEqual([]);
    const r = recording("BOJA/002.json");
    const records = await boja.parse(r.body, { url: r.url });
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    // ["02 Mar 2026","GREAT BRITAIN POUND","209.1321","198.6800","0.0000","213.3367"]
    expect(find("2026-03-02", "GBP")).toEqual({
      effectiveDate: "2026-03-02",
      currency: "GBP",
      rate: "211.2344",
      derivation: "mean",
    });
    // ["02 Mar 2026","U.S. DOLLAR","155.3493","147.5800","127.5800","157.2639"]
    expect(find("2026-03-02", "USD")).toEqual({
      effectiveDate: "2026-03-02",
      currency: "USD",
      rate: "156.3066",
      derivation: "mean",
    });
    expect(records).toHaveLength(144); // 153 rows less the 9 Northern Ireland pound rows
  });

  it("fetches the page for the nonce, then posts the whole-table form with it", async () => {
    const http = fakeHttp((req) =>
      req.url === PAGE ? { body: fixture("BOJA/counter-rates.html") } : { body: '{"data":[]}' },
    );
    await boja.fetch({ kind: "latest" }, { http, env: {} });
    await boja.fetch({ kind: "range", from: "2020-01-01", to: "2020-12-31" }, { http, env: {} });
    const form = "draw=1&start=0&length=-1&wdtNonce=5a1cc1896f";
    expect(http.seen.map((r) => `${r.method} ${r.url}${r.body ? ` ${r.body}` : ""}`)).toEqual([
      `GET ${PAGE}`,
      `POST ${AJAX} ${form}`,
      `GET ${PAGE}`,
      `POST ${AJAX} ${form}`,
    ]);
  });
});
