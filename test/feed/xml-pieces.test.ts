// The piecewise XML reader gives exactly the tree the parser gives for the whole text, key order
// included, on every XML fixture of the project, however small the pieces.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";

import { parseXml, readXmlRoot, XML_PARSER_OPTIONS } from "../../src/feed/body.js";
import { parseXmlInPieces, xmlRoot } from "../../src/feed/xml-pieces.js";
import { FIXTURES_DIR } from "../support/fixtures.js";

const parser = new XMLParser(XML_PARSER_OPTIONS);
const parse = (xml: string) => parser.parse(xml) as Record<string, unknown>;

const walk = (d: string): string[] =>
  readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : [join(d, f)]));
const xmlFixtures = walk(FIXTURES_DIR)
  .map((path) => ({ path, text: readFileSync(path).toString("latin1") }))
  .filter(({ text }) => /^\s*(<\?xml|<[A-Za-z])/.test(text) && !/^\s*<(!doctype\s+)?html/i.test(text));

describe("XML read in pieces", () => {
  it("finds XML fixtures to compare", () => {
    expect(xmlFixtures.length).toBeGreaterThan(10);
  });

  it.each([40, 300, 5000])("gives the whole parse's tree, key order included, in pieces of %i characters", (piece) => {
    for (const { path, text } of xmlFixtures) {
      expect(JSON.stringify(parseXmlInPieces(text, parse, piece)), path).toBe(JSON.stringify(parse(text)));
    }
  });

  it("splits nested large elements and keeps one child an object, several an array", () => {
    const cube = (d: string) =>
      `<Cube time="${d}"><Cube currency="USD" rate="1.08"/><Cube currency="JPY" rate="161.2"/></Cube>`;
    const text = `<?xml version="1.0"?><gesmes:Envelope xmlns:gesmes="x"><gesmes:subject>Rates</gesmes:subject><!-- a <note> --><Cube>${["2026-03-02", "2026-03-03"].map(cube).join("\n")}</Cube><Extra a="1"><![CDATA[<b>]]></Extra></gesmes:Envelope>`;
    expect(parseXmlInPieces(text, parse, 30)).toEqual(parse(text));
  });

  it("reads a root's elements one at a time, with the root's attributes", () => {
    const text = `<ValCurs Date="02.03.2026" name="x"><Valute ID="a"><Value>1,5</Value></Valute><Other/><Valute ID="b"><Value>2</Value></Valute></ValCurs>`;
    const root = xmlRoot(text, parse, 10);
    expect([root.name, root.attributes]).toEqual(["ValCurs", { "@Date": "02.03.2026", "@name": "x" }]);
    expect([...root.elements("Valute")]).toEqual([
      { Value: "1,5", "@ID": "a" },
      { Value: "2", "@ID": "b" },
    ]);
    expect(readXmlRoot("X", "<a><b>1</b><b>2</b></a>").attributes).toEqual({});
  });

  it.each([1, 60, 200, 100_000])(
    "reads runs of elements together (pieces of %i characters) with the whole parse's values, in order",
    (piece) => {
      const record = (i: number) =>
        i % 7 === 3
          ? `<Record Date="0${i}.03.2026"/>`
          : `<Record Date="0${i}.03.2026" Id="R${i}"><Nominal>1</Nominal><Value>9${i},5</Value></Record>`;
      const big = `<Record Date="big"><Value>${"9".repeat(150)}</Value><Value>2</Value></Record>`;
      const records = Array.from({ length: 9 }, (_, i) => record(i));
      const text = `<ValCurs ID="x">${records.slice(0, 4).join("")}<Other a="1"/>${big}${records.slice(4).join("\n")}</ValCurs>`;
      const whole = parse(text).ValCurs as Record<string, unknown>;
      expect([...xmlRoot(text, parse, piece).elements("Record")]).toEqual(whole.Record);
      expect([...xmlRoot(text, parse, piece).elements("Other")]).toEqual([whole.Other]);
      expect([...xmlRoot(text, parse, piece).elements("Absent")]).toEqual([]);
    },
  );

  it("refuses malformed XML with the bank's name, whole or by elements", () => {
    expect(() => readXmlRoot("X", "<a><b>1</b>")).toThrow(/^X: malformed XML/);
    expect(() => parseXml("X", "<a><b>1</c></a>")).toThrow(/^X: malformed XML/);
    expect(() => readXmlRoot("X", "<a>text<b>1</b></a>")).toThrow(
      /^X: XML not read as one root of elements \(text among the elements of <a>\)/,
    );
  });
});
