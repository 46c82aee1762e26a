import { describe, expect, it } from "vitest";

import cbr from "../../adapters/CBR.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const parse = async (body: Buffer | string, url = "https://www.cbr.ru/scripts/XML_daily.asp") =>
  cbr.parse(Buffer.from(body), { url });

describe("CBR adapter", () => {
  it("decodes windows-1251, reads decimal commas and keeps Nominal as unitMultiplier", async () => {
    expect(await recordsOf(parse(fixture("CBR/XML_daily.xml")))).toEqual([
      { effectiveDate: "2026-03-03", currency: "USD", rate: "78.2010" },
      { effectiveDate: "2026-03-03", currency: "JPY", rate: "52.0480", unitMultiplier: 2 },
      { effectiveDate: "2026-03-03", currency: "IRR", rate: "1.8600", unitMultiplier: 6 },
    ]);
  });

  it("maps the bank's currency id of XML_dynamic to its code", async () => {
    expect(
      await recordsOf(
        parse(fixture("CBR/XML_dynamic.xml"), "https://www.cbr.ru/scripts/XML_dynamic.asp?VAL_NM_RQ=R01239"),
      ),
    ).toEqual([
      { effectiveDate: "2026-03-03", currency: "EUR", rate: "90.7307" },
      { effectiveDate: "2026-03-04", currency: "EUR", rate: "90.3100" },
    ]);
  });

  it("converts metal prices per gram to the troy ounce exactly (31.1034768 g)", async () => {
    expect(await recordsOf(parse(fixture("CBR/xml_metall.xml")))).toEqual([
      // 12957.47 x 31.1034768 and 223.24 x 31.1034768, done by hand
      { effectiveDate: "2026-03-03", currency: "XAU", rate: "403022.367531696", derivation: "per-troy-ounce" },
      { effectiveDate: "2026-03-03", currency: "XAG", rate: "6943.540160832", derivation: "per-troy-ounce" },
    ]);
  });

  itRefusesWhole("CBR", parse, [
    [
      "truncated XML",
      '<?xml version="1.0" encoding="windows-1251"?><ValCurs Date="03.03.2026"><Valute ID="R01235"><CharCode>USD</CharCode><Nominal>1</Nominal><Value>78,2',
    ],
    [
      "another bank's XML",
      '<?xml version="1.0"?><gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01"><Cube/></gesmes:Envelope>',
    ],
    ["a ValCurs root of another layout", "<ValCurs><Valute><CharCode>USD</CharCode></Valute></ValCurs>"],
  ]);

  const valute = (id: string, code: string, nominal: string, value: string) =>
    `<Valute ID="${id}"><CharCode>${code}</CharCode><Nominal>${nominal}</Nominal><Value>${value}</Value></Valute>`;
  const daily = (...valutes: string[]) =>
    `<?xml version="1.0" encoding="windows-1251"?><ValCurs Date="03.03.2026" name="Foreign Currency Market">${valutes.join("")}</ValCurs>`;
  const usd = valute("R01235", "USD", "1", "78,2010");
  const jpy = valute("R01820", "JPY", "100", "52,0480");
  it.each([
    ["a Value that is no number", valute("R01239", "EUR", "1", "n/a"), { kind: "bad-rate", rate: "n/a" }],
    ["a Nominal that is no whole number", valute("R01239", "EUR", "1,5", "90,7307"), { kind: "unknown-unit" }],
  ] as const)("holds a Valute with %s and takes the others", async (_what, bad, held) => {
    await expectOneHeld(parse(daily(usd, bad, jpy)), {
      records: [
        { effectiveDate: "2026-03-03", currency: "USD", rate: "78.2010" },
        { effectiveDate: "2026-03-03", currency: "JPY", rate: "52.0480", unitMultiplier: 2 },
      ],
      held: { ...held, currency: "EUR", source: '<Valute ID="R01239">' },
    });
  });

  it("holds every Valute of a list dated on a day that does not exist", async () => {
    const answer = await answerOf(parse(daily(usd, jpy).replace("03.03.2026", "31.04.2026")));
    expect(answer.records).toEqual([]);
    expect(answer.held.map((h) => [h.kind, h.source, h.effectiveDate])).toEqual([
      ["bad-date", '<Valute ID="R01235">', "31.04.2026"],
      ["bad-date", '<Valute ID="R01820">', "31.04.2026"],
    ]);
  });

  it("holds an XML_dynamic record of an unknown currency id and one dated 30 February, taking the rest", async () => {
    const record = (date: string, id: string, value: string) =>
      `<Record Date="${date}" Id="${id}"><Nominal>1</Nominal><Value>${value}</Value></Record>`;
    const body = `<ValCurs ID="R01239" DateRange1="01.03.2026" DateRange2="05.03.2026">${record("03.03.2026", "R01239", "90,7307")}${record("04.03.2026", "R09999", "1,0")}${record("05.03.2026", "R01239", "90,3100")}</ValCurs>`;
    await expectOneHeld(parse(body), {
      records: [
        { effectiveDate: "2026-03-03", currency: "EUR", rate: "90.7307" },
        { effectiveDate: "2026-03-05", currency: "EUR", rate: "90.3100" },
      ],
      held: { kind: "unknown-currency", currency: "R09999", source: '<Record Date="04.03.2026" Id="R09999">' },
    });
    await expectOneHeld(parse(body.replace("R09999", "R01239").replace("04.03.2026", "30.02.2026")), {
      records: [
        { effectiveDate: "2026-03-03", currency: "EUR", rate: "90.7307" },
        { effectiveDate: "2026-03-05", currency: "EUR", rate: "90.3100" },
      ],
      held: { kind: "bad-date", effectiveDate: "30.02.2026" },
    });
  });

  it("holds a metal record of an unknown code and takes the others", async () => {
    const body =
      '<Metall FromDate="20260303" ToDate="20260303"><Record Date="03.03.2026" Code="1"><Buy>12957,47</Buy><Sell>12957,47</Sell></Record>' +
      '<Record Date="03.03.2026" Code="9"><Buy>1,5</Buy><Sell>1,5</Sell></Record></Metall>';
    await expectOneHeld(parse(body), {
      records: [
        { effectiveDate: "2026-03-03", currency: "XAU", rate: "403022.367531696", derivation: "per-troy-ounce" },
      ],
      held: { kind: "unknown-currency", currency: "9", source: '<Record Date="03.03.2026" Code="9">' },
    });
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
    const d = await recordsOf(cbr.parse(daily.body, { url: daily.url }));
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
    expect(await recordsOf(cbr.parse(aud.body, { url: aud.url }))).toEqual([
      { effectiveDate: "2026-03-03", currency: "AUD", rate: "54.7468" },
      { effectiveDate: "2026-03-04", currency: "AUD", rate: "55.1336" },
      { effectiveDate: "2026-03-05", currency: "AUD", rate: "54.4295" },
    ]);
    const metals = recording("CBR/056.xml");
    const m = await recordsOf(cbr.parse(metals.body, { url: metals.url }));
    expect(m.find((x) => x.currency === "XAG" && x.effectiveDate === "2026-03-04")).toEqual({
      effectiveDate: "2026-03-04",
      currency: "XAG",
      rate: "7343.53087248",
      derivation: "per-troy-ounce", // 236.1 x 31.1034768
    });
  });
});
