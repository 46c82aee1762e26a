import { readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import bnb from "../../adapters/BNB.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const PAGE = "https://www.bnb.bg/Statistics/StExternalSector/StExchangeRates/StERForeignCurrencies/index.htm";
const parse = (body: Buffer | string) => bnb.parse(Buffer.from(body), { url: `${PAGE}?download=xml&search=&lang=BG` });
const xml = readFileSync(new URL("../fixtures/BNB/rates.xml", import.meta.url), "utf8");

describe("BNB adapter", () => {
  it("skips the title row, takes RATE per RATIO (BOM and trailing zeros kept) and gold per troy ounce", async () => {
    expect(await recordsOf(parse(fixture("BNB/rates.xml")))).toEqual([
      { effectiveDate: "2025-12-30", currency: "AUD", rate: "1.10364" },
      { effectiveDate: "2025-12-30", currency: "IDR", rate: "1.00185", unitMultiplier: 4 },
      { effectiveDate: "2025-12-30", currency: "JPY", rate: "1.06360", unitMultiplier: 2 },
      { effectiveDate: "2025-12-30", currency: "XAU", rate: "7220.50" },
    ]);
  });

  itRefusesWhole("BNB", parse, [
    ["a truncated document", xml.slice(0, 1500)],
    [
      "another bank's body",
      '<?xml version="1.0"?><ValCurs Date="02.03.2026" name="Foreign Currency Market"><Valute ID="R01235"><CharCode>USD</CharCode></Valute></ValCurs>',
    ],
    ["a RATE column that is not in levs", xml.replace("<RATE>Лева (BGN)</RATE>", "<RATE>Евро (EUR)</RATE>")],
    ["a document without its title row", xml.replace(/<ROW>\s*<GOLD>0<\/GOLD>[\s\S]*?<\/ROW>/, "")],
  ]);

  const others = [
    { effectiveDate: "2025-12-30", currency: "IDR", rate: "1.00185", unitMultiplier: 4 },
    { effectiveDate: "2025-12-30", currency: "JPY", rate: "1.06360", unitMultiplier: 2 },
    { effectiveDate: "2025-12-30", currency: "XAU", rate: "7220.50" },
  ];
  it.each([
    ["a figure that is not a number", "<RATE>1.10364</RATE>", "<RATE>n/a</RATE>", { kind: "bad-rate", rate: "n/a" }],
    [
      "a date that does not exist",
      "<CURR_DATE>30.12.2025</CURR_DATE>",
      "<CURR_DATE>31.11.2025</CURR_DATE>",
      { kind: "bad-date", effectiveDate: "31.11.2025" },
    ],
    ["a ratio that is not a whole number", "<RATIO>1</RATIO>", "<RATIO>1.5</RATIO>", { kind: "unknown-unit" }],
    ["a code that is not ISO 4217", "<CODE>AUD</CODE>", "<CODE>AUS</CODE>", { kind: "unknown-currency" }],
  ] as const)("holds a row with %s and takes the others", async (_what, from, to, held) => {
    await expectOneHeld(parse(xml.replace(from, to)), { records: others, held: { ...held, source: "ROW 2" } });
  });

  it("holds gold that is not priced per troy ounce (its unit cannot be established)", async () => {
    await expectOneHeld(parse(xml.replace("Злато (в трой унции)", "Злато (за грам)")), {
      records: (records) => expect(records.map((r) => r.currency)).toEqual(["AUD", "IDR", "JPY"]),
      held: { kind: "unknown-unit", currency: "XAU", source: "ROW 5" },
    });
  });

  it("reads the rows under every title row of the answer", async () => {
    const block = /<ROW>\s*<GOLD>0<\/GOLD>[\s\S]*?<ROW>\s*<GOLD>1<\/GOLD>[\s\S]*?<\/ROW>/.exec(xml)![0];
    const twice = xml.replace(
      "</ROWSET>",
      `${block.replaceAll("30.12.2025", "29.12.2025").replace("1.10364", "1.10001")}\n</ROWSET>`,
    );
    const records = await recordsOf(parse(twice));
    expect(records.at(-1)).toEqual({ effectiveDate: "2025-12-29", currency: "AUD", rate: "1.10001" });
    expect(records).toHaveLength(5);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded download exactly (values read off the file by hand)", async () => {
    const r = recording("BNB/001.xml");
    const records = await recordsOf(bnb.parse(r.body, { url: r.url }));
    expect(records).toHaveLength(32);
    const find = (currency: string) => records.find((x) => x.currency === currency);
    expect(find("AUD")).toEqual({ effectiveDate: "2019-02-01", currency: "AUD", rate: "1.23873" });
    expect(find("HUF")).toEqual({ effectiveDate: "2019-02-01", currency: "HUF", rate: "6.15757", unitMultiplier: 3 });
    expect(find("IDR")).toEqual({ effectiveDate: "2019-02-01", currency: "IDR", rate: "1.22167", unitMultiplier: 4 });
    expect(find("USD")).toEqual({ effectiveDate: "2019-02-01", currency: "USD", rate: "1.70502" });
    expect(find("XAU")).toEqual({ effectiveDate: "2019-02-01", currency: "XAU", rate: "2250.83" });
  });

  it("asks the XML download for the latest and one dated search per weekday of a range", async () => {
    const http = fakeHttp(() => ({ body: "" }));
    await bnb.fetch({ kind: "latest" }, { http, env: {} });
    await bnb.fetch({ kind: "range", from: "2025-12-05", to: "2025-12-08" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([
      `${PAGE}?download=xml&search=&lang=BG`,
      `${PAGE}?downloadOper=true&group1=first&firstDays=05&firstMonths=12&firstYear=2025&search=true&type=XML`,
      `${PAGE}?downloadOper=true&group1=first&firstDays=08&firstMonths=12&firstYear=2025&search=true&type=XML`,
    ]);
  });
});
