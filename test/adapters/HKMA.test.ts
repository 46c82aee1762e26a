import { describe, expect, it } from "vitest";

import hkma from "../../adapters/HKMA.js";
import type { RateRecord } from "../../src/types.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL_ =
  "https://api.hkma.gov.hk/public/market-data-and-statistics/monthly-statistical-bulletin/er-ir/er-eeri-daily?choose=end_of_day&from=2026-02-26&to=2026-02-27&pagesize=100&offset=0&sortby=end_of_day&sortorder=desc";
const parse = (body: Buffer | string) => hkma.parse(Buffer.from(body), { url: URL_ });

describe("HKMA adapter", () => {
  it("recovers the published digits from float noise (flagged), skips nulls and the indices, maps SDR to XDR", async () => {
    expect(await recordsOf(parse(fixture("HKMA/er-eeri-daily.json")))).toEqual([
      { effectiveDate: "2026-02-27", currency: "USD", rate: "7.8245", derivation: "float-recovered" },
      { effectiveDate: "2026-02-27", currency: "GBP", rate: "10.6045" },
      { effectiveDate: "2026-02-27", currency: "JPY", rate: "0.05013", derivation: "float-recovered" },
      { effectiveDate: "2026-02-27", currency: "EUR", rate: "9.247", derivation: "float-recovered" },
      { effectiveDate: "2026-02-27", currency: "IDR", rate: "0.000467" },
      { effectiveDate: "2026-02-27", currency: "KRW", rate: "0.005485", derivation: "float-recovered" },
      { effectiveDate: "2026-02-27", currency: "XDR", rate: "10.76430475" },
      { effectiveDate: "2026-02-27", currency: "MYR", rate: "2.0100" },
      { effectiveDate: "2026-02-26", currency: "USD", rate: "7.825" },
      { effectiveDate: "2026-02-26", currency: "JPY", rate: "0.05013", derivation: "float-recovered" },
      { effectiveDate: "2026-02-26", currency: "EUR", rate: "9.235" },
      { effectiveDate: "2026-02-26", currency: "IDR", rate: "0.0004659" },
      { effectiveDate: "2026-02-26", currency: "KRW", rate: "0.005473" },
      { effectiveDate: "2026-02-26", currency: "XDR", rate: "10.74250014", derivation: "float-recovered" },
      { effectiveDate: "2026-02-26", currency: "MYR", rate: "2.0128" },
    ]);
  });

  it("reads a window without data as no records", async () => {
    expect(
      await recordsOf(
        parse(
          '{"header":{"success":true,"err_code":"0000","err_msg":"No error found"},"result":{"datasize":0,"records":[]}}',
        ),
      ),
    ).toEqual([]);
  });

  itRefusesWhole("HKMA", parse, [
    [
      "truncated JSON",
      '{"header":{"success":true},"result":{"datasize":1,"records":[{"end_of_day":"2026-02-27","usd":7.82',
    ],
    ["an API error", '{"header":{"success":false,"err_code":"1002","err_msg":"Invalid parameter"},"result":null}'],
    [
      "another bank's body (CNB)",
      '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.170}]}',
    ],
  ]);

  const answer = (...rows: string[]) =>
    `{"header":{"success":true},"result":{"datasize":${rows.length},"records":[${rows.join(",")}]}}`;
  const good = '{"end_of_day":"2026-02-27","usd":7.8245000000000005,"gbp":10.6045,"neeri_2020_trade_wgt":100.9}';
  const taken: RateRecord[] = [
    { effectiveDate: "2026-02-27", currency: "USD", rate: "7.8245", derivation: "float-recovered" },
    { effectiveDate: "2026-02-27", currency: "GBP", rate: "10.6045" },
  ];
  it.each([
    [
      "an unknown currency field",
      '{"end_of_day":"2026-02-26","xyz":1.5}',
      { kind: "unknown-currency", currency: "XYZ" },
    ],
    ["a date that does not exist", '{"end_of_day":"2026-02-30","usd":7.82}', { kind: "bad-date" }],
    ["a zero rate", '{"end_of_day":"2026-02-26","usd":0}', { kind: "bad-rate", rate: "0" }],
    ["a figure that is not a number", '{"end_of_day":"2026-02-26","usd":"n/a"}', { kind: "bad-rate", rate: "n/a" }],
  ] as const)("holds %s and takes the other figures", async (_what, bad, held) => {
    await expectOneHeld(parse(answer(good, bad)), { records: taken, held });
  });

  it("holds every figure of a day that does not exist, each with its place", async () => {
    const held = (await answerOf(parse(answer(good, '{"end_of_day":"2026-02-30","usd":7.82,"jpy":0.0501}')))).held;
    expect(held.map((h) => [h.kind, h.source])).toEqual([
      ["bad-date", "records[1].usd"],
      ["bad-date", "records[1].jpy"],
    ]);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("HKMA/001.json");
    const records = await recordsOf(hkma.parse(r.body, { url: r.url }));
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    expect(records).toHaveLength(36);
    expect(find("2026-02-26", "USD")).toEqual({ effectiveDate: "2026-02-26", currency: "USD", rate: "7.825" });
    expect(find("2026-02-26", "XDR")).toEqual({ effectiveDate: "2026-02-26", currency: "XDR", rate: "10.76430475" });
    expect(find("2026-02-25", "IDR")).toEqual({ effectiveDate: "2026-02-25", currency: "IDR", rate: "0.0004659" });
    expect(find("2026-02-25", "JPY")).toEqual({ effectiveDate: "2026-02-25", currency: "JPY", rate: "0.0502" });
    expect(find("2026-02-25", "DEM")).toBeUndefined();
  });

  it("asks one page per 100 rows for a range, and a 75-day window for the latest", async () => {
    const full = JSON.stringify({
      header: { success: true },
      result: { datasize: 100, records: Array.from({ length: 100 }, () => ({ end_of_day: "2026-01-02" })) },
    });
    const http = fakeHttp((req) => ({
      body: req.url.includes("offset=0") ? full : '{"header":{"success":true},"result":{"datasize":0,"records":[]}}',
    }));
    await hkma.fetch({ kind: "range", from: "2025-06-01", to: "2026-01-31" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([
      "https://api.hkma.gov.hk/public/market-data-and-statistics/monthly-statistical-bulletin/er-ir/er-eeri-daily?choose=end_of_day&from=2025-06-01&to=2026-01-31&pagesize=100&offset=0&sortby=end_of_day&sortorder=desc",
      "https://api.hkma.gov.hk/public/market-data-and-statistics/monthly-statistical-bulletin/er-ir/er-eeri-daily?choose=end_of_day&from=2025-06-01&to=2026-01-31&pagesize=100&offset=100&sortby=end_of_day&sortorder=desc",
    ]);
    const latest = fakeHttp(() => ({ body: '{"header":{"success":true},"result":{"datasize":0,"records":[]}}' }));
    await hkma.fetch({ kind: "latest" }, { http: latest, env: {} });
    expect(latest.seen).toHaveLength(1);
    expect(latest.seen[0]!.url).toMatch(
      /er-eeri-daily\?choose=end_of_day&from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}&pagesize=100&offset=0&/,
    );
  });
});
