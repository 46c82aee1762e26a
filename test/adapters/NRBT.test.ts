import { describe, expect, it } from "vitest";

import nrbt from "../../adapters/NRBT.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://www.reservebank.to/data/docs/fmarkets/exrates/average_daily_exchange_rates.xlsx";
const parse = (body: Buffer | string) => nrbt.parse(Buffer.from(body), { url: URL });

describe("NRBT adapter", () => {
  it("takes the MID block of every sheet, by its banner, skips holidays and the spacer column, keeps 4 decimals, holds a rate typed as text", async () => {
    await expectOneHeld(parse(fixture("NRBT/average_daily_exchange_rates.xlsx")), {
      records: [
        { effectiveDate: "2025-01-02", currency: "AUD", rate: "0.6651" },
        { effectiveDate: "2025-01-02", currency: "JPY", rate: "64.3751" },
        { effectiveDate: "2025-01-02", currency: "USD", rate: "0.4106" },
        { effectiveDate: "2025-01-03", currency: "AUD", rate: "0.6630" },
        { effectiveDate: "2025-01-03", currency: "JPY", rate: "64.4410" },
        { effectiveDate: "2025-01-03", currency: "USD", rate: "0.4100" },
        // The second sheet, "2023 to 2024".
        { effectiveDate: "2024-12-31", currency: "AUD", rate: "0.6652" },
        { effectiveDate: "2024-12-31", currency: "USD", rate: "0.4114" },
      ],
      held: {
        kind: "bad-rate",
        source: 'sheet "2023 to 2024" G7',
        effectiveDate: "2024-12-31",
        currency: "JPY",
        rate: "64,4827",
      },
    });
  });

  itRefusesWhole("NRBT", parse, [
    ["a not-found page", "<!DOCTYPE html><html><body>Not Found</body></html>"],
    ["a truncated workbook", fixture("NRBT/average_daily_exchange_rates.xlsx").subarray(0, 3000)],
    ["another bank's body", '{"rates":[]}'],
    ["another bank's workbook (no BUY/MID/SELL banners)", fixture("RBF/8.8-Exchange-Rates-Daily.xlsx")],
  ]);

  it.skipIf(!sharedFeedsPresent)("reads the recorded workbook exactly (values read off the file by hand)", async () => {
    const r = recording("NRBT/001.xlsx");
    const records = await recordsOf(nrbt.parse(r.body, { url: r.url }));
    const on = (date: string) =>
      Object.fromEntries(records.filter((x) => x.effectiveDate === date).map((x) => [x.currency, x.rate]));
    // Sheet "2025 to 2026", row 8, columns O..Z (MID).
    expect(on("2025-01-02")).toEqual({
      AUD: "0.6651",
      EUR: "0.3942",
      FJD: "0.9461",
      GBP: "0.3257",
      JPY: "64.3751",
      NZD: "0.7266",
      USD: "0.4106",
      WST: "1.1583",
      CHF: "0.3683",
      CAD: "0.5879",
      SEK: "4.5168",
      SGD: "0.5621",
    });
    expect(on("2025-01-01")).toEqual({}); // Public Holiday: New Year's Day
    // Sheet "2017 to 2018", row 8: AA8 (spacer, 0.6025) is not AUD; X8 0.597 is shown as 0.5970.
    expect(on("2017-01-03")).toMatchObject({ AUD: "0.6173", EUR: "0.4229", USD: "0.4441", CAD: "0.5970" });
    // Sheet "2023 to 2024", row 528.
    expect(on("2024-12-31")).toMatchObject({ USD: "0.4114", EUR: "0.3937", GBP: "0.3260", JPY: "64.4827" });
  });

  it("asks the one workbook URL for the latest and for a range", async () => {
    const http = fakeHttp(() => ({ body: "" }));
    await nrbt.fetch({ kind: "latest" }, { http, env: {} });
    await nrbt.fetch({ kind: "range", from: "2020-01-01", to: "2020-12-31" }, { http, env: {} });
    expect(http.seen.map((r) => `${r.method} ${r.url}`)).toEqual([`GET ${URL}`, `GET ${URL}`]);
  });
});
