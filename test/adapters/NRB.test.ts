import { describe, expect, it } from "vitest";

import nrb from "../../adapters/NRB.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://www.nrb.org.np/api/forex/v1/rates?from=2026-04-01&page=1&per_page=100&to=2026-04-02";
const parse = (body: Buffer | string) => nrb.parse(Buffer.from(body), { url: URL });
const answer = (payload: string, pages = 1) =>
  `{"status":{"code":200},"data":{"payload":${payload}},"pagination":{"page":1,"pages":${pages}}}`;

describe("NRB adapter", () => {
  it("publishes the exact mean of buy and sell per unit, skipping unquoted currencies and unusable dates", async () => {
    expect(await parse(fixture("NRB/rates.json"))).toEqual([
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
    expect(await parse(answer(JSON.stringify(inner)))).toEqual([
      { effectiveDate: "2026-04-03", currency: "CNY", rate: "21.97", derivation: "mean" },
    ]);
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<!DOCTYPE html><html><body>Cloudflare</body></html>"],
    [
      "truncated JSON",
      '{"status":{"code":200},"data":{"payload":[{"date":"2026-04-01","rates":[{"currency":{"iso3":"USD"',
    ],
    ["another bank's body", '[{"fecha":"2026-05-19","tasaEspecial":359.2061}]'],
    ["a day without rates", answer('[{"date":"2026-04-01"}]')],
    [
      "a fractional unit",
      answer('[{"date":"2026-04-01","rates":[{"currency":{"iso3":"USD","unit":1.5},"buy":"1","sell":"2"}]}]'),
    ],
    [
      "a non-decimal price",
      answer('[{"date":"2026-04-01","rates":[{"currency":{"iso3":"USD","unit":1},"buy":"-","sell":"2"}]}]'),
    ],
  ])("rejects %s with an error naming the bank", async (_what, body) => {
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^NRB: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("NRB/001.json");
    const records = await nrb.parse(r.body, { url: r.url });
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
