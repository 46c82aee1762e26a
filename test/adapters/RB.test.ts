import { describe, expect, it } from "vitest";

import rb from "../../adapters/RB.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://api.riksbank.se/swea/v1/Observations/ByGroup/130/2026-03-24/2026-03-25";
const parse = (body: Buffer | string) => rb.parse(Buffer.from(body), { url: URL });

describe("RB adapter", () => {
  it("keeps the JSON digits, drops SEKETT and nulls, and calls the pre-1999 EUR series XEU", async () => {
    expect(await recordsOf(parse(fixture("RB/observations.json")))).toEqual([
      { effectiveDate: "1998-12-30", currency: "XEU", rate: "9.4880" },
      { effectiveDate: "1999-01-04", currency: "EUR", rate: "9.4696" },
      { effectiveDate: "2026-03-24", currency: "IDR", rate: "0.00055" },
      { effectiveDate: "2026-03-24", currency: "AUD", rate: "6.5" },
      { effectiveDate: "2026-03-24", currency: "USD", rate: "9.40100" },
    ]);
  });

  itRefusesWhole("RB", parse, [
    ["a too-many-requests page", "<!DOCTYPE html><html><body>Too many requests</body></html>"],
    ["truncated JSON", '[{"seriesId":"SEKUSDPMI","date":"2026-03-24","value":9.40'],
    ["another bank's body", '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.1}]}'],
    ["an array of another bank's rows", '[{"exchangedate":"06.03.2026","cc":"USD","rate":43.806,"units":1}]'],
  ]);

  const good =
    '{"seriesId":"SEKUSDPMI","date":"2026-03-24","value":9.40100},{"seriesId":"SEKJPYPMI","date":"2026-03-24","value":0.05885}';
  const taken = [
    { effectiveDate: "2026-03-24", currency: "USD", rate: "9.40100" },
    { effectiveDate: "2026-03-24", currency: "JPY", rate: "0.05885" },
  ];
  it.each([
    [
      "a series of another shape",
      '{"seriesId":"SECBREPOEFF","date":"2026-03-24","value":1.75}',
      { kind: "unknown-currency", source: "observation 3 (SECBREPOEFF)", currency: "SECBREPOEFF" },
    ],
    [
      "a date in another format",
      '{"seriesId":"SEKEURPMI","date":"24/03/2026","value":10.8}',
      { kind: "bad-date", source: "observation 3 (SEKEURPMI)", effectiveDate: "24/03/2026" },
    ],
    [
      "a value that is not a number",
      '{"seriesId":"SEKEURPMI","date":"2026-03-24","value":"n/a"}',
      { kind: "bad-rate", source: "observation 3 (SEKEURPMI)", rate: "n/a" },
    ],
  ] as const)("holds %s and takes the other observations", async (_what, bad, held) => {
    await expectOneHeld(parse(`[${good},${bad}]`), { records: taken, held });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("RB/001.json");
    const records = await recordsOf(rb.parse(r.body, { url: r.url }));
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    expect(records).toHaveLength(58);
    expect(find("2026-03-24", "AUD")).toEqual({ effectiveDate: "2026-03-24", currency: "AUD", rate: "6.5" });
    expect(find("2026-03-25", "AUD")).toEqual({ effectiveDate: "2026-03-25", currency: "AUD", rate: "6.47054" });
    expect(find("2026-03-24", "JPY")).toEqual({ effectiveDate: "2026-03-24", currency: "JPY", rate: "0.05885" });
    expect(find("2026-03-25", "IDR")).toEqual({ effectiveDate: "2026-03-25", currency: "IDR", rate: "0.00055" });
    expect(records.some((x) => x.currency === "ETT")).toBe(false);
  });

  it("asks group 130 over the range", async () => {
    const http = fakeHttp(() => ({ body: "[]" }));
    await rb.fetch({ kind: "range", from: "2026-03-24", to: "2026-03-25" }, { http, env: {} });
    await rb.fetch({ kind: "latest" }, { http, env: {} });
    expect(http.seen[0]!.url).toBe("https://api.riksbank.se/swea/v1/Observations/ByGroup/130/2026-03-24/2026-03-25");
    expect(http.seen[1]!.url).toMatch(
      /^https:\/\/api\.riksbank\.se\/swea\/v1\/Observations\/ByGroup\/130\/\d{4}-\d{2}-\d{2}\/\d{4}-\d{2}-\d{2}$/,
    );
  });
});
