import { readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import nbs, { listIdOf } from "../../adapters/NBS.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const APP = "https://webappcenter.nbs.rs/ExchangeRateWebApp/ExchangeRate";
const GUID = "c64fcbd5-1a28-493c-ab21-54385b0037b6";
const parse = (body: Buffer | string) =>
  nbs.parse(Buffer.from(body), { url: `${APP}/Download?ExchangeRateListID=${GUID}` });
const middle = readFileSync(new URL("../fixtures/NBS/middle.xml", import.meta.url), "utf8");
const html = readFileSync(new URL("../fixtures/NBS/page.html", import.meta.url), "utf8");
const noList =
  '<html><body><form action="/ExchangeRateWebApp/ExchangeRate/IndexByDate"></form>Nema kursne liste</body></html>';

describe("NBS adapter", () => {
  it("takes Middle_Rate per Unit with its trailing zeros", async () => {
    expect(await parse(fixture("NBS/middle.xml"))).toEqual([
      { effectiveDate: "2025-12-30", currency: "EUR", rate: "117.1400" },
      { effectiveDate: "2025-12-30", currency: "HUF", rate: "30.5210", unitMultiplier: 2 },
      { effectiveDate: "2025-12-30", currency: "JPY", rate: "63.9870", unitMultiplier: 2 },
    ]);
  });

  it("reads a buying/selling list (not the official middle rate) as no records", async () => {
    expect(await parse(fixture("NBS/cash.xml"))).toEqual([]);
  });

  it("finds the one list a page links to", () => {
    expect(listIdOf(html)).toBe(GUID);
    expect(listIdOf("<html><body>Nema kursne liste</body></html>")).toBeUndefined();
    expect(() =>
      listIdOf(
        html.replace(
          `${GUID}&amp;ExchangeRateListTypeName=srednjiKurs&amp;Format=csv`,
          "00000000-0000-0000-0000-000000000000",
        ),
      ),
    ).toThrow(/^NBS: /);
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", html],
    ["a truncated list", middle.slice(0, 500)],
    [
      "another bank's body",
      '<?xml version="1.0"?><ValCurs Date="02.03.2026" name="Foreign Currency Market"><Valute ID="R01235"><CharCode>USD</CharCode></Valute></ValCurs>',
    ],
    ["a middle list without Middle_Rate", middle.replace("<Middle_Rate>117.1400</Middle_Rate>", "")],
    ["an unknown list type", middle.replace("OFFICIAL MIDDLE EXCHANGE RATE OF THE DINAR", "SOMETHING ELSE")],
    ["a bad date", middle.replace("30.12.2025", "31.02.2025")],
  ])("rejects %s with an error naming the bank", async (_what, body) => {
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^NBS: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded lists exactly (values read off the files by hand)", async () => {
    const r = recording("NBS/001.xml");
    const records = await nbs.parse(r.body, { url: r.url });
    expect(records).toHaveLength(30);
    const find = (currency: string) => records.find((x) => x.currency === currency);
    expect(find("EUR")).toEqual({ effectiveDate: "2015-12-31", currency: "EUR", rate: "121.6261" });
    expect(find("AUD")).toEqual({ effectiveDate: "2015-12-31", currency: "AUD", rate: "81.2900" });
    expect(find("HUF")).toEqual({ effectiveDate: "2015-12-31", currency: "HUF", rate: "38.7406", unitMultiplier: 2 });
    expect(find("JPY")).toEqual({ effectiveDate: "2015-12-31", currency: "JPY", rate: "92.4000", unitMultiplier: 2 });
    expect(find("KWD")).toEqual({ effectiveDate: "2015-12-31", currency: "KWD", rate: "366.4541" });
    for (const file of ["NBS/002.xml", "NBS/003.xml"]) {
      const b = recording(file);
      expect(await nbs.parse(b.body, { url: b.url })).toEqual([]);
    }
  });

  it("follows the page's list link in one session: current list for latest, the list of each weekday for a range", async () => {
    const http = fakeHttp((req) => ({
      body: req.url.includes("/Download?") ? middle : req.url.includes("Date=05.01.2026") ? noList : html,
    }));
    await nbs.fetch({ kind: "latest" }, { http, env: {} });
    await nbs.fetch({ kind: "range", from: "2026-01-02", to: "2026-01-05" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([
      `${APP}/CurrentMiddleRate`,
      `${APP}/Download?ExchangeRateListID=${GUID}&ExchangeRateListTypeName=srednjiKurs&Format=xml`,
      `${APP}/IndexByDate?isSearchExecuted=true&Date=02.01.2026&ExchangeRateListTypeID=3`,
      `${APP}/Download?ExchangeRateListID=${GUID}&ExchangeRateListTypeName=srednjiKurs&Format=xml`,
      `${APP}/IndexByDate?isSearchExecuted=true&Date=05.01.2026&ExchangeRateListTypeID=3`,
    ]);
    const waf = fakeHttp(() => ({ body: "<html><body>Request Rejected</body></html>" }));
    await expect(nbs.fetch({ kind: "latest" }, { http: waf, env: {} })).rejects.toThrow(
      /^NBS: not the exchange rate application's page/,
    );
  });
});
