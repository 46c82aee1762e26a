import { describe, expect, it } from "vitest";

import lb from "../../adapters/LB.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const urlFor = (date: string) => `https://www.lb.lt/webservices/FxRates/FxRates.asmx/getFxRates?dt=${date}&tp=LT`;
const parse = (body: Buffer | string) => lb.parse(Buffer.from(body), { url: urlFor("2014-12-29") });

describe("LB adapter", () => {
  it("reads LTL per N foreign units from the two CcyAmt blocks", async () => {
    expect(await recordsOf(parse(fixture("LB/getFxRates.xml")))).toEqual([
      { effectiveDate: "2014-12-29", currency: "EUR", rate: "3.4528" },
      { effectiveDate: "2014-12-29", currency: "JPY", rate: "2.3499", unitMultiplier: 2 },
      { effectiveDate: "2014-12-29", currency: "BYR", rate: "2.5835", unitMultiplier: 4 },
      { effectiveDate: "2014-12-29", currency: "XDR", rate: "4.1000" },
    ]);
  });

  it("reads an empty FxRates as no rates", async () => {
    expect(
      await recordsOf(
        parse('<?xml version="1.0" encoding="utf-8"?><FxRates xmlns="http://www.lb.lt/WebServices/FxRates" />'),
      ),
    ).toEqual([]);
  });

  itRefusesWhole("LB", parse, [
    ["truncated XML", '<?xml version="1.0"?><FxRates><FxRate><Tp>LT</Tp><Dt>2014-12-29</Dt><CcyAmt><Ccy>LTL</Ccy>'],
    [
      "another bank's body",
      '<?xml version="1.0"?><ValCurs Date="2026-05-18"><Valute ID="840"><CharCode>USD</CharCode></Valute></ValCurs>',
    ],
    [
      "a euro-based (tp=EU) table",
      "<FxRates><FxRate><Tp>EU</Tp><Dt>2015-01-02</Dt><CcyAmt><Ccy>EUR</Ccy><Amt>1</Amt></CcyAmt><CcyAmt><Ccy>USD</Ccy><Amt>1.2043</Amt></CcyAmt></FxRate></FxRates>",
    ],
    ["a service error", "<FxRates><OprlErr><Err><Desc>Wrong date</Desc></Err></OprlErr></FxRates>"],
  ]);

  const fx = (date: string, litas: string, currency: string, amount: string) =>
    `<FxRate><Tp>LT</Tp><Dt>${date}</Dt><CcyAmt><Ccy>LTL</Ccy><Amt>${litas}</Amt></CcyAmt><CcyAmt><Ccy>${currency}</Ccy><Amt>${amount}</Amt></CcyAmt></FxRate>`;
  const good = [fx("2014-12-29", "3.4528", "EUR", "1"), fx("2014-12-29", "2.3499", "JPY", "100")];
  it.each([
    [
      "a one-block rate",
      "<FxRate><Tp>LT</Tp><Dt>2014-12-29</Dt><CcyAmt><Ccy>LTL</Ccy><Amt>3.4528</Amt></CcyAmt></FxRate>",
      { kind: "bad-row" },
    ],
    ["a figure that is not a number", fx("2014-12-29", "2,8238", "USD", "1"), { kind: "bad-rate", rate: "2,8238" }],
    [
      "a date that does not exist",
      fx("2014-11-31", "2.8238", "USD", "1"),
      { kind: "bad-date", effectiveDate: "2014-11-31" },
    ],
    ["an amount that is no whole number", fx("2014-12-29", "2.8238", "USD", "0.5"), { kind: "unknown-unit" }],
    [
      "a code that is not ISO 4217",
      fx("2014-12-29", "2.8238", "US$", "1"),
      { kind: "unknown-currency", currency: "US$" },
    ],
  ] as const)("holds %s and takes the other rates", async (_what, bad, held) => {
    await expectOneHeld(parse(`<FxRates>${good[0]}${bad}${good[1]}</FxRates>`), {
      records: [
        { effectiveDate: "2014-12-29", currency: "EUR", rate: "3.4528" },
        { effectiveDate: "2014-12-29", currency: "JPY", rate: "2.3499", unitMultiplier: 2 },
      ],
      held: { ...held, source: "FxRate 2" },
    });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded days exactly (values read off the files by hand)", async () => {
    const first = recording("LB/001.xml");
    const records = await recordsOf(lb.parse(first.body, { url: first.url }));
    expect(records).toHaveLength(88);
    const find = (currency: string) => records.find((x) => x.currency === currency);
    expect(find("AED")).toEqual({ effectiveDate: "2014-12-29", currency: "AED", rate: "7.6881", unitMultiplier: 1 });
    expect(find("USD")).toEqual({ effectiveDate: "2014-12-29", currency: "USD", rate: "2.8238" });
    expect(find("JPY")).toEqual({ effectiveDate: "2014-12-29", currency: "JPY", rate: "2.3499", unitMultiplier: 2 });
    const second = recording("LB/002.xml");
    const next = await recordsOf(lb.parse(second.body, { url: second.url }));
    expect(next.find((x) => x.currency === "XDR")).toEqual({
      effectiveDate: "2014-12-30",
      currency: "XDR",
      rate: "4.0919",
    });
    expect(next.at(-1)).toEqual({ effectiveDate: "2014-12-30", currency: "ZAR", rate: "2.4419", unitMultiplier: 1 });
  });

  it("asks one weekday at a time and nothing after the litas' last day", async () => {
    const http = fakeHttp(() => ({ body: "<FxRates/>" }));
    await lb.fetch({ kind: "range", from: "2014-12-26", to: "2015-01-05" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual(["2014-12-26", "2014-12-29", "2014-12-30", "2014-12-31"].map(urlFor));
  });
});
