import { describe, expect, it } from "vitest";

import nbrm from "../../adapters/NBRM.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const ENDPOINT = "https://www.nbrm.mk/KLServiceNOV/GetExchangeRate";
const parse = (body: Buffer | string) =>
  nbrm.parse(Buffer.from(body), { url: `${ENDPOINT}?StartDate=01.03.2026&EndDate=02.03.2026&format=json` });

describe("NBRM adapter", () => {
  it("takes the middle rate per nomin units dated by datum (a Sunday included), drops MKD, keeps trailing zeros", async () => {
    expect(await parse(fixture("NBRM/GetExchangeRate.json"))).toEqual([
      { effectiveDate: "2026-03-01", currency: "EUR", rate: "61.6948" },
      { effectiveDate: "2026-03-01", currency: "DKK", rate: "8.2570" },
      { effectiveDate: "2026-03-02", currency: "JPY", rate: "33.5100", unitMultiplier: 2 },
    ]);
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<!DOCTYPE html><html><body>Runtime Error</body></html>"],
    ["truncated JSON", '[{"datum":"2026-03-01T00:00:00","oznaka":"EUR","nomin":1,"sreden":61.69'],
    [
      "another bank's body (CNB)",
      '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.170}]}',
    ],
    ["a missing middle rate", '[{"datum":"2026-03-01T00:00:00","oznaka":"EUR","nomin":1}]'],
    ["a bad date", '[{"datum":"01.03.2026","oznaka":"EUR","nomin":1,"sreden":61.6948}]'],
  ])("rejects %s with an error naming the bank", async (_what, body) => {
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^NBRM: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("NBRM/001.json");
    const records = await nbrm.parse(r.body, { url: r.url });
    expect(records).toHaveLength(54 * 31);
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    expect(find("2026-03-01", "EUR")).toEqual({ effectiveDate: "2026-03-01", currency: "EUR", rate: "61.6948" });
    expect(find("2026-03-01", "RSD")).toEqual({ effectiveDate: "2026-03-01", currency: "RSD", rate: "0.5253" });
    expect(find("2026-03-01", "IDR")).toEqual({ effectiveDate: "2026-03-01", currency: "IDR", rate: "0.0031" });
  });

  it("asks one DD.MM.YYYY range per call", async () => {
    const http = fakeHttp(() => ({ body: "[]" }));
    await nbrm.fetch({ kind: "range", from: "2026-03-01", to: "2026-04-23" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([`${ENDPOINT}?StartDate=01.03.2026&EndDate=23.04.2026&format=json`]);
    const latest = fakeHttp(() => ({ body: "[]" }));
    await nbrm.fetch({ kind: "latest" }, { http: latest, env: {} });
    expect(latest.seen[0]!.url).toMatch(
      /GetExchangeRate\?StartDate=\d\d\.\d\d\.\d{4}&EndDate=\d\d\.\d\d\.\d{4}&format=json$/,
    );
  });
});
