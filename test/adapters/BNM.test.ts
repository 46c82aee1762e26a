import { describe, expect, it } from "vitest";

import bnm from "../../adapters/BNM.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const API = "https://api.bnm.gov.my/public/exchange-rate";
const parse = (body: Buffer | string) => bnm.parse(Buffer.from(body), { url: `${API}?session=0900` });

describe("BNM adapter", () => {
  it("reads the latest list: middle rate with the float noise removed, per-100 as unitMultiplier, SDR as XDR, nulls skipped", async () => {
    expect(await parse(fixture("BNM/latest.json"))).toEqual([
      {
        effectiveDate: "2026-03-19",
        currency: "INR",
        rate: "4.2244",
        unitMultiplier: 2,
        derivation: "float-recovered",
      },
      { effectiveDate: "2026-03-19", currency: "XDR", rate: "5.3538", derivation: "float-recovered" },
      {
        effectiveDate: "2026-03-19",
        currency: "KHR",
        rate: "0.0976",
        unitMultiplier: 2,
        derivation: "float-recovered",
      },
      { effectiveDate: "2026-03-19", currency: "USD", rate: "3.9300" },
    ]);
  });

  it("flags a recovered figure that rounds up (4.2660999999999998 is 4.2661)", async () => {
    expect(
      await parse(
        '{"data":{"currency_code":"INR","unit":100,"rate":[{"date":"2026-03-05","middle_rate":4.2660999999999998}]}}',
      ),
    ).toEqual([
      {
        effectiveDate: "2026-03-05",
        currency: "INR",
        rate: "4.2661",
        unitMultiplier: 2,
        derivation: "float-recovered",
      },
    ]);
  });

  it("reads a currency-month answer whose rate is an array", async () => {
    expect(await parse(fixture("BNM/usd-month.json"))).toEqual([
      { effectiveDate: "2026-03-02", currency: "USD", rate: "3.9205", derivation: "float-recovered" },
      { effectiveDate: "2026-03-03", currency: "USD", rate: "3.9315", derivation: "float-recovered" },
    ]);
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<!DOCTYPE html><html><body>Request Rejected</body></html>"],
    ["truncated JSON", '{"data":{"currency_code":"USD","unit":1,"rate":[{"date":"2026-03-02","middle_rate":3.92'],
    [
      "another bank's body (CNB)",
      '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.170}]}',
    ],
    [
      "foreign-per-ringgit quotes",
      '{"data":{"currency_code":"USD","unit":1,"rate":[{"date":"2026-03-02","middle_rate":0.2551}]},"meta":{"quote":"fx"}}',
    ],
    [
      "a fractional unit",
      '{"data":{"currency_code":"USD","unit":1.5,"rate":[{"date":"2026-03-02","middle_rate":3.92}]}}',
    ],
    ["a bad date", '{"data":{"currency_code":"USD","unit":1,"rate":[{"date":"02/03/2026","middle_rate":3.92}]}}'],
  ])("rejects %s with an error naming the bank", async (_what, body) => {
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^BNM: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recordings exactly (values read off the files by hand)", async () => {
    const list = recording("BNM/001.json");
    const latest = await bnm.parse(list.body, { url: list.url });
    expect(latest).toHaveLength(27);
    expect(latest.find((x) => x.currency === "SAR")).toEqual({
      effectiveDate: "2026-03-19",
      currency: "SAR",
      rate: "104.6828",
      unitMultiplier: 2,
    });
    expect(latest.find((x) => x.currency === "USD")).toEqual({
      effectiveDate: "2026-03-19",
      currency: "USD",
      rate: "3.93",
      derivation: "float-recovered",
    });
    expect(latest.find((x) => x.currency === "XDR")).toEqual({
      effectiveDate: "2026-03-19",
      currency: "XDR",
      rate: "5.3538",
      derivation: "float-recovered",
    });
    const krw = recording("BNM/010.json");
    const month = await bnm.parse(krw.body, { url: krw.url });
    expect(month).toHaveLength(14);
    expect(month[0]).toEqual({
      effectiveDate: "2026-03-02",
      currency: "KRW",
      rate: "0.269",
      unitMultiplier: 2,
      derivation: "float-recovered",
    });
    expect(month[13]).toEqual({ effectiveDate: "2026-03-19", currency: "KRW", rate: "0.2621", unitMultiplier: 2 });
  });

  it("asks the currency list for the latest, and each listed currency per month for a range", async () => {
    const list =
      '{"data":[{"currency_code":"USD","unit":1,"rate":{"date":"2026-03-19","middle_rate":3.93}},{"currency_code":"SDR","unit":1,"rate":{"date":"2026-03-19","middle_rate":5.35}}]}';
    const latest = fakeHttp(() => ({ body: list }));
    await bnm.fetch({ kind: "latest" }, { http: latest, env: {} });
    expect(latest.seen.map((r) => r.url)).toEqual([`${API}?session=0900`]);
    const http = fakeHttp(() => ({ body: list }));
    await bnm.fetch({ kind: "range", from: "2026-02-20", to: "2026-03-05" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([
      `${API}?session=0900`,
      `${API}/USD/year/2026/month/2?session=0900`,
      `${API}/USD/year/2026/month/3?session=0900`,
      `${API}/SDR/year/2026/month/2?session=0900`,
      `${API}/SDR/year/2026/month/3?session=0900`,
    ]);
  }, 15_000);
});
