import { describe, expect, it } from "vitest";

import dab, { dabCurrency } from "../../adapters/DAB.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://www.dab.gov.af/exchange-rates?field_date_value=2026-05-18";
const parse = (body: Buffer | string) => dab.parse(Buffer.from(body), { url: URL });

describe("DAB adapter", () => {
  it("keeps the exact mean of the transfer figures of the daily table, the toman as 10 IRR", async () => {
    expect(await recordsOf(parse(fixture("DAB/day.html")))).toEqual([
      { effectiveDate: "2026-05-18", currency: "USD", rate: "63.9767", derivation: "mean" },
      { effectiveDate: "2026-05-18", currency: "EUR", rate: "73.6538", derivation: "mean" },
      { effectiveDate: "2026-05-18", currency: "INR", rate: "0.7455", derivation: "mean" },
      { effectiveDate: "2026-05-18", currency: "IRR", rate: "0.0006", unitMultiplier: 1, derivation: "mean" },
      { effectiveDate: "2026-05-18", currency: "SAR", rate: "16.6627", derivation: "mean" },
    ]);
  });

  it("reads a holiday page as the bank saying that no rates were published", async () => {
    expect(await answerOf(parse(fixture("DAB/holiday.html")))).toEqual({
      records: [],
      held: [],
      noPublication: "There were no results: no rates for the day asked",
    });
  });

  it("reads the symbol-laden labels through ICU's names and the bank's abbreviations, the toman per 10 IRR", () => {
    const labels = [
      "USD$",
      "EURO€",
      "POUND£",
      "SWISS₣",
      "INDIAN Rs.",
      "PAKISTAN Rs.",
      "IRAN Toman",
      "CNY¥",
      "UAE DIRHAM",
      "SAUDI RIYAL",
    ];
    expect(dabCurrency("SWISS₣", "2026-03-02")).toEqual({
      currency: "CHF",
      derivation: 'name "SWISS" resolved by territory CH',
      units: "1",
    });
    expect(labels.map((l) => `${dabCurrency(l).currency} ${dabCurrency(l).units}`)).toEqual([
      "USD 1",
      "EUR 1",
      "GBP 1",
      "CHF 1",
      "INR 1",
      "PKR 1",
      "IRR 10",
      "CNY 1",
      "AED 1",
      "SAR 1",
    ]);
  });

  itRefusesWhole("DAB", parse, [
    ["a truncated page", fixture("DAB/day.html").toString().slice(0, 1500)],
    [
      "another bank's body",
      "<h2>Cours des devises du lundi 16 mars 2026</h2><table><tr><th>Devise</th><th>CFA</th></tr></table>",
    ],
    ["a missing column label", fixture("DAB/no-transfer-sell.html").toString()],
  ]);

  const day = fixture("DAB/day.html").toString();
  const taken = [
    { effectiveDate: "2026-05-18", currency: "USD", rate: "63.9767", derivation: "mean" as const },
    { effectiveDate: "2026-05-18", currency: "EUR", rate: "73.6538", derivation: "mean" as const },
    { effectiveDate: "2026-05-18", currency: "INR", rate: "0.7455", derivation: "mean" as const },
    { effectiveDate: "2026-05-18", currency: "IRR", rate: "0.0006", unitMultiplier: 1, derivation: "mean" as const },
  ];
  it.each([
    [
      "an unknown currency label",
      ["SAUDI RIYAL", "AFGHAN GOLD"],
      { kind: "unknown-currency", currency: "AFGHAN GOLD" },
    ],
    ["a figure that is not a number", ["16.6927", "16,6927"], { kind: "bad-rate", currency: "SAUDI RIYAL" }],
  ] as const)("holds a row with %s and takes the others", async (_what, [from, to], held) => {
    await expectOneHeld(parse(day.replace(from, to)), { records: taken, held: { ...held, source: "row 5" } });
  });

  it("holds the only row of a page whose label is unknown", async () => {
    const answer = await answerOf(parse(fixture("DAB/unknown-label.html")));
    expect(answer.records).toEqual([]);
    expect(answer.held).toMatchObject([{ kind: "unknown-currency", currency: "AFGHAN GOLD", source: "row 1" }]);
  });

  it("holds every row of a page dated on a day that does not exist", async () => {
    const answer = await answerOf(parse(day.replace("Last updated: 18 May 2026", "Last updated: 31 April 2026")));
    expect(answer.records).toEqual([]);
    expect(answer.held.map((h) => [h.kind, h.effectiveDate])).toEqual(
      Array.from({ length: 5 }, () => ["bad-date", "31 April 2026"]),
    );
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
    const day1 = await recordsOf(dab.parse(r1.body, { url: r1.url }));
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
    expect((await recordsOf(dab.parse(r2.body, { url: r2.url })))[0]).toEqual({
      effectiveDate: "2026-05-19",
      currency: "USD",
      rate: "63.7236",
      derivation: "mean",
    });
  });
});
