import { afterEach, describe, expect, it, vi } from "vitest";

import bct from "../../adapters/BCT.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://www.bct.gov.tn/bct/siteprod/cours_archiv.jsp";
const parse = (body: Buffer | string) => bct.parse(Buffer.from(body), { url: URL });

describe("BCT adapter", () => {
  afterEach(() => vi.useRealTimers());

  it("reads only the interbank table, with decimal commas and the per-N unit as unitMultiplier", async () => {
    expect(await recordsOf(parse(fixture("BCT/interbank.html")))).toEqual([
      { effectiveDate: "2026-05-18", currency: "DZD", rate: "0.2198", unitMultiplier: 1 },
      { effectiveDate: "2026-05-18", currency: "DKK", rate: "45.5540", unitMultiplier: 2 },
      { effectiveDate: "2026-05-18", currency: "USD", rate: "2.9034" },
      { effectiveDate: "2026-05-18", currency: "JPY", rate: "18.4093", unitMultiplier: 3 },
      { effectiveDate: "2026-05-18", currency: "EUR", rate: "3.3960" },
    ]);
  });

  it("reads an 'Exhausted Resultset' answer as no records", async () => {
    expect(await recordsOf(parse("<div class='module'>Exhausted Resultset</div>"))).toEqual([]);
  });

  itRefusesWhole("BCT", parse, [
    ["a truncated page", fixture("BCT/interbank.html").toString().slice(0, 1500)],
    [
      "another bank's body",
      "<h2>Cours des devises du lundi 16 mars 2026</h2><table><tr><th>Devise</th><th>CFA</th></tr></table>",
    ],
    ["a missing column label", fixture("BCT/no-header.html").toString()],
  ]);

  const taken = [
    { effectiveDate: "2026-05-18", currency: "DZD", rate: "0.2198", unitMultiplier: 1 },
    { effectiveDate: "2026-05-18", currency: "DKK", rate: "45.5540", unitMultiplier: 2 },
    { effectiveDate: "2026-05-18", currency: "USD", rate: "2.9034" },
    { effectiveDate: "2026-05-18", currency: "EUR", rate: "3.3960" },
  ];
  const page = fixture("BCT/interbank.html").toString();
  it.each([
    [
      "a unit that is not a whole number",
      page.replace("<div align='right'>1000</div>", "<div align='right'>1,5</div>"),
      { kind: "unknown-unit", currency: "JPY" },
    ],
    [
      "a figure that is not a number",
      page.replace("18,4093", "18,40,93"),
      { kind: "bad-rate", currency: "JPY", rate: "18,40,93" },
    ],
    ["a code that is not ISO 4217", page.replace(">JPY<", ">YEN<"), { kind: "unknown-currency", currency: "YEN" }],
  ] as const)("holds %s and takes the other rows", async (_what, body, held) => {
    await expectOneHeld(parse(body), { records: taken, held: { ...held, source: "row 4" } });
  });

  it("posts one form per weekday with a Referer, and drops an answer showing another day", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-05-18T18:00:00Z"));
    const http = fakeHttp((req) => ({
      body: req.body?.includes("2026-05-18") ? fixture("BCT/interbank.html") : fixture("BCT/fallback.html"),
    }));
    const latest = await bct.fetch({ kind: "latest" }, { http, env: {} });
    const range = await bct.fetch({ kind: "range", from: "2026-05-15", to: "2026-05-18" }, { http, env: {} });
    expect(http.seen.map((r) => `${r.method} ${r.url} ${r.body} ${r.headers?.Referer}`)).toEqual([
      "POST https://www.bct.gov.tn/bct/siteprod/cours_archiv.jsp input=2026-05-14&langue=_AN https://www.bct.gov.tn/bct/siteprod/cours_archive.jsp",
      "POST https://www.bct.gov.tn/bct/siteprod/cours_archiv.jsp input=2026-05-15&langue=_AN https://www.bct.gov.tn/bct/siteprod/cours_archive.jsp",
      "POST https://www.bct.gov.tn/bct/siteprod/cours_archiv.jsp input=2026-05-18&langue=_AN https://www.bct.gov.tn/bct/siteprod/cours_archive.jsp",
      "POST https://www.bct.gov.tn/bct/siteprod/cours_archiv.jsp input=2026-05-15&langue=_AN https://www.bct.gov.tn/bct/siteprod/cours_archive.jsp",
      "POST https://www.bct.gov.tn/bct/siteprod/cours_archiv.jsp input=2026-05-18&langue=_AN https://www.bct.gov.tn/bct/siteprod/cours_archive.jsp",
    ]);
    // 2026-05-14 answered with the page of 2026-05-15: dropped; 2026-05-15 is its own day: kept.
    expect(latest).toHaveLength(2);
    expect(range).toHaveLength(2);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded days exactly (values read off the files by hand)", async () => {
    const r1 = recording("BCT/001.html");
    const day1 = await recordsOf(bct.parse(r1.body, { url: r1.url }));
    expect(day1).toHaveLength(20);
    expect(day1[0]).toEqual({ effectiveDate: "2026-05-18", currency: "DZD", rate: "0.2198", unitMultiplier: 1 });
    expect(day1.find((x) => x.currency === "JPY")).toEqual({
      effectiveDate: "2026-05-18",
      currency: "JPY",
      rate: "18.4093",
      unitMultiplier: 3,
    });
    expect(day1.find((x) => x.currency === "USD")).toEqual({
      effectiveDate: "2026-05-18",
      currency: "USD",
      rate: "2.9034",
    });
    expect(day1.at(-1)).toEqual({ effectiveDate: "2026-05-18", currency: "OMR", rate: "7.5876" });
    const r2 = recording("BCT/002.html");
    const day2 = await recordsOf(bct.parse(r2.body, { url: r2.url }));
    expect(day2.find((x) => x.currency === "EUR")).toEqual({
      effectiveDate: "2026-05-19",
      currency: "EUR",
      rate: "3.3907",
    });
    expect(day2.find((x) => x.currency === "CHF")).toEqual({
      effectiveDate: "2026-05-19",
      currency: "CHF",
      rate: "37.1010",
      unitMultiplier: 1,
    });
  });
});
