import { describe, expect, it } from "vitest";

import nbm from "../../adapters/NBM.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const SITE = "https://www.bnm.md/en";
const parse = (body: Buffer | string, url = `${SITE}/official_exchange_rates?get_xml=1&date=06.04.2026`) =>
  nbm.parse(Buffer.from(body), { url });

describe("NBM adapter", () => {
  it("reads the currency list with its nominals as unitMultiplier, trailing zeros kept", async () => {
    expect(await parse(fixture("NBM/rates.xml"))).toEqual([
      { effectiveDate: "2026-04-06", currency: "EUR", rate: "20.2754" },
      { effectiveDate: "2026-04-06", currency: "HUF", rate: "5.2807", unitMultiplier: 2 },
      { effectiveDate: "2026-04-06", currency: "ALL", rate: "2.1030", unitMultiplier: 1 },
    ]);
  });

  it("converts metal prices per gram to the troy ounce exactly (products computed by hand)", async () => {
    expect(await parse(fixture("NBM/metals.xml"), `${SITE}/official_metal_rates?get_xml=1&date=06.04.2026`)).toEqual([
      { effectiveDate: "2026-04-06", currency: "XAG", rate: "1250.24468449584", derivation: "per-troy-ounce" },
      { effectiveDate: "2026-04-06", currency: "XAU", rate: "80884.5914184", derivation: "per-troy-ounce" },
    ]);
  });

  it("drops weekend-dated metal prices", async () => {
    const saturday = fixture("NBM/metals.xml").toString("utf8").replace('Date="06.04.2026"', 'Date="04.04.2026"');
    expect(await parse(saturday)).toEqual([]);
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<!DOCTYPE html><html><body>Maintenance</body></html>"],
    [
      "truncated XML",
      '<?xml version="1.0" encoding="UTF-8"?><ValCurs Date="06.04.2026"><Valute ID="47"><CharCode>EUR</CharCode><Nominal>1</Nominal><Value>20.27',
    ],
    [
      "another bank's body (CBR, decimal commas)",
      '<?xml version="1.0"?><ValCurs Date="02.03.2026" name="Foreign Currency Market"><Valute ID="R01235"><CharCode>USD</CharCode><Nominal>1</Nominal><Value>76,5</Value></Valute></ValCurs>',
    ],
    [
      "a metal in the currency list",
      '<ValCurs Date="06.04.2026"><Valute><CharCode>XAU</CharCode><Nominal>1</Nominal><Value>2617.7179</Value></Valute></ValCurs>',
    ],
    [
      "a bad date",
      '<ValCurs Date="2026-04-06"><Valute><CharCode>EUR</CharCode><Nominal>1</Nominal><Value>20.2754</Value></Valute></ValCurs>',
    ],
  ])("rejects %s with an error naming the bank", async (_what, body) => {
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^NBM: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recordings exactly (values read off the files by hand)", async () => {
    const rates = recording("NBM/001.xml");
    const records = await nbm.parse(rates.body, { url: rates.url });
    expect(records).toHaveLength(40);
    expect(records[0]).toEqual({ effectiveDate: "2026-04-06", currency: "EUR", rate: "20.2754" });
    expect(records.find((x) => x.currency === "USD")).toEqual({
      effectiveDate: "2026-04-06",
      currency: "USD",
      rate: "17.6124",
    });
    expect(records.find((x) => x.currency === "HUF")).toEqual({
      effectiveDate: "2026-04-06",
      currency: "HUF",
      rate: "5.2807",
      unitMultiplier: 2,
    });
    const metals = recording("NBM/004.xml");
    // 2643.8254 and 41.2972 MDL per gram times 31.1034768, by hand (Python decimal).
    expect(await nbm.parse(metals.body, { url: metals.url })).toEqual([
      { effectiveDate: "2026-04-07", currency: "XAG", rate: "1284.48650210496", derivation: "per-troy-ounce" },
      { effectiveDate: "2026-04-07", currency: "XAU", rate: "82232.16199215072", derivation: "per-troy-ounce" },
    ]);
  });

  it("asks the currency and the metal list for each weekday", async () => {
    const http = fakeHttp(() => ({ body: '<ValCurs Date="06.04.2026"></ValCurs>' }));
    await nbm.fetch({ kind: "range", from: "2026-04-03", to: "2026-04-06" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([
      `${SITE}/official_exchange_rates?get_xml=1&date=03.04.2026`,
      `${SITE}/official_metal_rates?get_xml=1&date=03.04.2026`,
      `${SITE}/official_exchange_rates?get_xml=1&date=06.04.2026`,
      `${SITE}/official_metal_rates?get_xml=1&date=06.04.2026`,
    ]);
  });
});
