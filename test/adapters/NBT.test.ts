import { describe, expect, it } from "vitest";

import nbt from "../../adapters/NBT.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const urlFor = (date: string) => `https://www.nbt.tj/en/kurs/export_xml.php?date=${date}&export=xmlout`;
const parse = (body: Buffer | string, url = urlFor("2026-05-18")) => nbt.parse(Buffer.from(body), { url });

describe("NBT adapter", () => {
  it("reads TJS per Nominal, keeping powers of ten as unitMultiplier, and holds a code that is not ISO 4217", async () => {
    await expectOneHeld(parse(fixture("NBT/export_xml.xml")), {
      records: [
        { effectiveDate: "2026-05-18", currency: "USD", rate: "9.3450" },
        { effectiveDate: "2026-05-18", currency: "UZS", rate: "0.0780", unitMultiplier: 2 },
        { effectiveDate: "2026-05-18", currency: "RUB", rate: "0.1277" },
        { effectiveDate: "2026-05-18", currency: "IRR", rate: "0.0071", unitMultiplier: 3 },
      ],
      held: { kind: "unknown-currency", source: '<Valute ID="999"> (5)', currency: "XYZ", rate: "1.5000" },
    });
  });

  it("divides a Nominal that is not a power of ten out exactly", async () => {
    const body =
      '<ValCurs Date="2026-05-18"><Valute ID="934"><CharCode>TMT</CharCode><Nominal>3</Nominal><Value>8.0031</Value></Valute></ValCurs>';
    expect(await recordsOf(parse(body))).toEqual([
      { effectiveDate: "2026-05-18", currency: "TMT", rate: "2.6677", derivation: "unit-normalised" },
    ]);
  });

  const sheet = (date: string, bad: string) =>
    `<ValCurs Date="${date}"><Valute ID="840"><CharCode>USD</CharCode><Nominal>1</Nominal><Value>9.3450</Value></Valute>` +
    `<Valute ID="860"><CharCode>UZS</CharCode><Nominal>100</Nominal><Value>0.0780</Value></Valute>${bad}</ValCurs>`;
  const taken = [
    { effectiveDate: "2026-05-18", currency: "USD", rate: "9.3450" },
    { effectiveDate: "2026-05-18", currency: "UZS", rate: "0.0780", unitMultiplier: 2 },
  ];
  it.each([
    [
      "a decimal comma",
      '<Valute ID="978"><CharCode>EUR</CharCode><Nominal>1</Nominal><Value>10,8757</Value></Valute>',
      { kind: "bad-rate", source: '<Valute ID="978"> (3)', currency: "EUR", rate: "10,8757" },
    ],
    [
      "a fractional Nominal",
      '<Valute ID="978"><CharCode>EUR</CharCode><Nominal>1.5</Nominal><Value>10.8757</Value></Valute>',
      { kind: "unknown-unit", source: '<Valute ID="978"> (3)', currency: "EUR", rate: "10.8757" },
    ],
    [
      "a missing CharCode",
      '<Valute ID="978"><Nominal>1</Nominal><Value>10.8757</Value></Valute>',
      { kind: "unknown-currency", source: '<Valute ID="978"> (3)', rate: "10.8757" },
    ],
  ] as const)("holds %s and takes the other Valute", async (_what, bad, held) => {
    await expectOneHeld(parse(sheet("2026-05-18", bad)), { records: taken, held });
  });

  it("holds every Valute of a snapshot whose Date does not exist", async () => {
    const answer = await answerOf(parse(sheet("2026-05-32", "")));
    expect(answer.records).toEqual([]);
    expect(answer.held.map((h) => [h.kind, h.currency, h.effectiveDate])).toEqual([
      ["bad-date", "USD", "2026-05-32"],
      ["bad-date", "UZS", "2026-05-32"],
    ]);
  });

  it("yields nothing for a snapshot of another day than the one asked (an out-of-range date)", async () => {
    expect(await answerOf(parse(fixture("NBT/export_xml.xml"), urlFor("1999-01-04")))).toEqual({
      records: [],
      held: [],
      noPublication: "the sheet of 2026-05-18 given for 1999-01-04: no publication on the day asked",
    });
  });

  it("drops a weekend snapshot, which only carries Friday's rates forward", async () => {
    const saturday = fixture("NBT/export_xml.xml").toString().replace('Date="2026-05-18"', 'Date="2026-05-16"');
    expect(await answerOf(parse(saturday, urlFor("2026-05-16")))).toEqual({
      records: [],
      held: [],
      noPublication: "a sheet dated 2026-05-16, a weekend (Friday's rates carried forward)",
    });
  });

  itRefusesWhole("NBT", parse, [
    ["a not-found page", "<!DOCTYPE html><html><body>Not found</body></html>"],
    ["truncated XML", '<?xml version="1.0"?><ValCurs Date="2026-05-18"><Valute ID="840"><CharCode>USD</CharCode>'],
    ["another bank's body", '<?xml version="1.0"?><FxRates><FxRate><Tp>LT</Tp></FxRate></FxRates>'],
    [
      "a ValCurs without Date",
      '<ValCurs><Valute ID="840"><CharCode>USD</CharCode><Nominal>1</Nominal><Value>9.3</Value></Valute></ValCurs>',
    ],
  ]);

  it.skipIf(!sharedFeedsPresent)("reads the recorded days exactly (values read off the files by hand)", async () => {
    const monday = recording("NBT/001.xml");
    const records = await recordsOf(nbt.parse(monday.body, { url: monday.url }));
    expect(records).toHaveLength(36);
    expect(records[0]).toEqual({ effectiveDate: "2026-05-18", currency: "USD", rate: "9.3450" });
    expect(records[1]).toEqual({ effectiveDate: "2026-05-18", currency: "EUR", rate: "10.8757" });
    expect(records[5]).toEqual({ effectiveDate: "2026-05-18", currency: "UZS", rate: "0.0780", unitMultiplier: 2 });
    const tuesday = recording("NBT/002.xml");
    const next = await recordsOf(nbt.parse(tuesday.body, { url: tuesday.url }));
    expect(next.find((r) => r.currency === "KRW")).toEqual({
      effectiveDate: "2026-05-19",
      currency: "KRW",
      rate: "0.6217",
      unitMultiplier: 2,
    });
    expect(next.find((r) => r.currency === "IRR")).toEqual({
      effectiveDate: "2026-05-19",
      currency: "IRR",
      rate: "0.0071",
      unitMultiplier: 3,
    });
  });

  it("asks one snapshot per weekday of the range", async () => {
    const http = fakeHttp(() => ({ body: '<ValCurs Date="2026-05-15"/>' }));
    await nbt.fetch({ kind: "range", from: "2026-05-15", to: "2026-05-18" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([urlFor("2026-05-15"), urlFor("2026-05-18")]);
  });
});
