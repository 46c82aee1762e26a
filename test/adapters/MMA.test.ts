import { describe, expect, it } from "vitest";

import mma from "../../adapters/MMA.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const parse = (body: Buffer | string) =>
  mma.parse(Buffer.from(body), { url: "https://www.mma.gov.mv/JSON/referencerates.json?v=20210210" });

describe("MMA adapter", () => {
  it("reads the USD rate, keeps the first of duplicated dates and skips two-day dates and empty rates", async () => {
    expect(await parse(fixture("MMA/referencerates.json"))).toEqual([
      { effectiveDate: "2021-02-10", currency: "USD", rate: "15.42" },
      { effectiveDate: "2021-02-07", currency: "USD", rate: "15.40" },
      { effectiveDate: "2021-01-04", currency: "USD", rate: "15.420" },
    ]);
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<html><body><h1>404 Not Found</h1></body></html>"],
    ["truncated JSON", '[{"Date": "22 January 2020", "Rate": "15.3'],
    ["another bank's body", '{"success":true,"message":"OK","data":[]}'],
    ["an unreadable date", '[{"Date": "2020-01-22", "Rate": "15.38"}]'],
    ["an unknown month", '[{"Date": "22 Janvier 2020", "Rate": "15.38"}]'],
    ["a non-decimal rate", '[{"Date": "22 January 2020", "Rate": "-"}]'],
  ])("rejects %s with an error naming the bank", async (_what, body) => {
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^MMA: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded history exactly (values read off the file by hand)", async () => {
    const r = recording("MMA/001.json");
    const records = await mma.parse(r.body, { url: r.url });
    expect(records).toHaveLength(2131);
    expect(records[0]).toEqual({ effectiveDate: "2020-01-22", currency: "USD", rate: "15.38" });
    expect(records[13]).toEqual({ effectiveDate: "2020-01-05", currency: "USD", rate: "15.41" });
    expect(records.at(-1)).toEqual({ effectiveDate: "2011-04-21", currency: "USD", rate: "14.75" });
  });

  it("asks the whole file with the range end (or today) as cache-buster", async () => {
    const http = fakeHttp(() => ({ body: "[]" }));
    await mma.fetch({ kind: "range", from: "2020-01-01", to: "2020-01-22" }, { http, env: {} });
    await mma.fetch({ kind: "latest" }, { http, env: {} });
    expect(http.seen[0]!.url).toBe("https://www.mma.gov.mv/JSON/referencerates.json?v=20200122");
    expect(http.seen[1]!.url).toMatch(/^https:\/\/www\.mma\.gov\.mv\/JSON\/referencerates\.json\?v=\d{8}$/);
  });
});
