import { describe, expect, it } from "vitest";

import nbc from "../../adapters/NBC.js";
import type { RateRecord } from "../../src/types.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://www.nbc.gov.kh/english/economic_research/exchange_rate.php";
const parse = (body: Buffer | string) => nbc.parse(Buffer.from(body), { url: URL });

describe("NBC adapter", () => {
  const all: RateRecord[] = [
    { effectiveDate: "2026-05-18", currency: "USD", rate: "4014" },
    { effectiveDate: "2026-05-18", currency: "AUD", rate: "2888.50" },
    { effectiveDate: "2026-05-18", currency: "IDR", rate: "231.00", unitMultiplier: 3 },
    { effectiveDate: "2026-05-18", currency: "JPY", rate: "2545.50", unitMultiplier: 2 },
    { effectiveDate: "2026-05-18", currency: "XDR", rate: "5535.50" },
  ];
  const day = fixture("NBC/day.html").toString();

  it("reads USD from the headline and the Average column per Unit, SDR as XDR, CNH as the market code it is", async () => {
    const cnh = { effectiveDate: "2026-05-18", currency: "CNH", rate: "593.00" };
    expect(await answerOf(parse(day))).toEqual({ records: [...all.slice(0, 2), cnh, ...all.slice(2)], held: [] });
  });

  it("reads a day without data as no records", async () => {
    expect(await recordsOf(parse(fixture("NBC/no-data.html")))).toEqual([]);
  });

  itRefusesWhole("NBC", parse, [
    [
      "a WAF page",
      "<!DOCTYPE html><html><head><title>ERROR: The request could not be satisfied</title></head><body>403 ERROR CloudFront</body></html>",
    ],
    ["a truncated page", day.slice(0, 2600)],
    [
      "another bank's body",
      "<h2>Cours des devises du lundi 16 mars 2026</h2><table><tr><th>Devise</th><th>CFA</th></tr></table>",
    ],
    ["a missing Average label", fixture("NBC/no-average.html").toString()],
  ]);

  const withoutCnh = day.replace(/<tr>\s*<td>Off-shore CNY<\/td>[\s\S]*?<\/tr>/, "");
  it.each([
    [
      "a unit that is no whole number",
      "<td align='center'>1000</td>",
      "<td align='center'>1,000</td>",
      "IDR",
      "unknown-unit",
    ],
    [
      "a figure that is not a number",
      "<td align='right'>231.00</td>",
      "<td align='right'>231,00</td>",
      "IDR",
      "bad-rate",
    ],
    [
      "a symbol that is not XXX/KHR",
      "<td align='center'>IDR/KHR</td>",
      "<td align='center'>Rupiah</td>",
      "IDR",
      "unknown-currency",
    ],
  ] as const)("holds %s and takes the other rows", async (_what, from, to, currency, kind) => {
    expect(withoutCnh).not.toContain("CNH");
    await expectOneHeld(parse(withoutCnh.replace(from, to)), {
      records: all.filter((x) => x.currency !== currency),
      held: { kind, source: "row 2" },
    });
  });

  it("holds every figure of a page dated with a day that does not exist", async () => {
    const answer = await answerOf(parse(withoutCnh.replace(">2026-05-18</font>", ">2026-02-30</font>")));
    expect(answer.records).toEqual([]);
    expect(answer.held).toHaveLength(all.length);
    expect(new Set(answer.held.map((h) => `${h.kind} ${h.effectiveDate}`))).toEqual(new Set(["bad-date 2026-02-30"]));
  });

  it("GETs the page for the latest; for each weekday of a range GETs a fresh token then POSTs the date", async () => {
    const http = fakeHttp(() => ({ body: fixture("NBC/landing.html") }));
    await nbc.fetch({ kind: "latest" }, { http, env: {} });
    const docs = await nbc.fetch({ kind: "range", from: "2026-05-15", to: "2026-05-18" }, { http, env: {} });
    // The GET of a range is read only for its token: a navigation answer, never parsed.
    expect(docs.map((d) => d.role)).toEqual(["navigation", undefined, "navigation", undefined]);
    expect(http.seen.map((r) => `${r.method} ${r.url}${r.body ? ` ${r.body}` : ""}`)).toEqual([
      `GET ${URL}`,
      `GET ${URL}`,
      `POST ${URL} exdate=2026-05-15&tk=tx7VHypmX1RSFpEnGZYd%2FEF%2FNuZxmJPDusF9%2BnB9sDg%3D&view=View`,
      `GET ${URL}`,
      `POST ${URL} exdate=2026-05-18&tk=tx7VHypmX1RSFpEnGZYd%2FEF%2FNuZxmJPDusF9%2BnB9sDg%3D&view=View`,
    ]);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded pages exactly (values read off the files by hand)", async () => {
    const r2 = recording("NBC/002.html");
    const day = await recordsOf(nbc.parse(r2.body, { url: r2.url }));
    expect(day).toHaveLength(29); // CNH among them, a market code
    expect(day[0]).toEqual({ effectiveDate: "2026-05-18", currency: "USD", rate: "4014" });
    expect(day.find((x) => x.currency === "JPY")).toEqual({
      effectiveDate: "2026-05-18",
      currency: "JPY",
      rate: "2545.50",
      unitMultiplier: 2,
    });
    expect(day.find((x) => x.currency === "VND")).toEqual({
      effectiveDate: "2026-05-18",
      currency: "VND",
      rate: "153.00",
      unitMultiplier: 3,
    });
    expect(day.find((x) => x.currency === "XDR")).toEqual({
      effectiveDate: "2026-05-18",
      currency: "XDR",
      rate: "5535.50",
    });
    expect(day.find((x) => x.currency === "CNH")).toEqual({
      effectiveDate: "2026-05-18",
      currency: "CNH",
      rate: "593.00",
    });
  });
});
