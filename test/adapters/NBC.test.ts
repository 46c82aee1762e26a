import { describe, expect, it } from "vitest";

import nbc from "../../adapters/NBC.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://www.nbc.gov.kh/english/economic_research/exchange_rate.php";
const parse = (body: Buffer | string) => nbc.parse(Buffer.from(body), { url: URL });

describe("NBC adapter", () => {
  it("reads USD from the headline and the Average column per Unit, SDR as XDR, CNH left out", async () => {
    expect(await parse(fixture("NBC/day.html"))).toEqual([
      { effectiveDate: "2026-05-18", currency: "USD", rate: "4014" },
      { effectiveDate: "2026-05-18", currency: "AUD", rate: "2888.50" },
      { effectiveDate: "2026-05-18", currency: "IDR", rate: "231.00", unitMultiplier: 3 },
      { effectiveDate: "2026-05-18", currency: "JPY", rate: "2545.50", unitMultiplier: 2 },
      { effectiveDate: "2026-05-18", currency: "XDR", rate: "5535.50" },
    ]);
  });

  it("reads a day without data as no records", async () => {
    expect(await parse(fixture("NBC/no-data.html"))).toEqual([]);
  });

  it.each([
    ["an empty body", ""],
    [
      "a WAF page",
      "<!DOCTYPE html><html><head><title>ERROR: The request could not be satisfied</title></head><body>403 ERROR CloudFront</body></html>",
    ],
    ["a truncated page", fixture("NBC/day.html").toString().slice(0, 2600)],
    [
      "another bank's body",
      "<h2>Cours des devises du lundi 16 mars 2026</h2><table><tr><th>Devise</th><th>CFA</th></tr></table>",
    ],
    ["a missing Average label", fixture("NBC/no-average.html").toString()],
    [
      "a bad unit",
      fixture("NBC/day.html").toString().replace("<td align='center'>1000</td>", "<td align='center'>1,000</td>"),
    ],
  ])("rejects %s with an error naming the bank", async (_what, body) => {
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^NBC: /);
  });

  it("GETs the page for the latest; for each weekday of a range GETs a fresh token then POSTs the date", async () => {
    const http = fakeHttp(() => ({ body: fixture("NBC/landing.html") }));
    await nbc.fetch({ kind: "latest" }, { http, env: {} });
    await nbc.fetch({ kind: "range", from: "2026-05-15", to: "2026-05-18" }, { http, env: {} });
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
    const day = await nbc.parse(r2.body, { url: r2.url });
    expect(day).toHaveLength(28);
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
    expect(day.some((x) => x.currency === "CNH")).toBe(false);
  });
});
