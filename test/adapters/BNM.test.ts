import { describe, expect, it } from "vitest";

import bnm from "../../adapters/BNM.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const API = "https://api.bnm.gov.my/public/exchange-rate";
const parse = (body: Buffer | string) => bnm.parse(Buffer.from(body), { url: `${API}?session=0900` });

describe("BNM adapter", () => {
  it("reads the latest list: middle rate with the float noise removed, per-100 as unitMultiplier, SDR as XDR, nulls skipped", async () => {
    expect(await recordsOf(parse(fixture("BNM/latest.json")))).toEqual([
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
      await recordsOf(
        parse(
          '{"data":{"currency_code":"INR","unit":100,"rate":[{"date":"2026-03-05","middle_rate":4.2660999999999998}]}}',
        ),
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
    expect(await recordsOf(parse(fixture("BNM/usd-month.json")))).toEqual([
      { effectiveDate: "2026-03-02", currency: "USD", rate: "3.9205", derivation: "float-recovered" },
      { effectiveDate: "2026-03-03", currency: "USD", rate: "3.9315", derivation: "float-recovered" },
    ]);
  });

  itRefusesWhole("BNM", parse, [
    ["truncated JSON", '{"data":{"currency_code":"USD","unit":1,"rate":[{"date":"2026-03-02","middle_rate":3.92'],
    [
      "another bank's body (CNB)",
      '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.170}]}',
    ],
    [
      "foreign-per-ringgit quotes",
      '{"data":{"currency_code":"USD","unit":1,"rate":[{"date":"2026-03-02","middle_rate":0.2551}]},"meta":{"quote":"fx"}}',
    ],
  ]);

  const listWith = (bad: string) =>
    `{"data":[{"currency_code":"USD","unit":1,"rate":{"date":"2026-03-19","middle_rate":3.9300}},${bad},` +
    `{"currency_code":"JPY","unit":100,"rate":{"date":"2026-03-19","middle_rate":2.6405}}],"meta":{"quote":"rm"}}`;
  it.each([
    [
      "a fractional unit",
      '{"currency_code":"EUR","unit":1.5,"rate":{"date":"2026-03-19","middle_rate":4.5}}',
      { kind: "unknown-unit", currency: "EUR" },
    ],
    [
      "a date that does not exist",
      '{"currency_code":"EUR","unit":1,"rate":{"date":"2026-02-30","middle_rate":4.5}}',
      { kind: "bad-date", effectiveDate: "2026-02-30" },
    ],
    [
      "a figure that is not a number",
      '{"currency_code":"EUR","unit":1,"rate":{"date":"2026-03-19","middle_rate":"4,5"}}',
      { kind: "bad-rate", rate: "4,5" },
    ],
    [
      "a code that is not ISO 4217",
      '{"currency_code":"EURO","unit":1,"rate":{"date":"2026-03-19","middle_rate":4.5}}',
      { kind: "unknown-currency", currency: "EURO" },
    ],
  ] as const)("holds %s and takes the other currencies", async (_what, bad, held) => {
    await expectOneHeld(parse(listWith(bad)), {
      records: [
        { effectiveDate: "2026-03-19", currency: "USD", rate: "3.9300" },
        { effectiveDate: "2026-03-19", currency: "JPY", rate: "2.6405", unitMultiplier: 2 },
      ],
      held: { ...held, source: "data[1].rate" },
    });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recordings exactly (values read off the files by hand)", async () => {
    const list = recording("BNM/001.json");
    const latest = await recordsOf(bnm.parse(list.body, { url: list.url }));
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
    const month = await recordsOf(bnm.parse(krw.body, { url: krw.url }));
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
