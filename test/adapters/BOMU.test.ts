import { describe, expect, it } from "vitest";

import bomu, { bomuUrl } from "../../adapters/BOMU.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = bomuUrl("2026-09-23", "2026-09-25");
const parse = (body: Buffer | string, url = URL) => bomu.parse(Buffer.from(body), { url });
const listing = fixture("BOMU/listing.html").toString("utf8");

describe("BOMU adapter", () => {
  it("takes the exact mean of T.T buying and T.T/D.D selling of the tblConso rows only", async () => {
    expect(await recordsOf(parse(listing))).toEqual([
      // (45.1000 + 46.3500) / 2
      { effectiveDate: "2026-09-25", currency: "USD", rate: "45.725", derivation: "mean" },
      // (30.2115 + 31.4420) / 2, per 100 yen
      { effectiveDate: "2026-09-25", currency: "JPY", rate: "30.82675", unitMultiplier: 2, derivation: "mean" },
      // (52.9100 + 54.8035) / 2
      { effectiveDate: "2026-09-24", currency: "EUR", rate: "53.85675", derivation: "mean" },
    ]);
  });

  it("asks the listing of the window, both dates written DD-MM-YYYY", async () => {
    const http = fakeHttp(() => ({ body: listing }));
    await bomu.fetch({ kind: "range", from: "2026-09-01", to: "2026-09-30" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([
      "https://www.bom.mu/markets/foreign-exchange/consolidated-indicative-exchange-rates" +
        "?field_transaction_date_value%5Bvalue%5D%5Bdate%5D=01-09-2026" +
        "&field_transaction_date_value_1%5Bvalue%5D%5Bdate%5D=30-09-2026",
    ]);
  });

  it.each([
    ["a selling figure that is not a number", ["46.3500", "n/a"], "bad-rate", "row 1 (USD 1)"],
    ["a code that is not ISO 4217", ["USD 1", "XYZ 1"], "unknown-currency", "row 1 (XYZ 1)"],
    ["a currency cell without units", ["USD 1", "USD"], "unknown-currency", "row 1 (USD)"],
  ] as const)("holds %s and takes the other rows", async (_what, [from, to], kind, source) => {
    const body = listing.replace(from, to);
    await expectOneHeld(parse(body), {
      records: (records) => expect(records.map((r) => r.currency)).toEqual(["JPY", "EUR"]),
      held: { kind, source },
    });
  });

  itRefusesWhole("BOMU", parse, [
    ["a page without the rates table", "<!DOCTYPE html><html><body><div class='view-content'></div></body></html>"],
    ["another bank's CSV", "Date,USD\n2026-09-25,45.1\n"],
  ]);

  it("refuses a listing of other days than the ones asked", async () => {
    await expect(Promise.resolve().then(() => parse(listing, bomuUrl("2026-10-01", "2026-10-02")))).rejects.toThrow(
      /^BOMU: a row of 2026-09-25 in the listing of 2026-10-01 to 2026-10-02/,
    );
  });

  it.skipIf(!sharedFeedsPresent)("reads the recordings exactly (values read off the files by hand)", async () => {
    const a = recording("BOMU/001.html");
    const recent = await answerOf(bomu.parse(a.body, { url: a.url }));
    expect(recent.held).toEqual([]);
    expect(recent.records).toHaveLength(36); // 12 currencies, 3 days
    // AUSTRALIA AUD 1 on 25-09-2026: T.T 33.4206, T.T/D.D 35.1457
    expect(recent.records[0]).toEqual({
      effectiveDate: "2026-09-25",
      currency: "AUD",
      rate: "34.28315",
      derivation: "mean",
    });
    const b = recording("BOMU/002.html");
    const old = await recordsOf(bomu.parse(b.body, { url: b.url }));
    expect(old).toHaveLength(10);
    // AUSTRALIA AUD 1 on 04-01-2005: T.T 21.6000, T.T/D.D 22.2900
    expect(old[0]).toEqual({ effectiveDate: "2005-01-04", currency: "AUD", rate: "21.945", derivation: "mean" });
  });
});
