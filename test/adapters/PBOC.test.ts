import { describe, expect, it } from "vitest";

import pboc, { pairOf } from "../../adapters/PBOC.js";
import type { RateRecord } from "../../src/types.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL =
  "https://www.chinamoney.com.cn/ags/ms/cm-u-bk-ccpr/CcprHisNew?startDate=2026-03-05&endDate=2026-03-09&pageNum=1&pageSize=50";
const parse = (body: Buffer | string) => pboc.parse(Buffer.from(body), { url: URL });

describe("PBOC adapter", () => {
  it("reads every pair: X/CNY as is, 100JPY/CNY per 100, CNY/X inverted to 10 digits, --- skipped", async () => {
    expect(await recordsOf(parse(fixture("PBOC/ccpr.json")))).toEqual([
      { effectiveDate: "2026-03-09", currency: "USD", rate: "6.9010" },
      { effectiveDate: "2026-03-09", currency: "EUR", rate: "7.5230" },
      { effectiveDate: "2026-03-09", currency: "JPY", rate: "4.6510", unitMultiplier: 2 },
      { effectiveDate: "2026-03-09", currency: "HKD", rate: "0.88730" },
      // 1 / 0.61250 = 1.63265306122…, 1 / 209.60 = 0.00477099236641…
      { effectiveDate: "2026-03-09", currency: "MYR", rate: "1.632653061", derivation: "inverted" },
      { effectiveDate: "2026-03-09", currency: "KRW", rate: "0.004770992366", derivation: "inverted" },
      { effectiveDate: "2026-03-06", currency: "USD", rate: "6.8990" },
      { effectiveDate: "2026-03-06", currency: "EUR", rate: "7.5120" },
      { effectiveDate: "2026-03-06", currency: "JPY", rate: "4.6480", unitMultiplier: 2 },
      { effectiveDate: "2026-03-06", currency: "HKD", rate: "0.88700" },
      { effectiveDate: "2026-03-06", currency: "KRW", rate: "0.00477326969", derivation: "inverted" },
    ]);
  });

  it("names the pairs it knows and rejects others", () => {
    expect(pairOf("100JPY/CNY")).toEqual({ currency: "JPY", units: "100", reverse: false });
    expect(pairOf("CNY/THB")).toEqual({ currency: "THB", reverse: true });
    expect(() => pairOf("USD/HKD")).toThrow(/^PBOC: unknown currency pair/);
  });

  itRefusesWhole("PBOC", parse, [
    ["an access-denied page", "<!DOCTYPE html><html><body>Access denied</body></html>"],
    ["truncated JSON", '{"data":{"head":["USD/CNY"]},"records":[{"date":"2026-03-09","values":["6.90'],
    ["another bank's body", '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.1}]}'],
    ["an answer without pairs", '{"data":{"head":[]},"records":[{"date":"2026-03-09","values":["6.9"]}]}'],
  ]);

  const answer = (head: string[], ...records: Array<[string, string[]]>) =>
    JSON.stringify({
      data: { head, searchlist: [] },
      records: records.map(([date, values]) => ({ date, values })),
    });
  const head = ["USD/CNY", "100JPY/CNY", "CNY/MYR"];
  const day1: RateRecord[] = [
    { effectiveDate: "2026-03-06", currency: "USD", rate: "6.8990" },
    { effectiveDate: "2026-03-06", currency: "JPY", rate: "4.6480", unitMultiplier: 2 },
    { effectiveDate: "2026-03-06", currency: "MYR", rate: "1.632653061", derivation: "inverted" },
  ];
  it.each([
    [
      "a value that is not a number",
      answer(head, ["2026-03-06", ["6.8990", "4.6480", "0.61250"]], ["2026-03-09", ["6.9010", "4,6510", "---"]]),
      [...day1, { effectiveDate: "2026-03-09", currency: "USD", rate: "6.9010" }],
      { kind: "bad-rate", source: "records[1] (2026-03-09) 100JPY/CNY", rate: "4,6510" },
    ],
    [
      "a record whose values do not line up with the pairs",
      answer(head, ["2026-03-06", ["6.8990", "4.6480", "0.61250"]], ["2026-03-09", ["6.9010", "4.6510"]]),
      day1,
      { kind: "bad-row", source: "records[1]", effectiveDate: "2026-03-09" },
    ],
    [
      "a date that does not exist",
      answer(["USD/CNY"], ["2026-03-06", ["6.8990"]], ["2026-02-30", ["6.9010"]]),
      [day1[0]!],
      { kind: "bad-date", source: "records[1] (2026-02-30) USD/CNY", effectiveDate: "2026-02-30" },
    ],
  ] as const)("holds %s and takes the rest", async (_what, body, records, held) => {
    await expectOneHeld(parse(body), { records: [...records], held });
  });

  it("holds every value of a pair it does not know", async () => {
    const answer2 = await answerOf(
      parse(answer(["USD/CNY", "USD/HKD"], ["2026-03-06", ["6.8990", "7.8"]], ["2026-03-09", ["6.9010", "7.81"]])),
    );
    expect(answer2.records).toEqual([
      { effectiveDate: "2026-03-06", currency: "USD", rate: "6.8990" },
      { effectiveDate: "2026-03-09", currency: "USD", rate: "6.9010" },
    ]);
    expect(answer2.held.map((h) => [h.kind, h.currency, h.effectiveDate])).toEqual([
      ["unknown-currency", "USD/HKD", "2026-03-06"],
      ["unknown-currency", "USD/HKD", "2026-03-09"],
    ]);
  });

  it.skipIf(!sharedFeedsPresent)(
    "reads the recorded USD/CNY query exactly (values read off the file by hand)",
    async () => {
      const r = recording("PBOC/001.json");
      expect(await recordsOf(pboc.parse(r.body, { url: r.url }))).toEqual([
        { effectiveDate: "2026-09-30", currency: "USD", rate: "6.7351" },
        { effectiveDate: "2026-09-29", currency: "USD", rate: "6.7411" },
        { effectiveDate: "2026-09-28", currency: "USD", rate: "6.7399" },
      ]);
    },
  );

  it("asks for every pair over the range (one page of 50 rows)", async () => {
    const http = fakeHttp(() => ({ body: "{}" }));
    await pboc.fetch({ kind: "range", from: "2026-01-01", to: "2026-02-19" }, { http, env: {} });
    await pboc.fetch({ kind: "latest" }, { http, env: {} });
    expect(http.seen[0]!.url).toBe(
      "https://www.chinamoney.com.cn/ags/ms/cm-u-bk-ccpr/CcprHisNew?startDate=2026-01-01&endDate=2026-02-19&pageNum=1&pageSize=50",
    );
    expect(http.seen[1]!.url).toMatch(
      /^https:\/\/www\.chinamoney\.com\.cn\/ags\/ms\/cm-u-bk-ccpr\/CcprHisNew\?startDate=\d{4}-\d{2}-\d{2}&endDate=\d{4}-\d{2}-\d{2}&pageNum=1&pageSize=50$/,
    );
  });
});
