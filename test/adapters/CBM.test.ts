import { describe, expect, it } from "vitest";

import cbm, { CBM_UNITS } from "../../adapters/CBM.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://forex.cbm.gov.mm/api/latest";
const parse = (body: Buffer | string) => cbm.parse(Buffer.from(body), { url: URL });

describe("CBM adapter", () => {
  it("dates by Myanmar time, publishes JPY/KRW/VND per 100, drops thousands separators and skips 0.00", async () => {
    // 1767124800 is 2025-12-30 20:00 UTC, 2025-12-31 02:30 in Yangon.
    expect(await recordsOf(parse(fixture("CBM/latest.json")))).toEqual([
      { effectiveDate: "2025-12-31", currency: "USD", rate: "2100.00" },
      { effectiveDate: "2025-12-31", currency: "JPY", rate: "1338.40", unitMultiplier: 2 },
      { effectiveDate: "2025-12-31", currency: "KRW", rate: "145.10", unitMultiplier: 2 },
      { effectiveDate: "2025-12-31", currency: "EUR", rate: "2461.30" },
      { effectiveDate: "2025-12-31", currency: "THB", rate: "64.90" },
      { effectiveDate: "2025-12-31", currency: "VND", rate: "7.97", unitMultiplier: 2 },
      { effectiveDate: "2025-12-31", currency: "KWD", rate: "6845.20" },
    ]);
  });

  it("knows exactly these six currencies as quoted per 100", () => {
    expect(Object.keys(CBM_UNITS).filter((c) => CBM_UNITS[c] === 2)).toEqual([
      "IDR",
      "JPY",
      "KHR",
      "KRW",
      "LAK",
      "VND",
    ]);
  });

  itRefusesWhole("CBM", parse, [
    ["truncated JSON", '{"info":"Central Bank of Myanmar","timestamp":"1767124800","rates":{"USD":"2100'],
    ["another bank's body", '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.1}]}'],
    ["a missing timestamp", '{"rates":{"USD":"2100.00"}}'],
  ]);

  const answer = (rates: string, stamp = "1767124800") =>
    `{"info":"Central Bank of Myanmar","timestamp":"${stamp}","rates":{"USD":"2100.00",${rates},"JPY":"1338.40"}}`;
  const taken = [
    { effectiveDate: "2025-12-31", currency: "USD", rate: "2100.00" },
    { effectiveDate: "2025-12-31", currency: "JPY", rate: "1338.40", unitMultiplier: 2 },
  ];
  it.each([
    ["a currency whose unit is not established", '"MNT":"0.59"', { kind: "unknown-unit", currency: "MNT" }],
    ["a figure that is not a number", '"EUR":"2,461.3.0"', { kind: "bad-rate", currency: "EUR", rate: "2,461.3.0" }],
  ] as const)("holds %s and takes the other rates", async (_what, bad, held) => {
    await expectOneHeld(parse(answer(bad)), { records: taken, held: { ...held, source: `rates.${held.currency}` } });
  });

  it("holds every rate of an answer whose timestamp is not epoch seconds", async () => {
    const { records, held } = await answerOf(parse(answer('"EUR":"2461.30"', "2025-12-31")));
    expect(records).toEqual([]);
    expect(held.map((h) => [h.kind, h.currency])).toEqual([
      ["bad-date", "USD"],
      ["bad-date", "EUR"],
      ["bad-date", "JPY"],
    ]);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded latest exactly (values read off the file by hand)", async () => {
    const r = recording("CBM/001.json");
    const records = await recordsOf(cbm.parse(r.body, { url: r.url }));
    expect(records).toHaveLength(38);
    const find = (currency: string) => records.find((x) => x.currency === currency);
    // timestamp 1775721600 = 2026-04-09 08:00 UTC = 14:30 in Yangon
    expect(find("USD")).toEqual({ effectiveDate: "2026-04-09", currency: "USD", rate: "2100.00" });
    expect(find("JPY")).toEqual({ effectiveDate: "2026-04-09", currency: "JPY", rate: "1321.88", unitMultiplier: 2 });
    expect(find("LAK")).toEqual({ effectiveDate: "2026-04-09", currency: "LAK", rate: "9.52", unitMultiplier: 2 });
    expect(find("KWD")).toEqual({ effectiveDate: "2026-04-09", currency: "KWD", rate: "6851.55" });
    expect(find("LKR")).toEqual({ effectiveDate: "2026-04-09", currency: "LKR", rate: "6.66" });
  });

  it("asks latest, and one history day per day of a range (DD-MM-YYYY)", async () => {
    const http = fakeHttp(() => ({ body: "{}" }));
    await cbm.fetch({ kind: "latest" }, { http, env: {} });
    await cbm.fetch({ kind: "range", from: "2025-12-31", to: "2026-01-01" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([
      "https://forex.cbm.gov.mm/api/latest",
      "https://forex.cbm.gov.mm/api/history/31-12-2025",
      "https://forex.cbm.gov.mm/api/history/01-01-2026",
    ]);
  });
});
