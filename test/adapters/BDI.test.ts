import { describe, expect, it } from "vitest";

import bdi from "../../adapters/BDI.js";
import { gateRecords } from "../../src/ingest/validate.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const ENDPOINT = "https://tassidicambio.bancaditalia.it/terzevalute-wf-web/rest/v1.0/dailyRates";
const parse = (body: Buffer | string) =>
  bdi.parse(Buffer.from(body), { url: `${ENDPOINT}?referenceDate=2026-02-09&currencyIsoCode=EUR&lang=en` });
const HEADER = "Country,Currency,ISO Code,UIC Code,Rate,Rate convention,Reference date (CET)";

describe("BDI adapter", () => {
  it("keeps the published digits, skips N.A., folds the one-row-per-country duplicates and ignores the disclaimer", async () => {
    const answer = await answerOf(parse(fixture("BDI/dailyRates.csv")));
    expect(gateRecords("EUR", answer.records, answer.held)).toEqual({
      records: [
        { effectiveDate: "2026-02-09", currency: "BBD", rate: "2.377200" },
        { effectiveDate: "2026-02-09", currency: "XOF", rate: "655.957" },
        { effectiveDate: "2026-02-09", currency: "XDR", rate: "0.863189" },
        { effectiveDate: "2026-02-09", currency: "KRW", rate: "1729.87" },
        { effectiveDate: "2026-02-09", currency: "VND", rate: "30832" },
      ],
      held: [],
    });
  });

  itRefusesWhole("BDI", parse, [
    ["a truncated row", `${HEADER}\nALBANIA,Lek,ALL,047,96.74,Foreign curr`],
    [
      "another bank's body (ECB SDMX-CSV)",
      "KEY,FREQ,CURRENCY,CURRENCY_DENOM,EXR_TYPE,EXR_SUFFIX,TIME_PERIOD,OBS_VALUE\nEXR.D.USD.EUR.SP00.A,D,USD,EUR,SP00,A,2026-02-09,1.1886",
    ],
    [
      "another rate convention throughout",
      `${HEADER}\nALBANIA,Lek,ALL,047,0.0103,Euro amount for 1 foreign currency.,2026-02-09`,
    ],
    ["an unclosed quote", `${HEADER}\n"ALBANIA,Lek,ALL,047,96.74,Foreign currency amount for 1 Euro.,2026-02-09`],
  ]);

  const line = (
    country: string,
    code: string,
    rate: string,
    convention = "Foreign currency amount for 1 Euro.",
    date = "2026-02-09",
  ) => `${country},Currency,${code},000,${rate},${convention},${date}`;
  const day = (bad: string) =>
    [
      HEADER,
      line("ALBANIA", "ALL", "96.74"),
      bad,
      line("ALGERIA", "DZD", "154.1592"),
      "# Banca d'Italia: notices",
    ].join("\n");
  const taken = [
    { effectiveDate: "2026-02-09", currency: "ALL", rate: "96.74" },
    { effectiveDate: "2026-02-09", currency: "DZD", rate: "154.1592" },
  ];
  it.each([
    ["a bad rate", line("ANGOLA", "AOA", "1089;423"), { kind: "bad-rate", currency: "AOA", rate: "1089;423" }],
    [
      "a row of another convention",
      line("ANGOLA", "AOA", "0.000918", "Euro amount for 1 foreign currency."),
      { kind: "bad-row", currency: "AOA" },
    ],
    [
      "a date that does not exist",
      line("ANGOLA", "AOA", "1089.423", undefined, "2026-02-30"),
      { kind: "bad-date", effectiveDate: "2026-02-30" },
    ],
    ["a row of too many fields", `${line("ANGOLA", "AOA", "1089.423")},x`, { kind: "bad-row", currency: "AOA" }],
  ] as const)("holds %s and takes the other rows", async (_what, bad, held) => {
    await expectOneHeld(parse(day(bad)), { records: taken, held: { ...held, source: "line 3" } });
  });

  it("passes two different rates for one currency to the gate, which holds both", async () => {
    const body = [
      HEADER,
      line("BENIN", "XOF", "655.957"),
      line("MALI", "XOF", "655.95"),
      line("ALBANIA", "ALL", "96.74"),
    ].join("\n");
    const answer = await answerOf(parse(body));
    const gated = gateRecords("EUR", answer.records, answer.held);
    expect(gated.records).toEqual([{ effectiveDate: "2026-02-09", currency: "ALL", rate: "96.74" }]);
    expect(gated.held.map((h) => [h.kind, h.rate])).toEqual([
      ["conflict", "655.957"],
      ["conflict", "655.95"],
    ]);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recordings exactly (values read off the files by hand)", async () => {
    const r = recording("BDI/001.csv");
    const records = await recordsOf(bdi.parse(r.body, { url: r.url }));
    const find = (currency: string) => records.find((x) => x.currency === currency);
    expect(find("AFN")).toEqual({ effectiveDate: "2026-02-09", currency: "AFN", rate: "75.5197" });
    expect(find("BBD")).toEqual({ effectiveDate: "2026-02-09", currency: "BBD", rate: "2.377200" });
    expect(find("XDR")).toEqual({ effectiveDate: "2026-02-09", currency: "XDR", rate: "0.863189" });
    expect(find("VES")).toEqual({ effectiveDate: "2026-02-09", currency: "VES", rate: "454.2277" });
    expect(find("BYN")).toBeUndefined();
    // One XOF row per country, the same figure each time: the ingest gate folds them into one.
    expect(new Set(records.filter((x) => x.currency === "XOF").map((x) => x.rate)).size).toBe(1);
    const r2 = recording("BDI/002.csv");
    expect((await recordsOf(bdi.parse(r2.body, { url: r2.url }))).every((x) => x.effectiveDate === "2026-02-10")).toBe(
      true,
    );
  });

  it("asks one URL per weekday of a range, and the last three weekdays for the latest", async () => {
    const http = fakeHttp(() => ({ body: HEADER }));
    await bdi.fetch({ kind: "range", from: "2026-02-06", to: "2026-02-09" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([
      `${ENDPOINT}?referenceDate=2026-02-06&currencyIsoCode=EUR&lang=en`,
      `${ENDPOINT}?referenceDate=2026-02-09&currencyIsoCode=EUR&lang=en`,
    ]);
    const latest = fakeHttp(() => ({ body: HEADER }));
    await bdi.fetch({ kind: "latest" }, { http: latest, env: {} });
    expect(latest.seen.length).toBeGreaterThanOrEqual(2);
    expect(latest.seen.length).toBeLessThanOrEqual(3);
    for (const r of latest.seen)
      expect(r.url).toMatch(/\?referenceDate=\d{4}-\d{2}-\d{2}&currencyIsoCode=EUR&lang=en$/);
  });
});
