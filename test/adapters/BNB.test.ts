import { readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import bnb from "../../adapters/BNB.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const PAGE = "https://www.bnb.bg/Statistics/StExternalSector/StExchangeRates/StERForeignCurrencies/index.htm";
const parse = (body: Buffer | string) => bnb.parse(Buffer.from(body), { url: `${PAGE}?download=xml&search=&lang=BG` });
const xml = readFileSync(new URL("../fixtures/BNB/rates.xml", import.meta.url), "utf8");

describe("BNB adapter", () => {
  it("skips the title row, takes RATE per RATIO (BOM and trailing zeros kept) and gold per troy ounce", async () => {
    expect(await parse(fixture("BNB/rates.xml"))).toEqual([
      { effectiveDate: "2025-12-30", currency: "AUD", rate: "1.10364" },
      { effectiveDate: "2025-12-30", currency: "IDR", rate: "1.00185", unitMultiplier: 4 },
      { effectiveDate: "2025-12-30", currency: "JPY", rate: "1.06360", unitMultiplier: 2 },
      { effectiveDate: "2025-12-30", currency: "XAU", rate: "7220.50" },
    ]);
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<!DOCTYPE html><html><body>Грешка</body></html>"],
    ["a truncated document", xml.slice(0, 1500)],
    [
      "another bank's body",
      '<?xml version="1.0"?><ValCurs Date="02.03.2026" name="Foreign Currency Market"><Valute ID="R01235"><CharCode>USD</CharCode></Valute></ValCurs>',
    ],
    ["a RATE column that is not in levs", xml.replace("<RATE>Лева (BGN)</RATE>", "<RATE>Евро (EUR)</RATE>")],
    ["a document without its title row", xml.replace(/<ROW>\s*<GOLD>0<\/GOLD>[\s\S]*?<\/ROW>/, "")],
    ["gold not per troy ounce", xml.replace("Злато (в трой унции)", "Злато (за грам)")],
    ["a bad rate", xml.replace("<RATE>1.10364</RATE>", "<RATE>n/a</RATE>")],
  ])("rejects %s with an error naming the bank", async (_what, body) => {
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^BNB: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded download exactly (values read off the file by hand)", async () => {
    const r = recording("BNB/001.xml");
    const records = await bnb.parse(r.body, { url: r.url });
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
