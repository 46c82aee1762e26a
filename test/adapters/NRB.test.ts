import { describe, expect, it } from "vitest";

import nrb from "../../adapters/NRB.js";
import type { RateRecord } from "../../src/types.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://www.nrb.org.np/api/forex/v1/rates?from=2026-04-01&page=1&per_page=100&to=2026-04-02";
const parse = (body: Buffer | string) => nrb.parse(Buffer.from(body), { url: URL });
const answer = (payload: string, pages = 1) =>
  `{"status":{"code":200},"data":{"payload":${payload}},"pagination":{"page":1,"pages":${pages}}}`;

describe("NRB adapter", () => {
  it("publishes the exact mean of buy and sell per unit, skipping unquoted currencies and unusable dates", async () => {
    expect(await recordsOf(parse(fixture("NRB/rates.json")))).toEqual([
      { effectiveDate: "2026-04-01", currency: "INR", rate: "160.075", unitMultiplier: 2, derivation: "mean" },
      { effectiveDate: "2026-04-01", currency: "USD", rate: "151.74", derivation: "mean" },
      { effectiveDate: "2026-04-01", currency: "JPY", rate: "9.51", unitMultiplier: 1, derivation: "mean" },
      // Equal sides: the published text itself.
      { effectiveDate: "2026-04-01", currency: "SAR", rate: "40.36" },
      { effectiveDate: "2026-04-02", currency: "EUR", rate: "1174.035", derivation: "mean" },
    ]);
  });

  it("reads a payload sent as a JSON string", async () => {
    const inner = JSON.stringify([
      { date: "2026-04-03", rates: [{ currency: { iso3: "CNY", unit: 1 }, buy: "21.93", sell: "22.01" }] },
    ]);
    expect(await recordsOf(parse(answer(JSON.stringify(inner))))).toEqual([
      { effectiveDate: "2026-04-03", currency: "CNY", rate: "21.97", derivation: "mean" },
    ]);
  });

  itRefusesWhole("NRB", parse, [
    ["a Cloudflare page", "<!DOCTYPE html><html><body>Cloudflare</body></html>"],
    [
      "truncated JSON",
      '{"status":{"code":200},"data":{"payload":[{"date":"2026-04-01","rates":[{"currency":{"iso3":"USD"',
    ],
    ["another bank's body", '[{"fecha":"2026-05-19","tasaEspecial":359.2061}]'],
    ["a day without a rates array", answer('[{"date":"2026-04-01"}]')],
  ]);

  const day = (date: string, bad: string) =>
    answer(
      `[{"date":"2026-04-01","rates":[{"currency":{"iso3":"USD","unit":1},"buy":"151.44","sell":"152.04"},` +
        `{"currency":{"iso3":"JPY","unit":10},"buy":"9.49","sell":"9.53"}]},{"date":"${date}","rates":[${bad}]}]`,
    );
  const taken: RateRecord[] = [
    { effectiveDate: "2026-04-01", currency: "USD", rate: "151.74", derivation: "mean" },
    { effectiveDate: "2026-04-01", currency: "JPY", rate: "9.51", unitMultiplier: 1, derivation: "mean" },
  ];
  it.each([
    [
      "a fractional unit",
      day("2026-04-02", '{"currency":{"iso3":"EUR","unit":1.5},"buy":"1","sell":"2"}'),
      { kind: "unknown-unit", source: "payload[1] (2026-04-02) rates[0]", currency: "EUR" },
    ],
    [
      "a price that is not a number beside one that is",
      day("2026-04-02", '{"currency":{"iso3":"EUR","unit":1},"buy":"-","sell":"1,174.38"}'),
      { kind: "bad-rate", source: "payload[1] (2026-04-02) rates[0]", currency: "EUR", rate: "-" },
    ],
    [
      "a rate under a date that does not exist",
      day("2026-04-31", '{"currency":{"iso3":"EUR","unit":1},"buy":"1,173.69","sell":"1,174.38"}'),
      { kind: "bad-date", source: "payload[1] (2026-04-31) rates[0]", effectiveDate: "2026-04-31" },
    ],
    [
      "a code that is not ISO 4217",
      day("2026-04-02", '{"currency":{"iso3":"EURO","unit":1},"buy":"1,173.69","sell":"1,174.38"}'),
      { kind: "unknown-currency", source: "payload[1] (2026-04-02) rates[0]", currency: "EURO" },
    ],
  ] as const)("holds %s and takes the other rates", async (_what, body, held) => {
    await expectOneHeld(parse(body), { records: taken, held });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("NRB/001.json");
    const records = await recordsOf(nrb.parse(r.body, { url: r.url }));
    expect(records).toHaveLength(66); // 22 currencies on 3 days
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    // INR 100 = 160.00 / 160.15; USD 151.44 / 152.04; JPY 10 = 9.49 / 9.53 (2026-04-01).
    expect(find("2026-04-01", "INR")).toEqual({
      effectiveDate: "2026-04-01",
      currency: "INR",
      rate: "160.075",
      unitMultiplier: 2,
      derivation: "mean",
    });
    expect(find("2026-04-01", "USD")).toEqual({
      effectiveDate: "2026-04-01",
      currency: "USD",
      rate: "151.74",
      derivation: "mean",
    });
    expect(find("2026-04-01", "JPY")).toEqual({
      effectiveDate: "2026-04-01",
      currency: "JPY",
      rate: "9.51",
      unitMultiplier: 1,
      derivation: "mean",
    });
    // KRW 100 = 10.06 / 10.10 on 2026-04-02.
    expect(find("2026-04-02", "KRW")).toEqual({
      effectiveDate: "2026-04-02",
      currency: "KRW",
      rate: "10.08",
      unitMultiplier: 2,
      derivation: "mean",
    });
  });

  it("follows the pages the first answer announces", async () => {
    const http = fakeHttp(() => ({ body: answer("[]", 3) }));
    await nrb.fetch({ kind: "range", from: "2026-01-01", to: "2026-03-31" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual(
      [1, 2, 3].map(
        (p) => `https://www.nrb.org.np/api/forex/v1/rates?from=2026-01-01&page=${p}&per_page=100&to=2026-03-31`,
      ),
    );
  });
});
