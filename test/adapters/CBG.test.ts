import { describe, expect, it } from "vitest";

import cbg, { CBG_PLACEHOLDERS, CBG_UNITS, splitSpikes } from "../../adapters/CBG.js";
import { gateRecords } from "../../src/ingest/validate.js";
import type { ParseOutput } from "../../src/types.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf, sortRecords } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = (code: string) => `https://www.cbg.gm/ajax/indicative-exchange-rates/${code}`;
const parse = (body: Buffer | string, code = "USD") => cbg.parse(Buffer.from(body), { url: URL(code) });
/** What the ingest keeps of an answer: the adapter's records through the gate (conflicts held there). */
const gated = async (output: ParseOutput | Promise<ParseOutput>) => {
  const answer = await answerOf(output);
  return gateRecords("GMD", answer.records, answer.held);
};

describe("CBG adapter", () => {
  it("publishes SEK per 100, skips zeros, folds identical entries, holds the spike and lets the gate hold a date with two figures", async () => {
    // [4] 93.25 on 2025-12-26 among 700-721; [2] and [3] give 2025-12-29 twice (720.10, 721.30).
    const answer = await answerOf(parse(fixture("CBG/SEK.json"), "SEK"));
    expect(answer.held).toHaveLength(1);
    expect(answer.held[0]).toMatchObject({
      kind: "bad-rate",
      source: "[4]",
      effectiveDate: "2025-12-26",
      currency: "SEK",
      rate: "93.25",
    });
    expect(answer.held[0]!.reason).toMatch(
      /93\.25 on 2025-12-26 is more than 1\.5 times away .*\(705\.5 before, 712 after\)/,
    );
    const kept = gateRecords("GMD", answer.records, answer.held);
    expect(sortRecords(kept.records)).toEqual([
      { effectiveDate: "2025-12-22", currency: "SEK", rate: "700.20", unitMultiplier: 2 },
      { effectiveDate: "2025-12-23", currency: "SEK", rate: "710.00", unitMultiplier: 2 },
      { effectiveDate: "2025-12-24", currency: "SEK", rate: "705.50", unitMultiplier: 2 },
      { effectiveDate: "2025-12-30", currency: "SEK", rate: "712.00", unitMultiplier: 2 },
      { effectiveDate: "2025-12-31", currency: "SEK", rate: "715.40", unitMultiplier: 2 },
    ]);
    expect(kept.held.map((h) => [h.kind, h.source, h.effectiveDate, h.rate])).toEqual([
      ["bad-rate", "[4]", "2025-12-26", "93.25"],
      ["conflict", "[2]", "2025-12-29", "720.10"],
      ["conflict", "[3]", "2025-12-29", "721.30"],
    ]);
  });

  it("publishes the new leone as SLE from July 2022 and the old one as SLL before", async () => {
    expect(await recordsOf(parse(fixture("CBG/SLL.json"), "SLL"))).toEqual([
      { effectiveDate: "2022-07-12", currency: "SLE", rate: "4.11" },
      { effectiveDate: "2022-07-18", currency: "SLE", rate: "4.09" },
      { effectiveDate: "2022-02-21", currency: "SLL", rate: "0.01" },
      { effectiveDate: "2022-02-28", currency: "SLL", rate: "0.01" },
    ]);
  });

  it("skips the DKK placeholder 1 and divides XOF exactly by 5000", async () => {
    expect(CBG_PLACEHOLDERS).toEqual({ DKK: "1" });
    expect(await recordsOf(parse(fixture("CBG/DKK.json"), "DKK"))).toEqual([
      { effectiveDate: "2024-12-30", currency: "DKK", rate: "970.05", unitMultiplier: 2 },
      { effectiveDate: "2025-01-02", currency: "DKK", rate: "975.30", unitMultiplier: 2 },
    ]);
    expect(await recordsOf(parse(fixture("CBG/XOF.json"), "XOF"))).toEqual([
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
    expect(splitSpikes(level)).toEqual({ kept: level, spikes: [] });
    const spike = ["10", "10", "10", "30", "10", "10"].map((rate, i) => ({ date: `2026-01-0${i + 1}`, rate }));
    const { kept, spikes } = splitSpikes(spike);
    expect(kept.map((p) => p.rate)).toEqual(["10", "10", "10", "10", "10"]);
    expect(spikes.map((s) => s.point)).toEqual([{ date: "2026-01-04", rate: "30" }]);
  });

  itRefusesWhole("CBG", (body) => parse(body), [
    ["truncated JSON", "[[1767139200000,72.39],[1767052800000,72."],
    ["another bank's body", '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.1}]}'],
  ]);

  it("refuses an answer whose URL names no currency", async () => {
    await expect(async () =>
      cbg.parse(Buffer.from("[[1767139200000,72.39]]"), { url: "https://www.cbg.gm/ajax/indicative-exchange-rates" }),
    ).rejects.toThrow(/^CBG: cannot tell the currency/);
  });

  // 1767139200000 is 2025-12-31, 1767052800000 2025-12-30, 1766966400000 2025-12-29.
  const taken = [
    { effectiveDate: "2025-12-29", currency: "USD", rate: "72.10" },
    { effectiveDate: "2025-12-31", currency: "USD", rate: "72.39" },
  ];
  it.each([
    ["a timestamp that is not a midnight", "[1767052800123,72.20]", { kind: "bad-date" }],
    ["a rate that is not a number", '[1767052800000,"72,20"]', { kind: "bad-rate", rate: "72,20" }],
    ["an entry that is not a pair", "[1767052800000]", { kind: "bad-row" }],
  ] as const)("holds %s and takes the rest of the history", async (_what, bad, held) => {
    await expectOneHeld(parse(`[[1767139200000,72.39],${bad},[1766966400000,72.10]]`), {
      records: (records) => expect(sortRecords(records)).toEqual(taken),
      held: { ...held, currency: "USD", source: "[1]" },
    });
  });

  it("holds every figure of a currency whose unit is not established", async () => {
    const answer = await answerOf(parse("[[1767139200000,0.71],[1767052800000,0.70]]", "MAD"));
    expect(answer.records).toEqual([]);
    expect(answer.held.map((h) => [h.kind, h.currency, h.source])).toEqual([
      ["unknown-unit", "MAD", "[0]"],
      ["unknown-unit", "MAD", "[1]"],
    ]);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recordings exactly (values read off the files by hand)", async () => {
    const read = async (file: string) => {
      const r = recording(file);
      return (await gated(cbg.parse(r.body, { url: r.url }))).records;
    };
    const find = (records: Awaited<ReturnType<typeof read>>, date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    const usd = await read("CBG/001.json");
    // [1779408000000,72.39] first, [947203200000,11.56] last
    expect(find(usd, "2026-05-22", "USD")).toEqual({ effectiveDate: "2026-05-22", currency: "USD", rate: "72.39" });
    expect(find(usd, "2000-01-07", "USD")).toEqual({ effectiveDate: "2000-01-07", currency: "USD", rate: "11.56" });
    // 953164800000 (2000-03-16) is given twice, 14.99 and 11.95: held by the gate
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
