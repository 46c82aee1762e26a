import { describe, expect, it } from "vitest";

import nbe from "../../adapters/NBE.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const parse = (body: Buffer | string) =>
  nbe.parse(Buffer.from(body), { url: "https://api.nbe.gov.et/api/filter-exchange-rates?date=2026-05-18" });

describe("NBE adapter", () => {
  it("takes weighted_average as published (string or number), and skips a null", async () => {
    expect(await recordsOf(parse(fixture("NBE/filter-exchange-rates.json")))).toEqual([
      { effectiveDate: "2026-05-18", currency: "JPY", rate: "0.9965" },
      { effectiveDate: "2026-05-18", currency: "XDR", rate: "216.8410" },
      { effectiveDate: "2026-05-18", currency: "USD", rate: "157.227" },
      { effectiveDate: "2026-05-18", currency: "DKK", rate: "24.58390" },
    ]);
  });

  itRefusesWhole("NBE", parse, [
    ["truncated JSON", '{"success":true,"data":[{"date":"2026-05-18","weighted_average":"0.99'],
    ["another bank's body", '[{"fecha":"2026-05-19","tasaOficial":24,"tasaPublica":120,"tasaEspecial":502}]'],
    ["a failure answer", '{"success":false,"message":"error","data":[]}'],
  ]);

  it("reads the currency from its name through ICU when the code is missing", async () => {
    expect(
      await recordsOf(
        parse('{"success":true,"data":[{"date":"2026-05-18","weighted_average":"183.1","currency":{"name":"EURO"}}]}'),
      ),
    ).toEqual([{ effectiveDate: "2026-05-18", currency: "EUR", rate: "183.1" }]);
  });

  const row = (date: string, average: string, currency: string) =>
    `{"date":"${date}","weighted_average":${average},"currency":${currency}}`;
  const good = [
    row("2026-05-18", '"0.9965"', '{"name":"JAPANESE YEN","code":"JPY"}'),
    row("2026-05-18", "157.227", '{"code":"USD"}'),
  ];
  it.each([
    ["a figure that is not a number", row("2026-05-18", '"N/A"', '{"code":"EUR"}'), { kind: "bad-rate", rate: "N/A" }],
    [
      "a currency no code or name tells",
      row("2026-05-18", '"1.2"', '{"name":"BIRR GOLD"}'),
      { kind: "unknown-currency" },
    ],
    ["a date that does not exist", row("2026-02-30", '"183.1"', '{"code":"EUR"}'), { kind: "bad-date" }],
  ] as const)("holds %s and takes the other rows", async (_what, bad, held) => {
    await expectOneHeld(parse(`{"success":true,"data":[${good[0]},${bad},${good[1]}]}`), {
      records: [
        { effectiveDate: "2026-05-18", currency: "JPY", rate: "0.9965" },
        { effectiveDate: "2026-05-18", currency: "USD", rate: "157.227" },
      ],
      held: { ...held, source: "data[1]" },
    });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded days exactly (values read off the files by hand)", async () => {
    const first = recording("NBE/001.json");
    const day1 = await recordsOf(nbe.parse(first.body, { url: first.url }));
    expect(day1).toHaveLength(19);
    expect(day1.find((r) => r.currency === "JPY")).toEqual({
      effectiveDate: "2026-05-18",
      currency: "JPY",
      rate: "0.9965",
    });
    expect(day1.find((r) => r.currency === "USD")).toEqual({
      effectiveDate: "2026-05-18",
      currency: "USD",
      rate: "157.227",
    });
    expect(day1.find((r) => r.currency === "XDR")).toEqual({
      effectiveDate: "2026-05-18",
      currency: "XDR",
      rate: "216.8414",
    });
    const second = recording("NBE/002.json");
    const day2 = await recordsOf(nbe.parse(second.body, { url: second.url }));
    expect(day2.find((r) => r.currency === "GBP")).toEqual({
      effectiveDate: "2026-05-19",
      currency: "GBP",
      rate: "211.0203",
    });
  });

  it("asks one date per weekday of the range", async () => {
    const http = fakeHttp(() => ({ body: '{"success":true,"data":[]}' }));
    await nbe.fetch({ kind: "range", from: "2026-05-15", to: "2026-05-19" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([
      "https://api.nbe.gov.et/api/filter-exchange-rates?date=2026-05-15",
      "https://api.nbe.gov.et/api/filter-exchange-rates?date=2026-05-18",
      "https://api.nbe.gov.et/api/filter-exchange-rates?date=2026-05-19",
    ]);
    const latest = fakeHttp(() => ({ body: '{"success":true,"data":[]}' }));
    await nbe.fetch({ kind: "latest" }, { http: latest, env: {} });
    expect(latest.seen.length).toBeGreaterThanOrEqual(2);
    for (const r of latest.seen)
      expect(r.url).toMatch(/^https:\/\/api\.nbe\.gov\.et\/api\/filter-exchange-rates\?date=\d{4}-\d{2}-\d{2}$/);
  });
});
