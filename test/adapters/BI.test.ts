import { describe, expect, it } from "vitest";

import bi, { searchBody, searchForm } from "../../adapters/BI.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const PAGE = "https://www.bi.go.id/en/statistik/informasi-kurs/transaksi-bi/default.aspx";
const parse = (body: Buffer | string) => bi.parse(Buffer.from(body), { url: PAGE });

describe("BI adapter", () => {
  it("reads the result table by its headers: exact mean of Sell and Buy, the currency from the label, per-100 as unitMultiplier", async () => {
    expect(await recordsOf(parse(fixture("BI/search-result.html")))).toEqual([
      { effectiveDate: "2026-03-05", currency: "JPY", rate: "10520.235", unitMultiplier: 2, derivation: "mean" }, // (10573.15 + 10467.32) / 2
      { effectiveDate: "2026-03-04", currency: "JPY", rate: "10548.15", unitMultiplier: 2, derivation: "mean" }, // (10601.20 + 10495.10) / 2
    ]);
  });

  const noTable = fixture("BI/search-result.html")
    .toString()
    .replace(/<table[\s\S]*<\/table>/, "");
  const landing = noTable.replace(/ value="0[15]-Mar-2026"/g, "");

  it("reads a search without results (the page with its dates, no table) as the bank saying nothing was published", async () => {
    expect(await parse(noTable)).toEqual({
      records: [],
      held: [],
      noPublication: "no results for the currency searched from 01-Mar-2026 to 05-Mar-2026",
    });
    const asked = "ctl00%24PlaceHolderMain%24g_6c89%24ctl00%24ddlmatauang1=AED+&x=1";
    expect(await bi.parse(Buffer.from(noTable), { url: PAGE, method: "POST", requestBody: asked })).toMatchObject({
      noPublication: "no results for AED from 01-Mar-2026 to 05-Mar-2026",
    });
  });

  it("tells the page as first served (empty dates, no table) by what it holds: navigation after a GET, refused after a POST", async () => {
    expect(bi.navigationAnswer?.({ url: PAGE, method: "GET", contentType: "", body: Buffer.from(landing) })).toBe(true);
    expect(bi.navigationAnswer?.({ url: PAGE, method: "POST", contentType: "", body: Buffer.from(landing) })).toBe(
      false,
    );
    // A results page, or one with the dates searched, is never navigation, whatever the method says.
    expect(
      bi.navigationAnswer?.({ url: PAGE, method: "GET", contentType: "", body: fixture("BI/search-result.html") }),
    ).toBe(false);
    expect(bi.navigationAnswer?.({ url: PAGE, method: "GET", contentType: "", body: Buffer.from(noTable) })).toBe(
      false,
    );
    await expect(async () => parse(landing)).rejects.toThrow(
      /^BI: the search page as first served, with no search made/,
    );
  });

  it("refuses results for another currency than the form asked for", async () => {
    const asked = (c: string) => `ctl00%24PlaceHolderMain%24g_6c89%24ctl00%24ddlmatauang1=${c}+`;
    await expect(async () =>
      bi.parse(fixture("BI/search-result.html"), { url: PAGE, method: "POST", requestBody: asked("USD") }),
    ).rejects.toThrow("BI: the results are for JPY, the search asked for USD");
    expect(
      await recordsOf(
        bi.parse(fixture("BI/search-result.html"), { url: PAGE, method: "POST", requestBody: asked("JPY") }),
      ),
    ).toHaveLength(2);
  });

  const page = fixture("BI/search-result.html").toString();
  itRefusesWhole("BI", parse, [
    ["a truncated page", page.slice(0, -200)],
    ["another bank's body", '{"data":[]}'],
    ["a results table without its Sell column", page.replace(">Sell<", ">Jual<")],
    ["results without the currency label", page.replace(/CURRENCIES JPY/, "")],
  ]);

  const jpy4Mar = {
    effectiveDate: "2026-03-04",
    currency: "JPY",
    rate: "10548.15",
    unitMultiplier: 2,
    derivation: "mean",
  } as const;
  it.each([
    ["a figure that is not a number", "<td>10,573.15</td>", "<td>n/a</td>", { kind: "bad-rate", rate: "n/a" }],
    ["a date that does not exist", "<td>5 Mar 2026</td>", "<td>31 Feb 2026</td>", { kind: "bad-date" }],
    ["a unit that is not a whole number", "<td>100.00</td>", "<td>1.5</td>", { kind: "unknown-unit" }],
  ] as const)("holds a row with %s and takes the others", async (_what, from, to, held) => {
    await expectOneHeld(parse(page.replace(from, to)), {
      records: [jpy4Mar],
      held: { ...held, source: "row 2", currency: "JPY" },
    });
  });

  it("holds every row of a search whose currency label is no currency", async () => {
    const answer = await parse(page.replace("CURRENCIES JPY", "CURRENCIES XYZ"));
    expect(answer.records).toEqual([]);
    expect(answer.held.map((h) => [h.kind, h.source, h.currency])).toEqual([
      ["unknown-currency", "row 2", "XYZ"],
      ["unknown-currency", "row 3", "XYZ"],
    ]);
  });

  it("reads every results table of the page", async () => {
    const table = /<table[\s\S]*<\/table>/.exec(page)![0];
    const second = table.replace("5 Mar 2026", "6 Mar 2026").replace("4 Mar 2026", "3 Mar 2026");
    const records = await recordsOf(parse(page.replace(table, `${table}\n${second}`)));
    expect(records.map((r) => `${r.effectiveDate} ${r.rate}`)).toEqual([
      "2026-03-05 10520.235",
      "2026-03-04 10548.15",
      "2026-03-06 10520.235",
      "2026-03-03 10548.15",
    ]);
  });

  it.skipIf(!sharedFeedsPresent)(
    "reads the recorded searches exactly (values read off the files by hand)",
    async () => {
      const aed = recording("BI/002.html");
      // <td>1.00</td><td>4,627.79</td><td>4,580.24</td><td>5 Mar 2026</td>: (4627.79 + 4580.24) / 2
      expect((await recordsOf(bi.parse(aed.body, { url: aed.url })))[0]).toEqual({
        effectiveDate: "2026-03-05",
        currency: "AED",
        rate: "4604.015",
        derivation: "mean",
      });
      const aud = recording("BI/003.html");
      const records = await recordsOf(bi.parse(aud.body, { url: aud.url }));
      // <td>1.00</td><td>12,013.13</td><td>11,891.92</td><td>2 Mar 2026</td>: (12013.13 + 11891.92) / 2
      expect(records.at(-1)).toEqual({
        effectiveDate: "2026-03-02",
        currency: "AUD",
        rate: "11952.525",
        derivation: "mean",
      });
      expect(records).toHaveLength(4);
      const landing = recording("BI/001.html");
      expect(bi.navigationAnswer?.({ ...landing, method: "GET" })).toBe(true);
      expect(bi.navigationAnswer?.({ ...aed, method: "GET" })).toBe(false);
      // The search built from the recorded landing page is the body that fetched the recorded AED answer.
      expect(searchBody(searchForm(landing.body.toString()), "AED  ", "2026-03-01", "2026-03-05")).toBe(
        aed.requestBody,
      );
    },
  );

  it("gets the page once (marked navigation), then posts one search per listed currency", async () => {
    const http = fakeHttp((req) => (req.method === "GET" ? { body: fixture("BI/search-result.html") } : { body: "" }));
    const docs = await bi.fetch({ kind: "range", from: "2026-03-01", to: "2026-03-05" }, { http, env: {} });
    expect(docs.map((d) => d.role)).toEqual(["navigation", undefined, undefined]);
    const prefix = "ctl00%24PlaceHolderMain%24g_6c89%24ctl00%24";
    const body = (c: string) =>
      "MSOWebPartPage_PostbackSource=&MSOTlPn_View=0&MSOTlPn_ShowSettings=False&MSOTlPn_Button=none&__EVENTTARGET=&__EVENTARGUMENT=" +
      "&__REQUESTDIGEST=0xABC%2C21+Mar+2026+01%3A02%3A03+-0000&MSOSPWebPartManager_DisplayModeName=Browse&MSOSPWebPartManager_ExitingDesignMode=false" +
      "&MSOSPWebPartManager_OldDisplayModeName=Browse&MSOSPWebPartManager_StartWebPartEditingName=false&MSOSPWebPartManager_EndWebPartEditing=false" +
      "&_maintainWorkspaceScrollPosition=0&__VIEWSTATE=%2FwEPDw%2B%3D&__VIEWSTATEGENERATOR=FC2F6B36&__SCROLLPOSITIONX=0&__SCROLLPOSITIONY=0" +
      `&__EVENTVALIDATION=%2FwEdAD5%3D&${prefix}ddlmatauang1=${c}+&${prefix}txtFrom=01-Mar-2026&${prefix}txtTo=05-Mar-2026&${prefix}txtTanggal=` +
      `&${prefix}btnSearch1=Search&${prefix}hidSourceID=ctl00_PlaceHolderMain_g_6c89_ctl00_btnSearch1`;
    expect(http.seen.map((r) => `${r.method} ${r.url}${r.body ? ` ${r.body}` : ""}`)).toEqual([
      `GET ${PAGE}`,
      `POST ${PAGE} ${body("JPY")}`,
      `POST ${PAGE} ${body("USD")}`,
    ]);
  });
});
