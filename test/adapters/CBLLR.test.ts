import { describe, expect, it } from "vitest";

import cbllr from "../../adapters/CBLLR.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://www.cbl.org.lr/research/buying-selling-rates";
const parse = (body: Buffer | string) => cbllr.parse(Buffer.from(body), { url: URL });

describe("CBLLR adapter", () => {
  it("keeps the exact mean of the buying and selling figures written in text, dated by <time datetime>", async () => {
    expect(await recordsOf(parse(fixture("CBLLR/page-0.html")))).toEqual([
      { effectiveDate: "2026-05-07", currency: "USD", rate: "183.3575", derivation: "mean" },
      { effectiveDate: "2026-05-02", currency: "USD", rate: "183.4255", derivation: "mean" },
      { effectiveDate: "2012-07-05", currency: "USD", rate: "1074", derivation: "mean" },
    ]);
  });

  itRefusesWhole("CBLLR", parse, [
    ["a truncated page", fixture("CBLLR/page-0.html").toString().slice(0, 1800)],
    ["another bank's body", '{"rates":[]}'],
    ["a missing Selling label", fixture("CBLLR/no-selling.html").toString()],
  ]);

  const page = fixture("CBLLR/page-0.html").toString();
  const taken = [
    { effectiveDate: "2026-05-07", currency: "USD", rate: "183.3575", derivation: "mean" as const },
    { effectiveDate: "2012-07-05", currency: "USD", rate: "1074", derivation: "mean" as const },
  ];
  it.each([
    ["a figure in another form", ["L$182.5000/US$1.00", "182.5000"], { kind: "bad-rate", rate: "182.5000" }],
    ["a figure per US$100", ["L$182.5000/US$1.00", "L$18250.00/US$100.00"], { kind: "unknown-unit" }],
    ["a date that does not exist", ['datetime="2026-05-02', 'datetime="2026-02-30'], { kind: "bad-date" }],
  ] as const)("holds a row with %s and takes the others", async (_what, [from, to], held) => {
    await expectOneHeld(parse(page.replace(from, to)), { records: taken, held: { ...held, source: "row 2" } });
  });

  it("reads every table of the page", async () => {
    const second = page.slice(page.indexOf("<table"), page.indexOf("</table>") + "</table>".length);
    const twice = page.replace("</table>", `</table>${second.replace(/2026-05-07/g, "2026-05-08")}`);
    const answer = await answerOf(parse(twice));
    expect(answer.held).toEqual([]);
    expect(answer.records.map((r) => r.effectiveDate)).toEqual([
      "2026-05-07",
      "2026-05-02",
      "2012-07-05",
      "2026-05-08",
      "2026-05-02",
      "2012-07-05",
    ]);
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
    expect(await answerOf(cbllr.parse(docs[2]!.body, { url: docs[2]!.url }))).toEqual({
      records: [],
      held: [],
      noPublication: "the rates table holds no figure",
    });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded page exactly (values read off the file by hand)", async () => {
    const r = recording("CBLLR/001.html");
    const records = await recordsOf(cbllr.parse(r.body, { url: r.url }));
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
