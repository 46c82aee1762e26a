import { describe, expect, it } from "vitest";

import bom from "../../adapters/BOM.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const parse = (body: Buffer | string) =>
  bom.parse(Buffer.from(body), { url: "https://www.mongolbank.mn/en/currency-rate-movement/data" });

describe("BOM adapter", () => {
  it("reads the wide rows, drops comma separators, relabels SDR and skips placeholders", async () => {
    expect(await recordsOf(parse(fixture("BOM/data.json")))).toEqual([
      { effectiveDate: "2026-05-20", currency: "USD", rate: "3576.17" },
      { effectiveDate: "2026-05-20", currency: "JPY", rate: "22.48" },
      { effectiveDate: "2026-05-20", currency: "KWD", rate: "11656.36" },
      { effectiveDate: "2026-05-20", currency: "IDR", rate: "0.20" },
      // Gold and silver are published per troy ounce already: kept as they are.
      { effectiveDate: "2026-05-20", currency: "XAU", rate: "16016753.51" },
      { effectiveDate: "2026-05-20", currency: "XDR", rate: "4888.48" },
      { effectiveDate: "2026-05-19", currency: "USD", rate: "3575.99" },
      { effectiveDate: "2026-05-19", currency: "EUR", rate: "4160.6600" },
      { effectiveDate: "2026-05-19", currency: "XAG", rate: "273466.86" },
    ]);
  });

  itRefusesWhole("BOM", parse, [
    ["a challenge page", "<!DOCTYPE html><html><head><title>Just a moment...</title></head></html>"],
    ["truncated JSON", '{"success":true,"data":[{"RATE_DATE":"2026-05-20","USD":"3,57'],
    ["another bank's body", '[{"Date": "22 January 2020", "Rate": "15.38"}]'],
    ["a failure answer", '{"success":false,"data":[]}'],
  ]);

  const answer = (bad: string) =>
    `{"success":true,"data":[{"RATE_DATE":"2026-05-20","USD":"3,576.17","JPY":"22.48"},${bad},{"RATE_DATE":"2026-05-18","USD":"3,575.80"}]}`;
  const first = [
    { effectiveDate: "2026-05-20", currency: "USD", rate: "3576.17" },
    { effectiveDate: "2026-05-20", currency: "JPY", rate: "22.48" },
  ];
  const last = { effectiveDate: "2026-05-18", currency: "USD", rate: "3575.80" };
  it.each([
    [
      "a date that does not exist",
      '{"RATE_DATE":"2026-04-31","USD":"3,575.99"}',
      [...first, last],
      { kind: "bad-date", effectiveDate: "2026-04-31", source: "data[1]" },
    ],
    [
      "a column that names no currency",
      '{"RATE_DATE":"2026-05-19","BTC":"16,016,753.51","USD":"3,575.99"}',
      [...first, { effectiveDate: "2026-05-19", currency: "USD", rate: "3575.99" }, last],
      { kind: "unknown-currency", currency: "BTC", source: "data[1] BTC" },
    ],
    [
      "a figure in another syntax",
      '{"RATE_DATE":"2026-05-19","USD":"3.575,99","JPY":"22.47"}',
      [...first, { effectiveDate: "2026-05-19", currency: "JPY", rate: "22.47" }, last],
      { kind: "bad-rate", rate: "3.575,99", source: "data[1] USD" },
    ],
  ] as const)("holds %s and takes the other figures", async (_what, bad, records, held) => {
    await expectOneHeld(parse(answer(bad)), { records: [...records], held });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("BOM/001.json");
    const records = await recordsOf(bom.parse(r.body, { url: r.url }));
    expect(records).toHaveLength(76); // 38 columns on 2 days
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    expect(find("2026-05-20", "USD")).toEqual({ effectiveDate: "2026-05-20", currency: "USD", rate: "3576.17" });
    expect(find("2026-05-20", "KWD")).toEqual({ effectiveDate: "2026-05-20", currency: "KWD", rate: "11656.36" });
    expect(find("2026-05-20", "XAU")).toEqual({ effectiveDate: "2026-05-20", currency: "XAU", rate: "16016753.51" });
    expect(find("2026-05-20", "XDR")).toEqual({ effectiveDate: "2026-05-20", currency: "XDR", rate: "4888.48" });
    expect(find("2026-05-19", "USD")).toEqual({ effectiveDate: "2026-05-19", currency: "USD", rate: "3575.99" });
  });

  it("posts the range as JSON", async () => {
    const http = fakeHttp(() => ({ body: '{"success":true,"data":[]}' }));
    await bom.fetch({ kind: "range", from: "2026-05-19", to: "2026-05-20" }, { http, env: {} });
    expect(http.seen).toEqual([
      {
        method: "POST",
        url: "https://www.mongolbank.mn/en/currency-rate-movement/data",
        body: '{"startDate":"2026-05-19","endDate":"2026-05-20"}',
        headers: { "content-type": "application/json" },
      },
    ]);
  });
});
