import { describe, expect, it } from "vitest";

import bi, { searchBody, searchForm } from "../../adapters/BI.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const PAGE = "https://www.bi.go.id/en/statistik/informasi-kurs/transaksi-bi/default.aspx";
const parse = (body: Buffer | string) => bi.parse(Buffer.from(body), { url: PAGE });

describe("BI adapter", () => {
  it("reads the result table by its headers: exact mean of Sell and Buy, the currency from the label, per-100 as unitMultiplier", async () => {
    expect(await parse(fixture("BI/search-result.html"))).toEqual([
      { effectiveDate: "2026-03-05", currency: "JPY", rate: "10520.235", unitMultiplier: 2, derivation: "mean" }, // (10573.15 + 10467.32) / 2
      { effectiveDate: "2026-03-04", currency: "JPY", rate: "10548.15", unitMultiplier: 2, derivation: "mean" }, // (10601.20 + 10495.10) / 2
    ]);
  });

  it("reads a page without the result table (no results, or the landing page) as no records", async () => {
    const html = fixture("BI/search-result.html")
      .toString()
      .replace(/<table[\s\S]*<\/table>/, "");
    expect(await parse(html)).toEqual([]);
  });

  it.each([
    ["an empty body", ""],
    ["an HTML error page", "<!DOCTYPE html><html><body>Sorry, something went wrong</body></html>"],
    ["a truncated page", "truncate"],
    ["another bank's body", '{"data":[]}'],
  ])("rejects %s with an error naming the bank", async (_what, kind) => {
    const body = kind === "truncate" ? fixture("BI/search-result.html").toString().slice(0, -200) : kind;
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^BI: /);
  });

  it.skipIf(!sharedFeedsPresent)(
    "reads the recorded searches exactly (values read off the files by hand)",
    async () => {
      const aed = recording("BI/002.html");
      // <td>1.00</td><td>4,627.79</td><td>4,580.24</td><td>5 Mar 2026</td>: (4627.79 + 4580.24) / 2
      expect((await bi.parse(aed.body, { url: aed.url }))[0]).toEqual({
        effectiveDate: "2026-03-05",
        currency: "AED",
        rate: "4604.015",
        derivation: "mean",
      });
      const aud = recording("BI/003.html");
      const records = await bi.parse(aud.body, { url: aud.url });
      // <td>1.00</td><td>12,013.13</td><td>11,891.92</td><td>2 Mar 2026</td>: (12013.13 + 11891.92) / 2
      expect(records.at(-1)).toEqual({
        effectiveDate: "2026-03-02",
        currency: "AUD",
        rate: "11952.525",
        derivation: "mean",
      });
      expect(records).toHaveLength(4);
      const landing = recording("BI/001.html");
      expect(await bi.parse(landing.body, { url: landing.url })).toEqual([]);
      // The search built from the recorded landing page is the body that fetched the recorded AED answer.
      expect(searchBody(searchForm(landing.body.toString()), "AED  ", "2026-03-01", "2026-03-05")).toBe(
        aed.requestBody,
      );
    },
  );

  it("gets the page once, then posts one search per listed currency", async () => {
    const http = fakeHttp((req) => (req.method === "GET" ? { body: fixture("BI/search-result.html") } : { body: "" }));
    await bi.fetch({ kind: "range", from: "2026-03-01", to: "2026-03-05" }, { http, env: {} });
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
