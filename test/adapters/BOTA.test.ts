import { afterEach, describe, expect, it, vi } from "vitest";

import bota, { botaFigure } from "../../adapters/BOTA.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://www.bot.go.tz/ExchangeRate/previous_rates";
const parse = (body: Buffer | string) => bota.parse(Buffer.from(body), { url: URL });

describe("BOTA adapter", () => {
  afterEach(() => vi.useRealTimers());

  it("takes the Mean column, removes the odd commas, leaves out GOLD and withdrawn codes, writes SDR as XDR", async () => {
    expect(await recordsOf(parse(fixture("BOTA/range.html")))).toEqual([
      { effectiveDate: "2026-05-19", currency: "USD", rate: "2602.0545" },
      { effectiveDate: "2026-05-19", currency: "JPY", rate: "18.0400" },
      { effectiveDate: "2026-05-18", currency: "XDR", rate: "3547.7500" },
      { effectiveDate: "2026-05-18", currency: "KWD", rate: "8472.30" },
    ]);
  });

  it("reads the landing page (empty table) as the bank saying that no rates were published", async () => {
    expect(await parse(fixture("BOTA/landing.html"))).toEqual({
      records: [],
      held: [],
      noPublication: "the rates table is empty (the page before a search, or days without rates)",
    });
  });

  it("reads figures with commas anywhere but refuses malformed ones", () => {
    expect(botaFigure("2,589.0,500")).toBe("2589.0500");
    expect(botaFigure("0.7,050")).toBe("0.7050");
    expect(botaFigure("11,817,920.42")).toBe("11817920.42");
    expect(botaFigure("2,,589.05")).toBeUndefined();
    expect(botaFigure("2589.05.1")).toBeUndefined();
    expect(botaFigure("")).toBeUndefined();
  });

  const range = fixture("BOTA/range.html").toString();
  itRefusesWhole("BOTA", parse, [
    ["an HTTP 500 page", "<!DOCTYPE html><html><body><h1>Server Error in '/' Application.</h1></body></html>"],
    ["a form without the rates table", '<html><body><form method="post"></form></body></html>'],
    ["a truncated page", range.slice(0, 400)],
    ["another bank's body", '<div><table id="exchange-rates"><thead><tr><th>Currency</th></tr></thead></table></div>'],
    ["a missing Mean label", fixture("BOTA/no-mean.html").toString()],
  ]);

  const taken = [
    { effectiveDate: "2026-05-19", currency: "USD", rate: "2602.0545" },
    { effectiveDate: "2026-05-18", currency: "XDR", rate: "3547.7500" },
    { effectiveDate: "2026-05-18", currency: "KWD", rate: "8472.30" },
  ];
  const jpy = /<td>JPY<\/td>[\s\S]*?<td>19-May-26<\/td>/.exec(range)![0];
  it.each([
    [
      "a date in another syntax",
      jpy.replace("19-May-26", "2026-05-19"),
      { kind: "bad-date", effectiveDate: "2026-05-19" },
    ],
    [
      "a date that does not exist",
      jpy.replace("19-May-26", "31-Apr-26"),
      { kind: "bad-date", effectiveDate: "31-Apr-26" },
    ],
    ["a malformed figure", jpy.replace("18.0,400", "18.0,,400"), { kind: "bad-rate", rate: "18.0,,400" }],
    [
      "a code that is no currency",
      jpy.replace("<td>JPY</td>", "<td>QQQ</td>"),
      { kind: "unknown-currency", currency: "QQQ" },
    ],
    ["a row with a cell missing", jpy.replace("<td>18.1,300</td>", ""), { kind: "bad-row" }],
  ] as const)("holds a row with %s and takes the others", async (_what, bad, held) => {
    await expectOneHeld(parse(range.replace(jpy, bad)), { records: taken, held: { ...held, source: "row 2" } });
  });

  it("keeps refusing the recorded bare form (BOTA/003.html) whole", async () => {
    const bare = '<form method="post">\n    <button type="submit">Submit</button>\n  </form>';
    await expect(async () => parse(bare)).rejects.toThrow(/^BOTA: not the Bank of Tanzania previous_rates page/);
  });

  it("GETs the token page then POSTs the range with the token, in one session", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-05-19T09:00:00Z"));
    const http = fakeHttp(() => ({ body: fixture("BOTA/landing.html") }));
    const docs = await bota.fetch({ kind: "latest" }, { http, env: {} });
    expect(docs.map((d) => d.role)).toEqual(["navigation", undefined]);
    await bota.fetch({ kind: "range", from: "2026-04-20", to: "2026-05-19" }, { http, env: {} });
    expect(http.seen.map((r) => `${r.method} ${r.url}${r.body ? ` ${r.body}` : ""}`)).toEqual([
      `GET ${URL}`,
      `POST ${URL} __RequestVerificationToken=jd5KNjc0tLCk%2BU5r%2FIqd%3D&dateFrom=05%2F12%2F2026&dateTo=05%2F19%2F2026`,
      `GET ${URL}`,
      `POST ${URL} __RequestVerificationToken=jd5KNjc0tLCk%2BU5r%2FIqd%3D&dateFrom=04%2F20%2F2026&dateTo=05%2F19%2F2026`,
    ]);
    const tokenless = fakeHttp(() => ({ body: '<html><body><form method="post"></form></body></html>' }));
    await expect(bota.fetch({ kind: "latest" }, { http: tokenless, env: {} })).rejects.toThrow(
      /^BOTA: no anti-forgery token/,
    );
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded answer exactly (values read off the file by hand)", async () => {
    const r = recording("BOTA/002.html");
    const records = await recordsOf(bota.parse(r.body, { url: r.url }));
    expect(records).toHaveLength(42);
    expect(records[0]).toEqual({ effectiveDate: "2026-05-19", currency: "USD", rate: "2602.0545" });
    expect(records.find((x) => x.currency === "UGX")).toEqual({
      effectiveDate: "2026-05-19",
      currency: "UGX",
      rate: "0.7050",
    });
    expect(records.find((x) => x.currency === "KWD")).toEqual({
      effectiveDate: "2026-05-19",
      currency: "KWD",
      rate: "8472.3000",
    });
    expect(records.some((x) => x.currency === "RUR")).toBe(false);
    const landing = recording("BOTA/001.html");
    expect(await bota.parse(landing.body, { url: landing.url })).toEqual({
      records: [],
      held: [],
      noPublication: "the rates table is empty (the page before a search, or days without rates)",
    });
    await expect(async () => bota.parse(recording("BOTA/003.html").body, { url: landing.url })).rejects.toThrow(
      /^BOTA: not the Bank of Tanzania previous_rates page/,
    );
  });
});
