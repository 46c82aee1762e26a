import { describe, expect, it } from "vitest";

import nbg from "../../adapters/NBG.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const API = "https://nbg.gov.ge/gw/api/ct/monetarypolicy/currencies/";
const parse = (body: Buffer | string) => nbg.parse(Buffer.from(body), { url: `${API}?date=2026-03-02` });

describe("NBG adapter", () => {
  it("dates the set by its own date, keeps the bank's four-decimal text and the quantity as unitMultiplier", async () => {
    expect(await recordsOf(parse(fixture("NBG/currencies.json")))).toEqual([
      { effectiveDate: "2026-02-28", currency: "AMD", rate: "7.0960", unitMultiplier: 3 },
      { effectiveDate: "2026-02-28", currency: "EUR", rate: "3.1581" },
      { effectiveDate: "2026-02-28", currency: "IRR", rate: "0.0204", unitMultiplier: 4 },
      { effectiveDate: "2026-02-28", currency: "USD", rate: "2.6759" },
    ]);
  });

  it("reads a day without data ([]) as no records", async () => {
    expect(await recordsOf(parse("[]"))).toEqual([]);
  });

  itRefusesWhole("NBG", parse, [
    ["truncated JSON", '[{"date":"2026-02-28T00:00:00.000Z","currencies":[{"code":"EUR","quantity":1,"rate":3.15'],
    [
      "another bank's body (CNB)",
      '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.170}]}',
    ],
    ["an array of something else", '[{"seriesId":"SEKUSDPMI","date":"2026-03-24","value":9.4}]'],
  ]);

  const set = (date: string, ...currencies: string[]) => `[{"date":"${date}","currencies":[${currencies.join(",")}]}]`;
  const eur = '{"code":"EUR","quantity":1,"rateFormated":"3.1581","rate":3.1581}';
  const usd = '{"code":"USD","quantity":1,"rate":2.6759}';
  it.each([
    [
      "a rate and a formatted rate that differ",
      '{"code":"GBP","quantity":1,"rateFormated":"3.6218","rate":3.6281}',
      { kind: "conflict", currency: "GBP" },
    ],
    ["a fractional quantity", '{"code":"GBP","quantity":1.5,"rate":3.6281}', { kind: "unknown-unit" }],
    ["a zero rate", '{"code":"GBP","quantity":1,"rate":0}', { kind: "bad-rate", rate: "0" }],
    ["a code that is not ISO 4217", '{"code":"G$P","quantity":1,"rate":3.6281}', { kind: "unknown-currency" }],
  ] as const)("holds %s and takes the other currencies", async (_what, bad, held) => {
    await expectOneHeld(parse(set("2026-02-28T00:00:00.000Z", eur, bad, usd)), {
      records: [
        { effectiveDate: "2026-02-28", currency: "EUR", rate: "3.1581" },
        { effectiveDate: "2026-02-28", currency: "USD", rate: "2.6759" },
      ],
      held: { ...held, source: "set of 2026-02-28 currencies[1]" },
    });
  });

  it("holds every currency of a set whose date is not a date", async () => {
    const answer = await answerOf(parse(set("28.02.2026", eur, usd)));
    expect(answer.records).toEqual([]);
    expect(answer.held.map((h) => [h.kind, h.currency])).toEqual([
      ["bad-date", "EUR"],
      ["bad-date", "USD"],
    ]);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("NBG/001.json");
    const records = await recordsOf(nbg.parse(r.body, { url: r.url }));
    expect(records).toHaveLength(42);
    expect(records.every((x) => x.effectiveDate === "2026-02-28")).toBe(true);
    expect(records.find((x) => x.currency === "USD")).toEqual({
      effectiveDate: "2026-02-28",
      currency: "USD",
      rate: "2.6759",
    });
    expect(records.find((x) => x.currency === "UZS")).toEqual({
      effectiveDate: "2026-02-28",
      currency: "UZS",
      rate: "0.2200",
      unitMultiplier: 3,
    });
    expect(records.find((x) => x.currency === "KRW")).toEqual({
      effectiveDate: "2026-02-28",
      currency: "KRW",
      rate: "1.8578",
      unitMultiplier: 3,
    });
  });

  it("asks every day but Sunday of a range, and today and tomorrow for the latest", async () => {
    const http = fakeHttp(() => ({ body: "[]" }));
    await nbg.fetch({ kind: "range", from: "2026-02-27", to: "2026-03-02" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([
      `${API}?date=2026-02-27`,
      `${API}?date=2026-02-28`,
      `${API}?date=2026-03-02`,
    ]);
    const latest = fakeHttp(() => ({ body: "[]" }));
    await nbg.fetch({ kind: "latest" }, { http: latest, env: {} });
    expect(latest.seen).toHaveLength(2);
    for (const r of latest.seen) expect(r.url).toMatch(/currencies\/\?date=\d{4}-\d{2}-\d{2}$/);
  });
});
