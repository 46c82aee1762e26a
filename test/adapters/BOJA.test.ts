import { describe, expect, it } from "vitest";

import boja, { BOJA_ALIASES, LEFT_OUT, bojaCurrency, tableHeaders } from "../../adapters/BOJA.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const PAGE = "https://boj.org.jm/market/foreign-exchange/counter-rates/";
const AJAX = "https://boj.org.jm/wp-admin/admin-ajax.php?action=get_wdtable&table_id=134";
const parse = (body: Buffer | string, url = AJAX) =>
  boja.parse(Buffer.from(body), { url, contentType: "text/html; charset=UTF-8" });

const DOMINICAN = 'name "DOMINICAN REP. PESO" resolved by territory DO';
const CAYMAN = 'name "CAYMAN DOLLAR" resolved by territory KY';

describe("BOJA adapter", () => {
  it("takes the exact mean of buying DMD & TT and selling DMD, TT & Cash, the selling rate alone when buying is 0", async () => {
    expect(await recordsOf(parse(fixture("BOJA/get_wdtable.json")))).toEqual([
      { effectiveDate: "2026-03-02", currency: "USD", rate: "156.3066", derivation: "mean" }, // (155.3493 + 157.2639) / 2
      { effectiveDate: "2026-03-02", currency: "JPY", rate: "0.9937", derivation: "mean" }, // (0.9801 + 1.0073) / 2
      // (2.5355 + 2.6059) / 2; the currency named by rule
      { effectiveDate: "2026-03-02", currency: "DOP", rate: "2.5707", derivation: `mean; ${DOMINICAN}` },
      { effectiveDate: "2026-03-03", currency: "KYD", rate: "191.7852", derivation: CAYMAN },
    ]);
  });

  it("maps every recorded name (ICU's names, the kit's rules, the bank's one alias), and leaves the Northern Ireland pound out on purpose", () => {
    const names = {
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
      "SWISS FRANC": "CHF",
      "U.S. DOLLAR": "USD",
    };
    for (const [name, code] of Object.entries(names))
      expect(bojaCurrency(name, "2026-03-02").currency, name).toBe(code);
    expect(bojaCurrency("CAYMAN DOLLAR", "2026-03-02")).toEqual({ currency: "KYD", derivation: CAYMAN });
    expect(bojaCurrency("E. C. DOLLAR", "2026-03-02")).toEqual({ currency: "XCD" });
    expect(Object.keys(BOJA_ALIASES)).toEqual(["e c dollar"]);
    expect([...LEFT_OUT]).toEqual(["northern ireland pound"]);
  });

  it("never parses the counter-rates page (navigation), and checks its nonce and column headers when fetching", async () => {
    expect(boja.navigation?.test(PAGE)).toBe(true);
    expect(boja.navigation?.test(AJAX)).toBe(false);
    expect(tableHeaders(fixture("BOJA/counter-rates.html").toString())).toEqual([
      "Date",
      "Currency",
      "DMD & TT",
      "Notes",
      "Coins",
      "DMD, TT & Cash",
    ]);
    const changed = fixture("BOJA/counter-rates.html").toString().replace("Coins</th>", "Cash</th>");
    const http = fakeHttp(() => ({ body: changed }));
    await expect(boja.fetch({ kind: "latest" }, { http, env: {} })).rejects.toThrow(/^BOJA: table 134 headers changed/);
  });

  itRefusesWhole("BOJA", parse, [
    ["truncated JSON", '{"draw":1,"data":[["02 Mar 2026","EURO","179.56'],
    ["the counter-rates page where the table was expected", fixture("BOJA/counter-rates.html")],
    ["another bank's JSON", '{"draw":1,"rows":[["05\\/01\\/2024","US DOLLAR","157.9012"]]}'],
  ]);

  const answer = (bad: string) =>
    `{"data":[["02 Mar 2026","U.S. DOLLAR","155.3493","147.5800","127.5800","157.2639"],${bad},["03 Mar 2026","CAYMAN DOLLAR","0.0000","0.0000","0.0000","191.7852"]]}`;
  it.each([
    [
      "an unknown currency name",
      '["02 Mar 2026","MARS DOLLAR","1","1","0","1"]',
      { kind: "unknown-currency", currency: "MARS DOLLAR" },
    ],
    [
      "a date that does not exist",
      '["31 Feb 2026","EURO","179.56","170.58","0","188.2596"]',
      { kind: "bad-date", effectiveDate: "31 Feb 2026" },
    ],
    [
      "a figure that is not a number",
      '["02 Mar 2026","EURO","179,56","170.58","0","188.2596"]',
      { kind: "bad-rate", rate: "179,56" },
    ],
    ["a row of another shape", '["02 Mar 2026","EURO","179.56"]', { kind: "bad-row" }],
  ] as const)("holds %s and takes the other rows", async (_what, bad, held) => {
    await expectOneHeld(parse(answer(bad)), {
      records: [
        { effectiveDate: "2026-03-02", currency: "USD", rate: "156.3066", derivation: "mean" },
        { effectiveDate: "2026-03-03", currency: "KYD", rate: "191.7852", derivation: CAYMAN },
      ],
      held: { ...held, source: "data[1]" },
    });
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
    expect(boja.navigation?.test(page.url)).toBe(true);
    const r = recording("BOJA/002.json");
    const records = await recordsOf(boja.parse(r.body, { url: r.url }));
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    // ["02 Mar 2026","GREAT BRITAIN POUND","209.1321","198.6800","0.0000","213.3367"]
    expect(find("2026-03-02", "GBP")).toEqual({
      effectiveDate: "2026-03-02",
      currency: "GBP",
      rate: "211.2344",
      derivation: 'mean; name "GREAT BRITAIN POUND" resolved by territory GB',
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

  it("fetches the page for the nonce (marked navigation), then posts the whole-table form with it", async () => {
    const http = fakeHttp((req) =>
      req.url === PAGE ? { body: fixture("BOJA/counter-rates.html") } : { body: '{"data":[]}' },
    );
    const docs = await boja.fetch({ kind: "latest" }, { http, env: {} });
    expect(docs.map((d) => d.role)).toEqual(["navigation", undefined]);
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
