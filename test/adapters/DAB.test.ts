import { describe, expect, it } from "vitest";

import dab, { DAB_LABELS, dabLabelKey } from "../../adapters/DAB.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://www.dab.gov.af/exchange-rates?field_date_value=2026-05-18";
const parse = (body: Buffer | string) => dab.parse(Buffer.from(body), { url: URL });

describe("DAB adapter", () => {
  it("keeps the exact mean of the transfer figures of the daily table, the toman as 10 IRR", async () => {
    expect(await parse(fixture("DAB/day.html"))).toEqual([
      { effectiveDate: "2026-05-18", currency: "USD", rate: "63.9767", derivation: "mean" },
      { effectiveDate: "2026-05-18", currency: "EUR", rate: "73.6538", derivation: "mean" },
      { effectiveDate: "2026-05-18", currency: "INR", rate: "0.7455", derivation: "mean" },
      { effectiveDate: "2026-05-18", currency: "IRR", rate: "0.0006", unitMultiplier: 1, derivation: "mean" },
      { effectiveDate: "2026-05-18", currency: "SAR", rate: "16.6627", derivation: "mean" },
    ]);
  });

  it("reads a holiday page as no records", async () => {
    expect(await parse(fixture("DAB/holiday.html"))).toEqual([]);
  });

  it("maps the symbol-laden labels to ISO codes", () => {
    expect(DAB_LABELS[dabLabelKey("EURO€")]?.currency).toBe("EUR");
    expect(DAB_LABELS[dabLabelKey("SWISS₣")]?.currency).toBe("CHF");
    expect(DAB_LABELS[dabLabelKey("POUND£")]?.currency).toBe("GBP");
    expect(DAB_LABELS[dabLabelKey("CNY¥")]?.currency).toBe("CNY");
    expect(DAB_LABELS[dabLabelKey("PAKISTAN Rs.")]?.currency).toBe("PKR");
    expect(DAB_LABELS[dabLabelKey("UAE DIRHAM")]?.currency).toBe("AED");
  });

  it.each([
    ["an empty body", ""],
    ["an HTML error page", "<!DOCTYPE html><html><body><h1>Service Unavailable</h1></body></html>"],
    ["a truncated page", fixture("DAB/day.html").toString().slice(0, 1500)],
    [
      "another bank's body",
      "<h2>Cours des devises du lundi 16 mars 2026</h2><table><tr><th>Devise</th><th>CFA</th></tr></table>",
    ],
    ["a missing column label", fixture("DAB/no-transfer-sell.html").toString()],
    ["an unknown currency label", fixture("DAB/unknown-label.html").toString()],
  ])("rejects %s with an error naming the bank", async (_what, body) => {
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^DAB: /);
  });

  it("asks the undated page for the latest and one page per day but Friday for a range", async () => {
    const http = fakeHttp(() => ({ body: "" }));
    await dab.fetch({ kind: "latest" }, { http, env: {} });
    await dab.fetch({ kind: "range", from: "2026-05-14", to: "2026-05-16" }, { http, env: {} });
    expect(http.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      "GET https://www.dab.gov.af/exchange-rates",
      "GET https://www.dab.gov.af/exchange-rates?field_date_value=2026-05-14",
      "GET https://www.dab.gov.af/exchange-rates?field_date_value=2026-05-16",
    ]);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded days exactly (values read off the files by hand)", async () => {
    const r1 = recording("DAB/001.html");
    const day1 = await dab.parse(r1.body, { url: r1.url });
    expect(day1).toHaveLength(10);
    // USD$: transfer sell 64.0267, transfer buy 63.9267.
    expect(day1[0]).toEqual({ effectiveDate: "2026-05-18", currency: "USD", rate: "63.9767", derivation: "mean" });
    // IRAN Toman: transfer sell 0.0008, transfer buy 0.0004 (per 10 IRR).
    expect(day1.find((x) => x.currency === "IRR")).toEqual({
      effectiveDate: "2026-05-18",
      currency: "IRR",
      rate: "0.0006",
      unitMultiplier: 1,
      derivation: "mean",
    });
    // SAUDI RIYAL: 16.6927 and 16.6327.
    expect(day1.at(-1)).toEqual({ effectiveDate: "2026-05-18", currency: "SAR", rate: "16.6627", derivation: "mean" });
    const r2 = recording("DAB/002.html");
    // USD$ on 19 May: 63.7736 and 63.6736.
    expect((await dab.parse(r2.body, { url: r2.url }))[0]).toEqual({
      effectiveDate: "2026-05-19",
      currency: "USD",
      rate: "63.7236",
      derivation: "mean",
    });
  });
});
