import { describe, expect, it } from "vitest";

import boj from "../../adapters/BOJ.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL =
  "https://www.stat-search.boj.or.jp/api/v1/getDataCode?format=json&lang=en&db=FM08&code=FXERD04&startDate=202603&endDate=202603";
const parse = (body: Buffer | string) => boj.parse(Buffer.from(body), { url: URL });

describe("BOJ adapter", () => {
  it("reads the 17:00 dollar/yen rate, skipping nulls, and takes no rate from the euro/dollar cross", async () => {
    expect(await recordsOf(parse(fixture("BOJ/getDataCode.json")))).toEqual([
      { effectiveDate: "2026-03-02", currency: "USD", rate: "156.99" },
      { effectiveDate: "2026-03-03", currency: "USD", rate: "157.40" },
      { effectiveDate: "2026-03-10", currency: "USD", rate: "158.8" },
    ]);
  });

  itRefusesWhole("BOJ", parse, [
    [
      "truncated JSON",
      '{"STATUS":200,"RESULTSET":[{"SERIES_CODE":"FXERD04","VALUES":{"SURVEY_DATES":[20260302],"VALUES":[156.9',
    ],
    ["another bank's body", '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.1}]}'],
    ["an API error", '{"STATUS":400,"MESSAGEID":"M181005E","MESSAGE":"Invalid parameter (DB)","RESULTSET":[]}'],
    [
      "mismatched arrays",
      '{"STATUS":200,"RESULTSET":[{"SERIES_CODE":"FXERD04","VALUES":{"SURVEY_DATES":[20260302,20260303],"VALUES":[156.9]}}]}',
    ],
  ]);

  const usd = (dates: string, values: string) =>
    `{"SERIES_CODE":"FXERD04","VALUES":{"SURVEY_DATES":[${dates}],"VALUES":[${values}]}}`;
  const answer = (...series: string[]) => `{"STATUS":200,"RESULTSET":[${series.join(",")}]}`;
  const taken = [
    { effectiveDate: "2026-03-02", currency: "USD", rate: "156.99" },
    { effectiveDate: "2026-03-03", currency: "USD", rate: "157.40" },
  ];
  it.each([
    [
      "a date that does not exist",
      answer(usd("20260302,20260230,20260303", "156.99,156.9,157.40")),
      { kind: "bad-date", effectiveDate: "20260230", source: "FXERD04 SURVEY_DATES[1]" },
    ],
    [
      "a figure that is not a number",
      answer(usd("20260302,20260304,20260303", '156.99,"156,9",157.40')),
      { kind: "bad-rate", rate: "156,9", source: "FXERD04 SURVEY_DATES[1]" },
    ],
    [
      "a series it does not know",
      answer(usd("20260302,20260303", "156.99,157.40"), usd("20260302", "150.1").replace("FXERD04", "FXERD01")),
      { kind: "unknown-currency", currency: "FXERD01", source: "RESULTSET[1]" },
    ],
  ] as const)("holds %s and takes the other values", async (_what, body, held) => {
    await expectOneHeld(parse(body), { records: taken, held });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("BOJ/001.json");
    const records = await recordsOf(boj.parse(r.body, { url: r.url }));
    expect(records).toHaveLength(11); // 16 survey dates, 5 of them null
    expect(records[0]).toEqual({ effectiveDate: "2026-03-02", currency: "USD", rate: "156.99" });
    expect(records.find((x) => x.effectiveDate === "2026-03-12")).toEqual({
      effectiveDate: "2026-03-12",
      currency: "USD",
      rate: "158.8",
    });
    expect(records.at(-1)).toEqual({ effectiveDate: "2026-03-16", currency: "USD", rate: "159.29" });
    expect(records.every((x) => x.currency === "USD")).toBe(true);
  });

  it("asks FM08 by months", async () => {
    const http = fakeHttp(() => ({ body: '{"STATUS":200,"RESULTSET":[]}' }));
    await boj.fetch({ kind: "range", from: "2025-12-15", to: "2026-03-02" }, { http, env: {} });
    await boj.fetch({ kind: "latest" }, { http, env: {} });
    expect(http.seen[0]!.url).toBe(
      "https://www.stat-search.boj.or.jp/api/v1/getDataCode?format=json&lang=en&db=FM08&code=FXERD04&startDate=202512&endDate=202603",
    );
    expect(http.seen[1]!.url).toMatch(/&code=FXERD04&startDate=\d{6}&endDate=\d{6}$/);
  });
});
