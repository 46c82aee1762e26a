import { describe, expect, it } from "vitest";

import banxico, { BANXICO_SERIES } from "../../adapters/BANXICO.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL =
  "https://www.banxico.org.mx/SieAPIRest/service/v1/series/SF43718,SF46410,SF46407,SF46406,SF60632/datos/2025-12-30/2026-01-02";
const parse = (body: Buffer | string) => banxico.parse(Buffer.from(body), { url: URL });

describe("BANXICO adapter", () => {
  it("reads each series by id, skips N/E, drops thousands separators and keeps trailing zeros", async () => {
    expect(await parse(fixture("BANXICO/series.json"))).toEqual([
      { effectiveDate: "2025-12-30", currency: "USD", rate: "18.0050" },
      { effectiveDate: "2026-01-02", currency: "USD", rate: "17.9870" },
      { effectiveDate: "2025-12-30", currency: "JPY", rate: "0.1150" },
      { effectiveDate: "2025-12-30", currency: "EUR", rate: "21.1020" },
      { effectiveDate: "2025-12-30", currency: "CAD", rate: "1013.2500" },
    ]);
    expect(BANXICO_SERIES).toEqual({ SF43718: "USD", SF46410: "EUR", SF46407: "GBP", SF46406: "JPY", SF60632: "CAD" });
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<!DOCTYPE html><html><body>Error 503</body></html>"],
    ["truncated JSON", '{"bmx":{"series":[{"idSerie":"SF43718","datos":[{"fecha":"30/12/2025","dato":"18.0'],
    ["another bank's body", '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.1}]}'],
    ["an unknown series", '{"bmx":{"series":[{"idSerie":"SF17908","datos":[{"fecha":"30/12/2025","dato":"18.0"}]}]}}'],
    ["a bad date", '{"bmx":{"series":[{"idSerie":"SF43718","datos":[{"fecha":"2025-12-30","dato":"18.0"}]}]}}'],
    [
      "a placeholder it does not know",
      '{"bmx":{"series":[{"idSerie":"SF43718","datos":[{"fecha":"30/12/2025","dato":"n.d."}]}]}}',
    ],
  ])("rejects %s with an error naming the bank", async (_what, body) => {
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^BANXICO: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded series exactly (values read off the file by hand)", async () => {
    const r = recording("BANXICO/001.json");
    const records = await recordsOf(banxico.parse(r.body, { url: r.url }));
    expect(records).toHaveLength(30);
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    expect(find("2026-03-02", "USD")).toEqual({ effectiveDate: "2026-03-02", currency: "USD", rate: "17.3485" });
    expect(find("2026-03-09", "USD")).toEqual({ effectiveDate: "2026-03-09", currency: "USD", rate: "17.7687" });
    expect(find("2026-03-02", "JPY")).toEqual({ effectiveDate: "2026-03-02", currency: "JPY", rate: "0.1105" });
    expect(find("2026-03-03", "EUR")).toEqual({ effectiveDate: "2026-03-03", currency: "EUR", rate: "20.5505" });
    expect(find("2026-03-06", "CAD")).toEqual({ effectiveDate: "2026-03-06", currency: "CAD", rate: "13.0787" });
    expect(find("2026-03-04", "GBP")).toEqual({ effectiveDate: "2026-03-04", currency: "GBP", rate: "23.4719" });
  });

  it("asks the five series over the range with the Bmx-Token header, and says which variable is missing", async () => {
    const http = fakeHttp(() => ({ body: '{"bmx":{"series":[]}}' }));
    await banxico.fetch(
      { kind: "range", from: "2026-03-01", to: "2026-03-09" },
      { http, env: { EXRATES_BANXICO_API_KEY: "t" } },
    );
    expect(http.seen).toEqual([
      {
        method: "GET",
        url: "https://www.banxico.org.mx/SieAPIRest/service/v1/series/SF43718,SF46410,SF46407,SF46406,SF60632/datos/2026-03-01/2026-03-09",
        headers: { "Bmx-Token": "t" },
      },
    ]);
    await banxico.fetch({ kind: "latest" }, { http, env: { EXRATES_BANXICO_API_KEY: "t" } });
    expect(http.seen[1]!.url).toMatch(/SF60632\/datos\/\d{4}-\d{2}-\d{2}\/\d{4}-\d{2}-\d{2}$/);
    await expect(banxico.fetch({ kind: "latest" }, { http, env: {} })).rejects.toThrow(
      /^BANXICO: needs EXRATES_BANXICO_API_KEY/,
    );
  });
});
