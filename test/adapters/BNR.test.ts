import { existsSync, readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import bnr from "../../adapters/BNR.js";
import { FeedError } from "../../src/errors.js";
import { FEEDS_DIR, recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://curs.bnr.ro/files/xml/years/nbrfxrates2026.xml";
const parse = (body: Buffer | string) => bnr.parse(Buffer.from(body), { url: URL });

describe("BNR adapter", () => {
  it("keeps multiplier 100 as unitMultiplier 2 and converts gold per gram to the troy ounce", async () => {
    // 621.3365 x 31.1034768 = 19325.7254127432
    expect(await parse(fixture("BNR/nbrfxrates2026.xml"))).toEqual([
      { effectiveDate: "2026-01-05", currency: "EUR", rate: "5.0905" },
      { effectiveDate: "2026-01-05", currency: "HUF", rate: "1.3247", unitMultiplier: 2 },
      { effectiveDate: "2026-01-05", currency: "INR", rate: "0.0480" },
      { effectiveDate: "2026-01-05", currency: "XAU", rate: "19325.7254127432", derivation: "per-troy-ounce" },
      { effectiveDate: "2026-01-06", currency: "EUR", rate: "5.0910" },
    ]);
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<!DOCTYPE html><html><body>Banca Națională a României</body></html>"],
    [
      "a truncated file",
      '<?xml version="1.0" encoding="utf-8"?><DataSet><Body><OrigCurrency>RON</OrigCurrency><Cube date="2026-01-05"><Rate currency="EUR">5.09',
    ],
    [
      "another bank's body",
      '<?xml version="1.0"?><gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01"><Cube><Cube time="2026-01-05"><Cube currency="USD" rate="1.17"/></Cube></Cube></gesmes:Envelope>',
    ],
    [
      "another base currency",
      '<DataSet><Body><OrigCurrency>EUR</OrigCurrency><Cube date="2026-01-05"><Rate currency="USD">1.17</Rate></Cube></Body></DataSet>',
    ],
    [
      "a bad multiplier",
      '<DataSet><Body><OrigCurrency>RON</OrigCurrency><Cube date="2026-01-05"><Rate currency="HUF" multiplier="x">1.3</Rate></Cube></Body></DataSet>',
    ],
    [
      "a bad value",
      '<DataSet><Body><OrigCurrency>RON</OrigCurrency><Cube date="2026-01-05"><Rate currency="EUR">5,09</Rate></Cube></Body></DataSet>',
    ],
  ])("rejects %s with an error naming the bank", async (_what, body) => {
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^BNR: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("BNR/001.xml");
    const records = await bnr.parse(r.body, { url: r.url });
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    expect(records).toHaveLength(94 * 37);
    expect(find("2026-01-05", "EUR")).toEqual({ effectiveDate: "2026-01-05", currency: "EUR", rate: "5.0905" });
    expect(find("2026-01-05", "IDR")).toEqual({
      effectiveDate: "2026-01-05",
      currency: "IDR",
      rate: "0.0260",
      unitMultiplier: 2,
    });
    expect(find("2026-05-21", "JPY")).toEqual({
      effectiveDate: "2026-05-21",
      currency: "JPY",
      rate: "2.8365",
      unitMultiplier: 2,
    });
    // 657.1338 x 31.1034768 = 20439.14590279584
    expect(find("2026-05-21", "XAU")).toEqual({
      effectiveDate: "2026-05-21",
      currency: "XAU",
      rate: "20439.14590279584",
      derivation: "per-troy-ounce",
    });
  });

  const daily = `${FEEDS_DIR}/../feeds-next/BNR/1.xml`;
  it.skipIf(!existsSync(daily))(
    "also reads the older daily file layout (feeds-next, values read off the file by hand)",
    async () => {
      const body = readFileSync(daily);
      const records = await bnr.parse(body, { url: "https://www.bnr.ro/nbrfxrates.xml" });
      expect(records.find((x) => x.currency === "AUD")).toEqual({
        effectiveDate: "2016-12-02",
        currency: "AUD",
        rate: "3.1465",
      });
    },
  );

  it("asks one yearly file per calendar year of the range, and the current year for the latest", async () => {
    const http = fakeHttp(() => ({ body: "<DataSet/>" }));
    await bnr.fetch({ kind: "range", from: "2025-12-01", to: "2026-01-31" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([
      "https://curs.bnr.ro/files/xml/years/nbrfxrates2025.xml",
      "https://curs.bnr.ro/files/xml/years/nbrfxrates2026.xml",
    ]);
    await bnr.fetch({ kind: "latest" }, { http, env: {} });
    expect(http.seen.at(-1)!.url).toMatch(/^https:\/\/curs\.bnr\.ro\/files\/xml\/years\/nbrfxrates\d{4}\.xml$/);
  });
});
