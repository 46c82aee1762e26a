import { afterEach, describe, expect, it, vi } from "vitest";

import bceao, { BCEAO_CURRENCY_NAMES, bceaoNameKey } from "../../adapters/BCEAO.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://www.bceao.int/fr/cours/get_all_reference_by_date?dateJour=2026-03-15";
const parse = (body: Buffer | string) => bceao.parse(Buffer.from(body), { url: URL });

describe("BCEAO adapter", () => {
  afterEach(() => vi.useRealTimers());

  it("reads French names (escaped or real UTF-8) and French numbers exactly, skipping placeholders", async () => {
    expect(await parse(fixture("BCEAO/sunday.html"))).toEqual([
      { effectiveDate: "2026-03-15", currency: "EUR", rate: "655.9570" },
      { effectiveDate: "2026-03-15", currency: "SEK", rate: "59.4700" },
      { effectiveDate: "2026-03-15", currency: "NZD", rate: "347.1400" },
      { effectiveDate: "2026-03-15", currency: "KRW", rate: "0.4100" },
      { effectiveDate: "2026-03-15", currency: "KWD", rate: "1953.0200" },
    ]);
  });

  it("reads a holiday page (heading only) as no records", async () => {
    expect(await parse(fixture("BCEAO/holiday.html"))).toEqual([]);
  });

  it("maps every listed name to an ISO code and normalises accents, case and spaces", () => {
    expect(bceaoNameKey("Couronne  Norvégienne ")).toBe("couronne norvegienne");
    expect(BCEAO_CURRENCY_NAMES[bceaoNameKey("Nouveau Shekel")]).toBe("ILS");
    expect(BCEAO_CURRENCY_NAMES[bceaoNameKey("Couronne thèque")]).toBe("CZK");
    expect(Object.values(BCEAO_CURRENCY_NAMES).every((c) => /^[A-Z]{3}$/.test(c) && c !== "XOF")).toBe(true);
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<!DOCTYPE html><html><body>Access denied</body></html>"],
    [
      "a truncated table",
      "<h2>Cours des devises du lundi 16 mars 2026</h2><table><tbody><tr><th>Devise</th><th>CFA</th></tr><tr><td>Euro</td><td>655,9570</td>",
    ],
    ["another bank's body", '<?xml version="1.0"?><ValCurs Date="16.03.2026"><Valute/></ValCurs>'],
    ["an unknown currency name", fixture("BCEAO/unknown-name.html").toString()],
    [
      "a missing column label",
      "<h2>Cours des devises du lundi 16 mars 2026</h2><table><tr><th>Devise</th><th>Cours</th></tr><tr><td>Euro</td><td>655,9570</td></tr></table>",
    ],
    [
      "a bad number",
      "<h2>Cours des devises du lundi 16 mars 2026</h2><table><tr><th>Devise</th><th>CFA</th></tr><tr><td>Euro</td><td>655;9570</td></tr></table>",
    ],
  ])("rejects %s with an error naming the bank", async (_what, body) => {
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^BCEAO: /);
  });

  it("asks one page per day except Saturday, for a range and for the last three days", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-03-16T12:00:00Z"));
    const http = fakeHttp(() => ({ body: "<h2>Cours des devises du lundi 16 mars 2026</h2>" }));
    await bceao.fetch({ kind: "latest" }, { http, env: {} });
    await bceao.fetch({ kind: "range", from: "2026-03-13", to: "2026-03-16" }, { http, env: {} });
    expect(http.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      "GET https://www.bceao.int/fr/cours/get_all_reference_by_date?dateJour=2026-03-15",
      "GET https://www.bceao.int/fr/cours/get_all_reference_by_date?dateJour=2026-03-16",
      "GET https://www.bceao.int/fr/cours/get_all_reference_by_date?dateJour=2026-03-13",
      "GET https://www.bceao.int/fr/cours/get_all_reference_by_date?dateJour=2026-03-15",
      "GET https://www.bceao.int/fr/cours/get_all_reference_by_date?dateJour=2026-03-16",
    ]);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded days exactly (values read off the files by hand)", async () => {
    const r1 = recording("BCEAO/001.html");
    const day1 = await bceao.parse(r1.body, { url: r1.url });
    expect(day1).toHaveLength(27);
    expect(day1[0]).toEqual({ effectiveDate: "2026-03-16", currency: "EUR", rate: "655.9570" });
    expect(day1.find((x) => x.currency === "SEK")).toEqual({
      effectiveDate: "2026-03-16",
      currency: "SEK",
      rate: "59.4700",
    });
    expect(day1.find((x) => x.currency === "KWD")).toEqual({
      effectiveDate: "2026-03-16",
      currency: "KWD",
      rate: "1953.0200",
    });
    const r3 = recording("BCEAO/003.html");
    const day3 = await bceao.parse(r3.body, { url: r3.url });
    expect(day3.find((x) => x.currency === "USD")).toEqual({
      effectiveDate: "2026-03-18",
      currency: "USD",
      rate: "606.8800",
    });
    expect(day3.find((x) => x.currency === "CZK")).toEqual({
      effectiveDate: "2026-03-18",
      currency: "CZK",
      rate: "26.2300",
    });
  });
});
