import { describe, expect, it } from "vitest";

import bcch, { BCCH_SERIES } from "../../adapters/BCCH.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://si3.bcentral.cl/SieteRestWS/SieteRestWS.ashx?function=GetSeries&timeseries=F073.TCO.PRE.Z.D";
const parse = (body: Buffer | string) => bcch.parse(Buffer.from(body), { url: URL });

describe("BCCH adapter", () => {
  it("reads the OK observations of a series, skipping ND days and thousands separators", async () => {
    expect(await parse(fixture("BCCH/usd.json"))).toEqual([
      { effectiveDate: "2022-12-30", currency: "USD", rate: "855.86" },
      { effectiveDate: "2023-01-02", currency: "USD", rate: "1001.50" },
      { effectiveDate: "2023-01-03", currency: "USD", rate: "858.10" },
    ]);
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<!DOCTYPE html><html><body>Runtime Error</body></html>"],
    [
      "truncated JSON",
      '{"Codigo":0,"Series":{"seriesId":"F073.TCO.PRE.Z.D","Obs":[{"indexDateString":"30-12-2022","value":"855',
    ],
    ["another bank's body", '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.1}]}'],
    [
      "a refused login",
      '{"Codigo":-5,"Descripcion":"Invalid username or password","Series":{"seriesId":null,"Obs":null}}',
    ],
    ["an unknown series", '{"Codigo":0,"Series":{"seriesId":"F073.UFF.PRE.Z.D","Obs":[]}}'],
    [
      "an OK value that is not a number",
      '{"Codigo":0,"Series":{"seriesId":"F073.TCO.PRE.Z.D","Obs":[{"indexDateString":"30-12-2022","value":"NaN","statusCode":"OK"}]}}',
    ],
  ])("rejects %s with an error naming the bank", async (_what, body) => {
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^BCCH: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded series exactly (values read off the files by hand)", async () => {
    const usd = recording("BCCH/001.json");
    const a = await recordsOf(bcch.parse(usd.body, { url: usd.url }));
    expect(a.slice(0, 6)).toEqual([
      { effectiveDate: "2026-03-02", currency: "USD", rate: "871.41" },
      { effectiveDate: "2026-03-03", currency: "USD", rate: "884.21" },
      { effectiveDate: "2026-03-04", currency: "USD", rate: "906.32" },
      { effectiveDate: "2026-03-05", currency: "USD", rate: "895.14" },
      { effectiveDate: "2026-03-06", currency: "USD", rate: "907.66" },
      { effectiveDate: "2026-03-09", currency: "USD", rate: "921.76" },
    ]);
    const cny = recording("BCCH/007.json");
    const b = await recordsOf(bcch.parse(cny.body, { url: cny.url }));
    expect(b.slice(0, 3)).toEqual([
      { effectiveDate: "2026-03-02", currency: "CNY", rate: "127.03" },
      { effectiveDate: "2026-03-03", currency: "CNY", rate: "128.08" },
      { effectiveDate: "2026-03-04", currency: "CNY", rate: "130.9" },
    ]);
  });

  it("asks each of the eight series with the user and password, and says which variable is missing", async () => {
    const http = fakeHttp(() => ({ body: "{}" }));
    await bcch.fetch(
      { kind: "range", from: "2026-03-01", to: "2026-03-15" },
      { http, env: { EXRATES_BCCH_API_KEY: "me@example.cl:p:w&d" } },
    );
    expect(http.seen.map((r) => r.url)).toEqual(
      Object.keys(BCCH_SERIES).map(
        (s) =>
          `https://si3.bcentral.cl/SieteRestWS/SieteRestWS.ashx?user=me%40example.cl&pass=p%3Aw%26d&function=GetSeries&timeseries=${s}&firstdate=2026-03-01&lastdate=2026-03-15`,
      ),
    );
    expect(http.seen).toHaveLength(8);
    await expect(bcch.fetch({ kind: "latest" }, { http, env: {} })).rejects.toThrow(
      /^BCCH: needs EXRATES_BCCH_API_KEY/,
    );
    await expect(bcch.fetch({ kind: "latest" }, { http, env: { EXRATES_BCCH_API_KEY: "nocolon" } })).rejects.toThrow(
      /^BCCH: needs EXRATES_BCCH_API_KEY in the form user:password$/,
    );
  });
});
