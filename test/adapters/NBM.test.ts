import { describe, expect, it } from "vitest";

import nbm from "../../adapters/NBM.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const SITE = "https://www.bnm.md/en";
const parse = (body: Buffer | string, url = `${SITE}/official_exchange_rates?get_xml=1&date=06.04.2026`) =>
  nbm.parse(Buffer.from(body), { url });

describe("NBM adapter", () => {
  it("reads the currency list with its nominals as unitMultiplier, trailing zeros kept", async () => {
    expect(await recordsOf(parse(fixture("NBM/rates.xml")))).toEqual([
      { effectiveDate: "2026-04-06", currency: "EUR", rate: "20.2754" },
      { effectiveDate: "2026-04-06", currency: "HUF", rate: "5.2807", unitMultiplier: 2 },
      { effectiveDate: "2026-04-06", currency: "ALL", rate: "2.1030", unitMultiplier: 1 },
    ]);
  });

  it("converts metal prices per gram to the troy ounce exactly (products computed by hand)", async () => {
    expect(
      await recordsOf(parse(fixture("NBM/metals.xml"), `${SITE}/official_metal_rates?get_xml=1&date=06.04.2026`)),
    ).toEqual([
      { effectiveDate: "2026-04-06", currency: "XAG", rate: "1250.24468449584", derivation: "per-troy-ounce" },
      { effectiveDate: "2026-04-06", currency: "XAU", rate: "80884.5914184", derivation: "per-troy-ounce" },
    ]);
  });

  it("drops weekend-dated metal prices", async () => {
    const saturday = fixture("NBM/metals.xml").toString("utf8").replace('Date="06.04.2026"', 'Date="04.04.2026"');
    expect(await answerOf(parse(saturday))).toEqual({
      records: [],
      held: [],
      noPublication: "prices dated 2026-04-04, a weekend: no publication that day",
    });
  });

  itRefusesWhole("NBM", parse, [
    [
      "truncated XML",
      '<?xml version="1.0" encoding="UTF-8"?><ValCurs Date="06.04.2026"><Valute ID="47"><CharCode>EUR</CharCode><Nominal>1</Nominal><Value>20.27',
    ],
    [
      "another bank's body (CBR, decimal commas)",
      '<?xml version="1.0"?><ValCurs Date="02.03.2026" name="Foreign Currency Market"><Valute ID="R01235"><CharCode>USD</CharCode><Nominal>1</Nominal><Value>76,5</Value></Valute></ValCurs>',
    ],
    ["a document of another kind", '<?xml version="1.0"?><Rates><Rate code="EUR">20.2754</Rate></Rates>'],
  ]);

  const valute = (code: string, nominal: string, value: string) =>
    `<Valute><CharCode>${code}</CharCode><Nominal>${nominal}</Nominal><Value>${value}</Value></Valute>`;
  const list = (date: string, ...valutes: string[]) => `<ValCurs Date="${date}">${valutes.join("")}</ValCurs>`;
  const good = [valute("EUR", "1", "20.2754"), valute("HUF", "100", "5.2807")];
  it.each([
    ["a metal in the currency list", valute("XAU", "1", "2617.7179"), { kind: "unknown-unit", currency: "XAU" }],
    ["a figure that is not a number", valute("USD", "1", "17,6124"), { kind: "bad-rate", rate: "17,6124" }],
    ["a nominal that is no whole number", valute("USD", "", "17.6124"), { kind: "unknown-unit" }],
    ["a code that is not ISO 4217", valute("LEU", "1", "1.0000"), { kind: "unknown-currency" }],
  ] as const)("holds %s and takes the other currencies", async (_what, bad, held) => {
    await expectOneHeld(parse(list("06.04.2026", good[0]!, bad, good[1]!)), {
      records: [
        { effectiveDate: "2026-04-06", currency: "EUR", rate: "20.2754" },
        { effectiveDate: "2026-04-06", currency: "HUF", rate: "5.2807", unitMultiplier: 2 },
      ],
      held: { ...held, source: "<Valute> 2" },
    });
  });

  it("holds every currency of a list whose date is not DD.MM.YYYY", async () => {
    const answer = await answerOf(parse(list("2026-04-06", ...good)));
    expect(answer.records).toEqual([]);
    expect(answer.held.map((h) => [h.kind, h.effectiveDate, h.currency])).toEqual([
      ["bad-date", "2026-04-06", "EUR"],
      ["bad-date", "2026-04-06", "HUF"],
    ]);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recordings exactly (values read off the files by hand)", async () => {
    const rates = recording("NBM/001.xml");
    const records = await recordsOf(nbm.parse(rates.body, { url: rates.url }));
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
    expect(await recordsOf(nbm.parse(metals.body, { url: metals.url }))).toEqual([
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
