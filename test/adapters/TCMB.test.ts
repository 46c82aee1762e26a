import { describe, expect, it } from "vitest";

import tcmb, { TCMB_CURRENCIES } from "../../adapters/TCMB.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL =
  "https://evds3.tcmb.gov.tr/igmevdsms-dis/series=TP.DK.USD.A.YTL-TP.DK.USD.S.YTL&startDate=01-03-2026&endDate=03-03-2026&type=json&frequency=1";
const parse = (body: Buffer | string) => tcmb.parse(Buffer.from(body), { url: URL });

describe("TCMB adapter", () => {
  it("takes the exact mean of buying and selling, JPY per 100, skipping the null weekend items", async () => {
    // (28.0072 + 28.1927) / 2 = 28.09995; (43.8 + 43.8789) / 2 = 43.83945
    // (27.8925 + 28.0771) / 2 = 27.9848;  (43.885 + 43.9641) / 2 = 43.92455
    expect(await recordsOf(parse(fixture("TCMB/items.json")))).toEqual([
      { effectiveDate: "2026-03-02", currency: "JPY", rate: "28.09995", unitMultiplier: 2, derivation: "mean" },
      { effectiveDate: "2026-03-02", currency: "USD", rate: "43.83945", derivation: "mean" },
      { effectiveDate: "2026-03-03", currency: "JPY", rate: "27.9848", unitMultiplier: 2, derivation: "mean" },
      { effectiveDate: "2026-03-03", currency: "USD", rate: "43.92455", derivation: "mean" },
    ]);
  });

  itRefusesWhole("TCMB", parse, [
    ["a rejected request page", "<!DOCTYPE html><html><body>Request Rejected</body></html>"],
    ["truncated JSON", '{"totalCount":1,"items":[{"Tarih":"02-03-2026","TP_DK_USD_A_YTL":"43.80'],
    ["another bank's body", '[{"seriesId":"SEKUSDPMI","date":"2026-03-24","value":9.4}]'],
    ["an unexpected series", '{"items":[{"Tarih":"02-03-2026","TP_DK_USD_A_EF_YTL":"43.8"}]}'],
  ]);

  const usd = '"TP_DK_USD_A_YTL":"43.80000000","TP_DK_USD_S_YTL":"43.87890000"';
  const taken = [{ effectiveDate: "2026-03-02", currency: "USD", rate: "43.83945", derivation: "mean" as const }];
  it.each([
    [
      "one side only",
      '"TP_DK_EUR_A_YTL":"50.7","TP_DK_EUR_S_YTL":null',
      { kind: "bad-rate", source: "items[0] (02-03-2026) EUR", currency: "EUR", rate: "buying 50.7 selling none" },
    ],
    [
      "a side that is not a number",
      '"TP_DK_EUR_A_YTL":"50,7","TP_DK_EUR_S_YTL":"50.9"',
      { kind: "bad-rate", source: "items[0] (02-03-2026) EUR", currency: "EUR", rate: "50,7" },
    ],
  ] as const)("holds a currency with %s and takes the others", async (_what, bad, held) => {
    await expectOneHeld(parse(`{"items":[{"Tarih":"02-03-2026",${usd},${bad}}]}`), { records: taken, held });
  });

  it("holds every currency of an item whose date does not exist", async () => {
    const body = `{"items":[{"Tarih":"02-03-2026",${usd}},{"Tarih":"30-02-2026",${usd},"TP_DK_EUR_A_YTL":"50.7","TP_DK_EUR_S_YTL":"50.9"}]}`;
    const answer = await answerOf(parse(body));
    expect(answer.records).toEqual(taken);
    expect(answer.held.map((h) => [h.kind, h.currency, h.effectiveDate])).toEqual([
      ["bad-date", "USD", "30-02-2026"],
      ["bad-date", "EUR", "30-02-2026"],
    ]);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("TCMB/001.json");
    const records = await recordsOf(tcmb.parse(r.body, { url: r.url }));
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    expect(records).toHaveLength(8 * 21); // 11 days, 3 of them weekend items of nulls
    expect(find("2026-03-01", "USD")).toBeUndefined();
    // USD 02-03-2026: 43.80000000 / 43.87890000; KRW 11-03-2026: 0.02975000 / 0.03014000
    expect(find("2026-03-02", "USD")).toEqual({
      effectiveDate: "2026-03-02",
      currency: "USD",
      rate: "43.83945",
      derivation: "mean",
    });
    expect(find("2026-03-11", "KRW")).toEqual({
      effectiveDate: "2026-03-11",
      currency: "KRW",
      rate: "0.029945",
      derivation: "mean",
    });
    expect(find("2026-03-11", "JPY")).toEqual({
      effectiveDate: "2026-03-11",
      currency: "JPY",
      rate: "27.92755",
      unitMultiplier: 2,
      derivation: "mean",
    });
  });

  it("needs its EVDS key", async () => {
    await expect(tcmb.fetch({ kind: "latest" }, { http: fakeHttp(), env: {} })).rejects.toThrow(
      /^TCMB: needs EXRATES_TCMB_API_KEY/,
    );
  });

  it("asks the 42 series over the range with the key in the `key` header", async () => {
    const http = fakeHttp(() => ({ body: '{"items":[]}' }));
    await tcmb.fetch(
      { kind: "range", from: "2026-03-01", to: "2026-03-11" },
      { http, env: { EXRATES_TCMB_API_KEY: "s3cret" } },
    );
    if (sharedFeedsPresent) expect(http.seen[0]!.url).toBe(recording("TCMB/001.json").url);
    expect(http.seen[0]!.url).toBe(
      "https://evds3.tcmb.gov.tr/igmevdsms-dis/series=" +
        TCMB_CURRENCIES.map((c) => `TP.DK.${c}.A.YTL-TP.DK.${c}.S.YTL`).join("-") +
        "&startDate=01-03-2026&endDate=11-03-2026&type=json&frequency=1",
    );
    expect(http.seen[0]!.headers).toEqual({ key: "s3cret" });
    expect(http.seen[0]!.url).not.toContain("s3cret");
    await tcmb.fetch({ kind: "latest" }, { http, env: { EXRATES_TCMB_API_KEY: "s3cret" } });
    expect(http.seen[1]!.url).toMatch(/&startDate=\d{2}-\d{2}-\d{4}&endDate=\d{2}-\d{2}-\d{4}&type=json&frequency=1$/);
  });
});
