import { describe, expect, it } from "vitest";

import nbt from "../../adapters/NBT.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const urlFor = (date: string) => `https://www.nbt.tj/en/kurs/export_xml.php?date=${date}&export=xmlout`;
const parse = (body: Buffer | string, url = urlFor("2026-05-18")) => nbt.parse(Buffer.from(body), { url });

describe("NBT adapter", () => {
  it("reads TJS per Nominal, keeping powers of ten as unitMultiplier", async () => {
    expect(await parse(fixture("NBT/export_xml.xml"))).toEqual([
      { effectiveDate: "2026-05-18", currency: "USD", rate: "9.3450" },
      { effectiveDate: "2026-05-18", currency: "UZS", rate: "0.0780", unitMultiplier: 2 },
      { effectiveDate: "2026-05-18", currency: "RUB", rate: "0.1277" },
      { effectiveDate: "2026-05-18", currency: "IRR", rate: "0.0071", unitMultiplier: 3 },
      { effectiveDate: "2026-05-18", currency: "XYZ", rate: "0.5", derivation: "unit-normalised" },
    ]);
  });

  it("yields nothing for a snapshot of another day than the one asked (an out-of-range date)", async () => {
    expect(await parse(fixture("NBT/export_xml.xml"), urlFor("1999-01-04"))).toEqual([]);
  });

  it("drops a weekend snapshot, which only carries Friday's rates forward", async () => {
    const saturday = fixture("NBT/export_xml.xml").toString().replace('Date="2026-05-18"', 'Date="2026-05-16"');
    expect(await parse(saturday, urlFor("2026-05-16"))).toEqual([]);
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<!DOCTYPE html><html><body>Not found</body></html>"],
    ["truncated XML", '<?xml version="1.0"?><ValCurs Date="2026-05-18"><Valute ID="840"><CharCode>USD</CharCode>'],
    ["another bank's body", '<?xml version="1.0"?><FxRates><FxRate><Tp>LT</Tp></FxRate></FxRates>'],
    [
      "a missing date",
      '<ValCurs><Valute ID="840"><CharCode>USD</CharCode><Nominal>1</Nominal><Value>9.3</Value></Valute></ValCurs>',
    ],
    [
      "a decimal comma",
      '<ValCurs Date="2026-05-18"><Valute ID="840"><CharCode>USD</CharCode><Nominal>1</Nominal><Value>9,3450</Value></Valute></ValCurs>',
    ],
    [
      "a fractional Nominal",
      '<ValCurs Date="2026-05-18"><Valute ID="840"><CharCode>USD</CharCode><Nominal>1.5</Nominal><Value>9.3450</Value></Valute></ValCurs>',
    ],
  ])("rejects %s with an error naming the bank", async (_what, body) => {
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^NBT: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded days exactly (values read off the files by hand)", async () => {
    const monday = recording("NBT/001.xml");
    const records = await nbt.parse(monday.body, { url: monday.url });
    expect(records).toHaveLength(36);
    expect(records[0]).toEqual({ effectiveDate: "2026-05-18", currency: "USD", rate: "9.3450" });
    expect(records[1]).toEqual({ effectiveDate: "2026-05-18", currency: "EUR", rate: "10.8757" });
    expect(records[5]).toEqual({ effectiveDate: "2026-05-18", currency: "UZS", rate: "0.0780", unitMultiplier: 2 });
    const tuesday = recording("NBT/002.xml");
    const next = await nbt.parse(tuesday.body, { url: tuesday.url });
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
