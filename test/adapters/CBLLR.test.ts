import { describe, expect, it } from "vitest";

import cbllr from "../../adapters/CBLLR.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://www.cbl.org.lr/research/buying-selling-rates";
const parse = (body: Buffer | string) => cbllr.parse(Buffer.from(body), { url: URL });

describe("CBLLR adapter", () => {
  it("keeps the exact mean of the buying and selling figures written in text, dated by <time datetime>", async () => {
    expect(await parse(fixture("CBLLR/page-0.html"))).toEqual([
      { effectiveDate: "2026-05-07", currency: "USD", rate: "183.3575", derivation: "mean" },
      { effectiveDate: "2026-05-02", currency: "USD", rate: "183.4255", derivation: "mean" },
      { effectiveDate: "2012-07-05", currency: "USD", rate: "1074", derivation: "mean" },
    ]);
  });

  it.each([
    ["an empty body", ""],
    ["an HTML error page", "<!DOCTYPE html><html><body><h1>Access denied</h1></body></html>"],
    ["a truncated page", fixture("CBLLR/page-0.html").toString().slice(0, 1800)],
    ["another bank's body", '{"rates":[]}'],
    ["a missing Selling label", fixture("CBLLR/no-selling.html").toString()],
    ["a figure in another form", fixture("CBLLR/page-0.html").toString().replace("L$182.4016/US$1.00", "182.4016")],
  ])("rejects %s with an error naming the bank", async (_what, body) => {
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^CBLLR: /);
  });

  it("reads the first page for the latest, and walks pages until rows are older than the range", async () => {
    const http = fakeHttp((req) => ({
      body: fixture(
        req.url.endsWith("page=1")
          ? "CBLLR/old-page.html"
          : req.url.endsWith("page=2")
            ? "CBLLR/empty-page.html"
            : "CBLLR/page-0.html",
      ),
    }));
    await cbllr.fetch({ kind: "latest" }, { http, env: {} });
    const docs = await cbllr.fetch({ kind: "range", from: "2012-07-05", to: "2026-05-31" }, { http, env: {} });
    expect(http.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      "GET https://www.cbl.org.lr/research/buying-selling-rates",
      "GET https://www.cbl.org.lr/research/buying-selling-rates",
      "GET https://www.cbl.org.lr/research/buying-selling-rates?page=1",
      "GET https://www.cbl.org.lr/research/buying-selling-rates?page=2",
    ]);
    expect(docs).toHaveLength(3);
    expect(await cbllr.parse(docs[2]!.body, { url: docs[2]!.url })).toEqual([]);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded page exactly (values read off the file by hand)", async () => {
    const r = recording("CBLLR/001.html");
    const records = await cbllr.parse(r.body, { url: r.url });
    expect(records).toHaveLength(19);
    // 2026-05-07: L$182.4016 buying, L$184.3134 selling.
    expect(records[0]).toEqual({ effectiveDate: "2026-05-07", currency: "USD", rate: "183.3575", derivation: "mean" });
    // 2026-04-11: L$183.2605 buying, L$185.3188 selling.
    expect(records.at(-1)).toEqual({
      effectiveDate: "2026-04-11",
      currency: "USD",
      rate: "184.28965",
      derivation: "mean",
    });
  });
});
