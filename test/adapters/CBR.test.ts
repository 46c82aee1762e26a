import { describe, expect, it } from "vitest";

import cbr from "../../adapters/CBR.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const parse = async (body: Buffer | string, url = "https://www.cbr.ru/scripts/XML_daily.asp") =>
  cbr.parse(Buffer.from(body), { url });

describe("CBR adapter", () => {
  it("decodes windows-1251, reads decimal commas and keeps Nominal as unitMultiplier", async () => {
    expect(await parse(fixture("CBR/XML_daily.xml"))).toEqual([
      { effectiveDate: "2026-03-03", currency: "USD", rate: "78.2010" },
      { effectiveDate: "2026-03-03", currency: "JPY", rate: "52.0480", unitMultiplier: 2 },
      { effectiveDate: "2026-03-03", currency: "IRR", rate: "1.8600", unitMultiplier: 6 },
    ]);
  });

  it("maps the bank's currency id of XML_dynamic to its code", async () => {
    expect(
      await parse(fixture("CBR/XML_dynamic.xml"), "https://www.cbr.ru/scripts/XML_dynamic.asp?VAL_NM_RQ=R01239"),
    ).toEqual([
      { effectiveDate: "2026-03-03", currency: "EUR", rate: "90.7307" },
      { effectiveDate: "2026-03-04", currency: "EUR", rate: "90.3100" },
    ]);
  });

  it("converts metal prices per gram to the troy ounce exactly (31.1034768 g)", async () => {
    expect(await parse(fixture("CBR/xml_metall.xml"))).toEqual([
      // 12957.47 x 31.1034768 and 223.24 x 31.1034768, done by hand
      { effectiveDate: "2026-03-03", currency: "XAU", rate: "403022.367531696", derivation: "per-troy-ounce" },
      { effectiveDate: "2026-03-03", currency: "XAG", rate: "6943.540160832", derivation: "per-troy-ounce" },
    ]);
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<!DOCTYPE html><html><body>403 Forbidden</body></html>"],
    [
      "truncated XML",
      '<?xml version="1.0" encoding="windows-1251"?><ValCurs Date="03.03.2026"><Valute ID="R01235"><CharCode>USD</CharCode><Nominal>1</Nominal><Value>78,2',
    ],
    [
      "an unknown currency id",
      '<ValCurs ID="R09999" DateRange1="01.03.2026" DateRange2="02.03.2026"><Record Date="02.03.2026" Id="R09999"><Nominal>1</Nominal><Value>1,0</Value></Record></ValCurs>',
    ],
    [
      "a bad date",
      '<ValCurs Date="32.03.2026"><Valute ID="R01235"><CharCode>USD</CharCode><Nominal>1</Nominal><Value>78,2</Value></Valute></ValCurs>',
    ],
    [
      "a value that is no number",
      '<ValCurs Date="03.03.2026"><Valute ID="R01235"><CharCode>USD</CharCode><Nominal>1</Nominal><Value>n/a</Value></Valute></ValCurs>',
    ],
    [
      "another bank's XML",
      '<?xml version="1.0"?><gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01"><Cube/></gesmes:Envelope>',
    ],
  ])("rejects %s naming the bank", async (_what, body) => {
    await expect(parse(body)).rejects.toThrow(FeedError);
    await expect(parse(body)).rejects.toThrow(/^CBR: /);
  });

  it("fetches the daily list for the latest, and every listed currency's history plus metals for a range", async () => {
    const http = fakeHttp((req) =>
      req.url.endsWith("XML_daily.asp") ? { body: fixture("CBR/XML_daily.xml") } : { body: "<ValCurs/>" },
    );
    await cbr.fetch({ kind: "latest" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual(["https://www.cbr.ru/scripts/XML_daily.asp"]);
    await cbr.fetch({ kind: "range", from: "2026-03-01", to: "2026-03-05" }, { http, env: {} });
    expect(http.seen.slice(1).map((r) => r.url)).toEqual([
      "https://www.cbr.ru/scripts/XML_daily.asp",
      "https://www.cbr.ru/scripts/XML_dynamic.asp?VAL_NM_RQ=R01235&date_req1=01/03/2026&date_req2=05/03/2026",
      "https://www.cbr.ru/scripts/XML_dynamic.asp?VAL_NM_RQ=R01820&date_req1=01/03/2026&date_req2=05/03/2026",
      "https://www.cbr.ru/scripts/XML_dynamic.asp?VAL_NM_RQ=R01300&date_req1=01/03/2026&date_req2=05/03/2026",
      "https://www.cbr.ru/scripts/xml_metall.asp?date_req1=01/03/2026&date_req2=05/03/2026",
    ]);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recordings exactly (values read off the files by hand)", async () => {
    const daily = recording("CBR/001.xml");
    const d = await cbr.parse(daily.body, { url: daily.url });
    expect(d).toHaveLength(54);
    expect(d.find((x) => x.currency === "DZD")).toEqual({
      effectiveDate: "2026-04-25",
      currency: "DZD",
      rate: "57.0006",
      unitMultiplier: 2,
    });
    expect(d.find((x) => x.currency === "BYN")).toEqual({
      effectiveDate: "2026-04-25",
      currency: "BYN",
      rate: "26.7960",
    });
    expect(d.find((x) => x.currency === "VND")).toMatchObject({ unitMultiplier: 4 });
    const aud = recording("CBR/002.xml");
    expect(await cbr.parse(aud.body, { url: aud.url })).toEqual([
      { effectiveDate: "2026-03-03", currency: "AUD", rate: "54.7468" },
      { effectiveDate: "2026-03-04", currency: "AUD", rate: "55.1336" },
      { effectiveDate: "2026-03-05", currency: "AUD", rate: "54.4295" },
    ]);
    const metals = recording("CBR/056.xml");
    const m = await cbr.parse(metals.body, { url: metals.url });
    expect(m.find((x) => x.currency === "XAG" && x.effectiveDate === "2026-03-04")).toEqual({
      effectiveDate: "2026-03-04",
      currency: "XAG",
      rate: "7343.53087248",
      derivation: "per-troy-ounce", // 236.1 x 31.1034768
    });
  });
});
