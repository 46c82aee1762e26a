import { readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import nbs, { listIdOf } from "../../adapters/NBS.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
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
    expect(await recordsOf(parse(fixture("NBS/middle.xml")))).toEqual([
      { effectiveDate: "2025-12-30", currency: "EUR", rate: "117.1400" },
      { effectiveDate: "2025-12-30", currency: "HUF", rate: "30.5210", unitMultiplier: 2 },
      { effectiveDate: "2025-12-30", currency: "JPY", rate: "63.9870", unitMultiplier: 2 },
    ]);
  });

  it("reads a buying/selling list (not the official middle rate) as no records", async () => {
    expect(await answerOf(parse(fixture("NBS/cash.xml")))).toEqual({ records: [], held: [] });
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

  itRefusesWhole("NBS", parse, [
    ["the application's HTML page", html],
    ["a truncated list", middle.slice(0, 500)],
    [
      "another bank's body",
      '<?xml version="1.0"?><ValCurs Date="02.03.2026" name="Foreign Currency Market"><Valute ID="R01235"><CharCode>USD</CharCode></Valute></ValCurs>',
    ],
    ["an unknown list type", middle.replace("OFFICIAL MIDDLE EXCHANGE RATE OF THE DINAR", "SOMETHING ELSE")],
  ]);

  const taken = [
    { effectiveDate: "2025-12-30", currency: "EUR", rate: "117.1400" },
    { effectiveDate: "2025-12-30", currency: "HUF", rate: "30.5210", unitMultiplier: 2 },
    { effectiveDate: "2025-12-30", currency: "JPY", rate: "63.9870", unitMultiplier: 2 },
  ];
  const usd = (inner: string) =>
    middle.replace(
      "</Exchange_Rates_List>",
      `<Item><Code>840</Code><Country>USA</Country>${inner}</Item></Exchange_Rates_List>`,
    );
  it.each([
    [
      "an item without Middle_Rate",
      usd("<Currency>USD</Currency><Unit>1</Unit>"),
      { kind: "bad-rate", source: "Item 4 (USD)", currency: "USD" },
    ],
    [
      "a Middle_Rate that is not a number",
      usd("<Currency>USD</Currency><Unit>1</Unit><Middle_Rate>99,8").replace(
        "<Middle_Rate>99,8</Item>",
        "<Middle_Rate>99,8</Middle_Rate></Item>",
      ),
      { kind: "bad-rate", source: "Item 4 (USD)", rate: "99,8" },
    ],
    [
      "a Unit that is not a whole number",
      usd("<Currency>USD</Currency><Unit>one</Unit><Middle_Rate>99.8341</Middle_Rate>"),
      { kind: "unknown-unit", source: "Item 4 (USD)", currency: "USD", rate: "99.8341" },
    ],
    [
      "a code that is not ISO 4217",
      usd("<Currency>US$</Currency><Unit>1</Unit><Middle_Rate>99.8341</Middle_Rate>"),
      { kind: "unknown-currency", source: "Item 4 (US$)", currency: "US$" },
    ],
  ] as const)("holds %s and takes the other items", async (_what, body, held) => {
    await expectOneHeld(parse(body), { records: taken, held });
  });

  it("holds every item of a list whose date does not exist", async () => {
    const answer = await answerOf(parse(middle.replace("30.12.2025", "31.02.2025")));
    expect(answer.records).toEqual([]);
    expect(answer.held.map((h) => [h.kind, h.currency, h.effectiveDate])).toEqual([
      ["bad-date", "EUR", "31.02.2025"],
      ["bad-date", "HUF", "31.02.2025"],
      ["bad-date", "JPY", "31.02.2025"],
    ]);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded lists exactly (values read off the files by hand)", async () => {
    const r = recording("NBS/001.xml");
    const records = await recordsOf(nbs.parse(r.body, { url: r.url }));
    expect(records).toHaveLength(30);
    const find = (currency: string) => records.find((x) => x.currency === currency);
    expect(find("EUR")).toEqual({ effectiveDate: "2015-12-31", currency: "EUR", rate: "121.6261" });
    expect(find("AUD")).toEqual({ effectiveDate: "2015-12-31", currency: "AUD", rate: "81.2900" });
    expect(find("HUF")).toEqual({ effectiveDate: "2015-12-31", currency: "HUF", rate: "38.7406", unitMultiplier: 2 });
    expect(find("JPY")).toEqual({ effectiveDate: "2015-12-31", currency: "JPY", rate: "92.4000", unitMultiplier: 2 });
    expect(find("KWD")).toEqual({ effectiveDate: "2015-12-31", currency: "KWD", rate: "366.4541" });
    for (const file of ["NBS/002.xml", "NBS/003.xml"]) {
      const b = recording(file);
      expect(await answerOf(nbs.parse(b.body, { url: b.url }))).toEqual({ records: [], held: [] });
    }
  });

  it("follows the page's list link in one session: current list for latest, the list of each weekday for a range", async () => {
    const http = fakeHttp((req) => ({
      body: req.url.includes("/Download?") ? middle : req.url.includes("Date=05.01.2026") ? noList : html,
    }));
    const latest = await nbs.fetch({ kind: "latest" }, { http, env: {} });
    const range = await nbs.fetch({ kind: "range", from: "2026-01-02", to: "2026-01-05" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([
      `${APP}/CurrentMiddleRate`,
      `${APP}/Download?ExchangeRateListID=${GUID}&ExchangeRateListTypeName=srednjiKurs&Format=xml`,
      `${APP}/IndexByDate?isSearchExecuted=true&Date=02.01.2026&ExchangeRateListTypeID=3`,
      `${APP}/Download?ExchangeRateListID=${GUID}&ExchangeRateListTypeName=srednjiKurs&Format=xml`,
      `${APP}/IndexByDate?isSearchExecuted=true&Date=05.01.2026&ExchangeRateListTypeID=3`,
    ]);
    // The pages that name the list are navigation: recorded, never parsed.
    expect(latest.map((d) => d.role)).toEqual(["navigation", undefined]);
    expect(range.map((d) => d.role)).toEqual(["navigation", undefined, "navigation"]);
    for (const d of [...latest, ...range]) expect(nbs.navigation!.test(d.url)).toBe(d.role === "navigation");
    const waf = fakeHttp(() => ({ body: "<html><body>Request Rejected</body></html>" }));
    await expect(nbs.fetch({ kind: "latest" }, { http: waf, env: {} })).rejects.toThrow(
      /^NBS: not the exchange rate application's page/,
    );
  });
});
