import { describe, expect, it } from "vitest";

import hnb from "../../adapters/HNB.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://api.hnb.hr/tecajn-eur/v3?datum-primjene-od=2023-01-02&datum-primjene-do=2023-01-04";
const parse = (body: Buffer | string, url = URL) => hnb.parse(Buffer.from(body), { url });

describe("HNB adapter", () => {
  it("takes the middle rate with its decimal comma and every trailing zero, on its date of application", async () => {
    expect(await parse(fixture("HNB/tecajn-eur-v3.json"))).toEqual([
      { effectiveDate: "2023-01-02", currency: "AUD", rate: "1.569300" },
      { effectiveDate: "2023-01-02", currency: "HUF", rate: "400.870000" },
      { effectiveDate: "2023-01-03", currency: "USD", rate: "1.068300" },
    ]);
  });

  it("recognises a frozen kuna-era v2 list and takes no euro rates from it", async () => {
    expect(
      await parse(
        fixture("HNB/tecajn-v2.json"),
        "https://api.hnb.hr/tecajn/v2?datum-od=2022-12-28&datum-do=2022-12-31",
      ),
    ).toEqual([]);
  });

  it("reads an empty list as no records", async () => {
    expect(await parse("[]")).toEqual([]);
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<!DOCTYPE html><html><body>Greška</body></html>"],
    ["truncated JSON", '[{"broj_tecajnice":"1","datum_primjene":"2023-01-02","srednji_tecaj":"1,5693'],
    ["another bank's body", '[{"seriesId":"SEKUSDPMI","date":"2026-03-24","value":9.4}]'],
    ["a bad middle rate", '[{"datum_primjene":"2023-01-02","valuta":"USD","srednji_tecaj":"1.066.600"}]'],
    ["a bad date", '[{"datum_primjene":"02.01.2023","valuta":"USD","srednji_tecaj":"1,066600"}]'],
  ])("rejects %s with an error naming the bank", async (_what, body) => {
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^HNB: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recordings exactly (values read off the files by hand)", async () => {
    const r = recording("HNB/001.json");
    const records = await hnb.parse(r.body, { url: r.url });
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    expect(records).toHaveLength(39);
    expect(find("2023-01-02", "AUD")).toEqual({ effectiveDate: "2023-01-02", currency: "AUD", rate: "1.569300" });
    expect(find("2023-01-02", "JPY")).toEqual({ effectiveDate: "2023-01-02", currency: "JPY", rate: "140.660000" });
    expect(find("2023-01-04", "GBP")).toEqual({ effectiveDate: "2023-01-04", currency: "GBP", rate: "0.880480" });
    expect(find("2023-01-04", "BAM")).toEqual({ effectiveDate: "2023-01-04", currency: "BAM", rate: "1.955830" });
    const v2 = recording("HNB/002.json");
    expect(await hnb.parse(v2.body, { url: v2.url })).toEqual([]);
  });

  it("asks the v3 list by dates of application", async () => {
    const http = fakeHttp(() => ({ body: "[]" }));
    await hnb.fetch({ kind: "range", from: "2023-01-02", to: "2023-01-04" }, { http, env: {} });
    await hnb.fetch({ kind: "latest" }, { http, env: {} });
    expect(http.seen[0]!.url).toBe(
      "https://api.hnb.hr/tecajn-eur/v3?datum-primjene-od=2023-01-02&datum-primjene-do=2023-01-04",
    );
    expect(http.seen[1]!.url).toMatch(
      /^https:\/\/api\.hnb\.hr\/tecajn-eur\/v3\?datum-primjene-od=\d{4}-\d{2}-\d{2}&datum-primjene-do=\d{4}-\d{2}-\d{2}$/,
    );
  });
});
