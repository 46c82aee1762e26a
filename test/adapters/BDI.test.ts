import { describe, expect, it } from "vitest";

import bdi from "../../adapters/BDI.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const ENDPOINT = "https://tassidicambio.bancaditalia.it/terzevalute-wf-web/rest/v1.0/dailyRates";
const parse = (body: Buffer | string) =>
  bdi.parse(Buffer.from(body), { url: `${ENDPOINT}?referenceDate=2026-02-09&currencyIsoCode=EUR&lang=en` });
const HEADER = "Country,Currency,ISO Code,UIC Code,Rate,Rate convention,Reference date (CET)";

describe("BDI adapter", () => {
  it("keeps the published digits, skips N.A., folds the one-row-per-country duplicates and ignores the disclaimer", async () => {
    expect(await parse(fixture("BDI/dailyRates.csv"))).toEqual([
      { effectiveDate: "2026-02-09", currency: "BBD", rate: "2.377200" },
      { effectiveDate: "2026-02-09", currency: "XOF", rate: "655.957" },
      { effectiveDate: "2026-02-09", currency: "XDR", rate: "0.863189" },
      { effectiveDate: "2026-02-09", currency: "KRW", rate: "1729.87" },
      { effectiveDate: "2026-02-09", currency: "VND", rate: "30832" },
    ]);
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<!DOCTYPE html><html><body>Errore</body></html>"],
    ["a truncated row", `${HEADER}\nALBANIA,Lek,ALL,047,96.74,Foreign curr`],
    [
      "another bank's body (ECB SDMX-CSV)",
      "KEY,FREQ,CURRENCY,CURRENCY_DENOM,EXR_TYPE,EXR_SUFFIX,TIME_PERIOD,OBS_VALUE\nEXR.D.USD.EUR.SP00.A,D,USD,EUR,SP00,A,2026-02-09,1.1886",
    ],
    ["another rate convention", `${HEADER}\nALBANIA,Lek,ALL,047,0.0103,Euro amount for 1 foreign currency.,2026-02-09`],
    [
      "two different rates for one currency",
      `${HEADER}\nBENIN,CFA,XOF,209,655.957,Foreign currency amount for 1 Euro.,2026-02-09\nMALI,CFA,XOF,209,655.95,Foreign currency amount for 1 Euro.,2026-02-09`,
    ],
    ["a bad rate", `${HEADER}\nALBANIA,Lek,ALL,047,96;74,Foreign currency amount for 1 Euro.,2026-02-09`],
  ])("rejects %s with an error naming the bank", async (_what, body) => {
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^BDI: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recordings exactly (values read off the files by hand)", async () => {
    const r = recording("BDI/001.csv");
    const records = await bdi.parse(r.body, { url: r.url });
    const find = (currency: string) => records.find((x) => x.currency === currency);
    expect(find("AFN")).toEqual({ effectiveDate: "2026-02-09", currency: "AFN", rate: "75.5197" });
    expect(find("BBD")).toEqual({ effectiveDate: "2026-02-09", currency: "BBD", rate: "2.377200" });
    expect(find("XDR")).toEqual({ effectiveDate: "2026-02-09", currency: "XDR", rate: "0.863189" });
    expect(find("VES")).toEqual({ effectiveDate: "2026-02-09", currency: "VES", rate: "454.2277" });
    expect(find("BYN")).toBeUndefined();
    expect(records.filter((x) => x.currency === "XOF")).toHaveLength(1);
    const r2 = recording("BDI/002.csv");
    expect((await bdi.parse(r2.body, { url: r2.url })).every((x) => x.effectiveDate === "2026-02-10")).toBe(true);
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
