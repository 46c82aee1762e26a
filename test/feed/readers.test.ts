// The kit's smaller readers: month names, bodies (text, XML, JSON), float-serialised JSON, landing pages.
import { describe, expect, it } from "vitest";

import { FeedError } from "../../src/errors.js";
import {
  asArray,
  decodeText,
  expectFeedText,
  jsonNumberText,
  looksLikeHtml,
  parseJsonExact,
  parseXml,
} from "../../src/feed/body.js";
import { decimalFromFloatJson, rateFromFloatJson } from "../../src/feed/float-json.js";
import { fetchLinkedFile, findLinks, requireLink } from "../../src/feed/html-links.js";
import { fromDayMonthName, monthNumber } from "../../src/feed/month-names.js";
import { fakeHttp } from "../support/http.js";

describe("month names from ICU", () => {
  it.each([
    ["Mar", ["en"], 3],
    ["March", ["en"], 3],
    ["Sept.", ["en"], 9],
    ["sep", ["en"], 9],
    ["février", ["fr"], 2],
    ["FEVRIER", ["fr"], 2],
    ["déc.", ["fr"], 12],
    ["февраля", ["ru"], 2],
    ["февраль", ["ru"], 2],
    ["marzo", ["es"], 3],
    ["marzo", ["en"], undefined],
    ["Foo", ["en", "fr"], undefined],
  ] as const)("%s in %j is month %s", (name, locales, month) => {
    expect(monthNumber(name, locales)).toBe(month);
  });

  it("reads day-month-year dates, refusing days that do not exist", () => {
    expect(fromDayMonthName("19 Mar 2026")).toBe("2026-03-19");
    expect(fromDayMonthName("05-Mar-2026")).toBe("2026-03-05");
    expect(fromDayMonthName("1er mars 2026", ["fr"])).toBe("2026-03-01");
    expect(fromDayMonthName("31 June 2026")).toBeUndefined();
    expect(fromDayMonthName("2026-03-19")).toBeUndefined();
  });
});

describe("bodies", () => {
  it("decodes a feed's encoding and refuses invalid UTF-8", () => {
    expect(decodeText("AAA", Buffer.from([0xc4, 0xee, 0xeb, 0xeb, 0xe0, 0xf0]), "windows-1251")).toBe("Доллар");
    expect(decodeText("AAA", Buffer.from("\ufeffabc"))).toBe("abc");
    expect(() => decodeText("AAA", Buffer.from([0xff, 0xfe, 0x41]))).toThrow("AAA: body is not valid utf-8 text");
  });

  it("tells HTML pages and empty bodies from data", () => {
    expect(looksLikeHtml("  <!DOCTYPE html><html>")).toBe(true);
    expect(looksLikeHtml("<?xml version='1.0'?><rates/>")).toBe(false);
    expect(() => expectFeedText("AAA", " \n", "CSV")).toThrow("AAA: empty body where CSV was expected");
    expect(() => expectFeedText("AAA", "<html><body>502</body></html>", "CSV")).toThrow(/an HTML page/);
  });

  it("parses XML keeping every value as text, and refuses a truncated document", () => {
    const xml = parseXml("AAA", '<Rates date="2026-03-02"><Rate code="USD">20.6110</Rate></Rates>');
    expect(xml).toEqual({ Rates: { "@date": "2026-03-02", Rate: { "#text": "20.6110", "@code": "USD" } } });
    expect(() => parseXml("AAA", "<Rates><Rate>1</Rate>")).toThrow(/^AAA: malformed XML/);
    expect(asArray(undefined)).toEqual([]);
    expect(asArray(1)).toEqual([1]);
  });

  it("parses JSON keeping every number's digits", () => {
    const json = parseJsonExact("AAA", '{"rate": 24.1700, "big": 0.1000000000000000000001}') as Record<string, unknown>;
    expect(jsonNumberText(json.rate)).toBe("24.1700");
    expect(jsonNumberText(json.big)).toBe("0.1000000000000000000001");
    expect(jsonNumberText("1.5")).toBe("1.5");
    expect(jsonNumberText(null)).toBeUndefined();
    expect(() => parseJsonExact("AAA", '{"rate": 24.1')).toThrow(/^AAA: malformed JSON/);
  });
});

describe("float-serialised JSON numbers", () => {
  it("recovers the bank's digits from a 17-digit double and flags them", () => {
    expect(decimalFromFloatJson("4.2660999999999998")).toBe("4.2661");
    expect(rateFromFloatJson("7.8245000000000005")).toEqual({ rate: "7.8245", derivation: "float-recovered" });
    expect(rateFromFloatJson("7.8245")).toEqual({ rate: "7.8245" });
    expect(decimalFromFloatJson("1.5e-3")).toBe("0.0015");
    expect(decimalFromFloatJson("abc")).toBeUndefined();
  });
});

describe("landing pages", () => {
  const page = `<html><body><a href="/files/rates%20May.xlsx">Rates</a><a href="other.pdf">x</a>
    <a href="https://cdn.example/rates 2026.xlsx">Rates 2026</a></body></html>`;

  it("finds links by resolved URL and text, in page order", () => {
    expect(findLinks(page, "https://bank.example/stats/", /\.xlsx$/)).toEqual([
      "https://bank.example/files/rates%20May.xlsx",
      "https://cdn.example/rates%202026.xlsx",
    ]);
    expect(findLinks(page, "https://bank.example/", /\.xlsx$/, /2026/)).toEqual([
      "https://cdn.example/rates%202026.xlsx",
    ]);
    expect(() => requireLink("AAA", page, "https://bank.example/", /\.csv$/, "the CSV")).toThrow(
      "AAA: no link to the CSV on https://bank.example/ (has the page changed?)",
    );
  });

  it("fetches the page then the file it links to, the page marked as navigation", async () => {
    const http = fakeHttp((req) => ({ body: req.url.endsWith(".xlsx") ? "PK" : page }));
    const docs = await fetchLinkedFile(http, {
      bankId: "AAA",
      page: "https://bank.example/stats/",
      link: /rates%20May\.xlsx$/,
      pageName: "the statistics page",
      fileName: "the rates workbook",
      accept: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    });
    expect(docs.map((d) => [d.url, d.role])).toEqual([
      ["https://bank.example/stats/", "navigation"],
      ["https://bank.example/files/rates%20May.xlsx", undefined],
    ]);
  });

  it("refuses a page without the link", async () => {
    const http = fakeHttp(() => ({ body: "<html><body>maintenance</body></html>" }));
    await expect(
      fetchLinkedFile(http, {
        bankId: "AAA",
        page: "https://bank.example/stats/",
        link: /\.xlsx$/,
        pageName: "the statistics page",
        fileName: "the rates workbook",
        accept: "*/*",
      }),
    ).rejects.toThrow(FeedError);
  });
});
