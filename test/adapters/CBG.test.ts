import { describe, expect, it } from "vitest";

import cbg, { CBG_PLACEHOLDERS, CBG_UNITS, withoutSpikes } from "../../adapters/CBG.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = (code: string) => `https://www.cbg.gm/ajax/indicative-exchange-rates/${code}`;
const parse = (body: Buffer | string, code = "USD") => cbg.parse(Buffer.from(body), { url: URL(code) });

describe("CBG adapter", () => {
  it("publishes SEK per 100, drops zeros, one of two identical entries, a date with two figures and a spike", async () => {
    expect(await parse(fixture("CBG/SEK.json"), "SEK")).toEqual([
      { effectiveDate: "2025-12-22", currency: "SEK", rate: "700.20", unitMultiplier: 2 },
      { effectiveDate: "2025-12-23", currency: "SEK", rate: "710.00", unitMultiplier: 2 },
      { effectiveDate: "2025-12-24", currency: "SEK", rate: "705.50", unitMultiplier: 2 },
      { effectiveDate: "2025-12-30", currency: "SEK", rate: "712.00", unitMultiplier: 2 },
      { effectiveDate: "2025-12-31", currency: "SEK", rate: "715.40", unitMultiplier: 2 },
    ]);
  });

  it("publishes the new leone as SLE from July 2022 and the old one as SLL before", async () => {
    expect(await parse(fixture("CBG/SLL.json"), "SLL")).toEqual([
      { effectiveDate: "2022-07-12", currency: "SLE", rate: "4.11" },
      { effectiveDate: "2022-07-18", currency: "SLE", rate: "4.09" },
      { effectiveDate: "2022-02-21", currency: "SLL", rate: "0.01" },
      { effectiveDate: "2022-02-28", currency: "SLL", rate: "0.01" },
    ]);
  });

  it("skips the DKK placeholder 1 and divides XOF exactly by 5000", async () => {
    expect(CBG_PLACEHOLDERS).toEqual({ DKK: "1" });
    expect(await parse(fixture("CBG/DKK.json"), "DKK")).toEqual([
      { effectiveDate: "2024-12-30", currency: "DKK", rate: "970.05", unitMultiplier: 2 },
      { effectiveDate: "2025-01-02", currency: "DKK", rate: "975.30", unitMultiplier: 2 },
    ]);
    expect(await parse(fixture("CBG/XOF.json"), "XOF")).toEqual([
      { effectiveDate: "2025-12-30", currency: "XOF", rate: "0.129", derivation: "unit-normalised" },
      { effectiveDate: "2025-12-31", currency: "XOF", rate: "0.12924", derivation: "unit-normalised" },
    ]);
  });

  it("knows the unit of each currency it asks for", () => {
    expect(Object.entries(CBG_UNITS).filter(([, u]) => u !== 1)).toEqual([
      ["DKK", 100],
      ["JPY", 100],
      ["NOK", 100],
      ["SEK", 100],
      ["XOF", 5000],
    ]);
  });

  it("keeps a lasting level change but not an isolated one", () => {
    const level = ["10", "10", "10", "10", "30", "30", "30", "30", "30"].map((rate, i) => ({
      date: `2026-01-0${i + 1}`,
      rate,
    }));
    expect(withoutSpikes(level)).toEqual(level);
    const spike = ["10", "10", "10", "30", "10", "10"].map((rate, i) => ({ date: `2026-01-0${i + 1}`, rate }));
    expect(withoutSpikes(spike).map((p) => p.rate)).toEqual(["10", "10", "10", "10", "10"]);
  });

  it.each([
    ["an empty body", "", "USD"],
    ["an HTML page", "<!DOCTYPE html><html><body>Page not found</body></html>", "USD"],
    ["truncated JSON", "[[1767139200000,72.39],[1767052800000,72.", "USD"],
    ["another bank's body", '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.1}]}', "USD"],
    ["a currency whose unit is not established", "[[1767139200000,0.71]]", "MAD"],
    ["a timestamp that is not a midnight", "[[1767139200123,72.39]]", "USD"],
    ["a rate that is not a number", '[[1767139200000,"72,39"]]', "USD"],
  ])("rejects %s with an error naming the bank", async (_what, body, code) => {
    await expect(async () => parse(body, code)).rejects.toThrow(FeedError);
    await expect(async () => parse(body, code)).rejects.toThrow(/^CBG: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recordings exactly (values read off the files by hand)", async () => {
    const read = async (file: string) => {
      const r = recording(file);
      return cbg.parse(r.body, { url: r.url });
    };
    const find = (records: Awaited<ReturnType<typeof read>>, date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    const usd = await read("CBG/001.json");
    // [1779408000000,72.39] first, [947203200000,11.56] last
    expect(find(usd, "2026-05-22", "USD")).toEqual({ effectiveDate: "2026-05-22", currency: "USD", rate: "72.39" });
    expect(find(usd, "2000-01-07", "USD")).toEqual({ effectiveDate: "2000-01-07", currency: "USD", rate: "11.56" });
    // 953164800000 (2000-03-16) is given twice, 14.99 and 11.95: refused
    expect(find(usd, "2000-03-16", "USD")).toBeUndefined();
    const sek = await read("CBG/005.json");
    expect(find(sek, "2026-05-22", "SEK")).toEqual({
      effectiveDate: "2026-05-22",
      currency: "SEK",
      rate: "771.61",
      unitMultiplier: 2,
    });
    const dkk = await read("CBG/009.json");
    expect(find(dkk, "2026-05-22", "DKK")).toBeUndefined();
    expect(find(dkk, "2019-11-18", "DKK")).toEqual({
      effectiveDate: "2019-11-18",
      currency: "DKK",
      rate: "751.5",
      unitMultiplier: 2,
    });
    const xof = await read("CBG/007.json");
    expect(find(xof, "2026-05-22", "XOF")).toEqual({
      effectiveDate: "2026-05-22",
      currency: "XOF",
      rate: "0.129244",
      derivation: "unit-normalised",
    });
    const sll = await read("CBG/028.json");
    expect(find(sll, "2026-05-22", "SLE")).toEqual({ effectiveDate: "2026-05-22", currency: "SLE", rate: "3.26" });
    expect(sll.some((x) => x.currency === "SLE" && x.rate === "43.26")).toBe(false);
  });

  it("asks the history of every currency whose unit is established", async () => {
    const http = fakeHttp(() => ({ body: "[]" }));
    await cbg.fetch({ kind: "latest" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual(Object.keys(CBG_UNITS).map(URL));
    expect(http.seen.map((r) => r.url)).toContain("https://www.cbg.gm/ajax/indicative-exchange-rates/USD");
  });
});
