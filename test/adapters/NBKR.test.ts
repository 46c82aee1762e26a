import { describe, expect, it } from "vitest";

import nbkr, { NBKR_VALUTA } from "../../adapters/NBKR.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const HISTORY = (id: number) =>
  `https://www.nbkr.kg/index1.jsp?item=1562&lang=ENG&valuta_id=${id}&beg_day=01&beg_month=12&beg_year=2025&end_day=31&end_month=12&end_year=2025`;
const parse = (body: Buffer | string, url = "https://www.nbkr.kg/XML/daily.xml") =>
  nbkr.parse(Buffer.from(body), { url });

describe("NBKR adapter", () => {
  it("reads the windows-1251 XML with decimal commas and Nominal 10 as unitMultiplier 1", async () => {
    expect(await parse(fixture("NBKR/daily.xml"))).toEqual([
      { effectiveDate: "2025-12-31", currency: "USD", rate: "87.4500" },
      { effectiveDate: "2025-12-31", currency: "JPY", rate: "5.5820", unitMultiplier: 1 },
      { effectiveDate: "2025-12-31", currency: "KZT", rate: "0.1701" },
    ]);
  });

  it("reads a history page's marked rows for the valuta_id of its URL, with that currency's nominal", async () => {
    expect(NBKR_VALUTA[36]).toEqual({ iso: "JPY", nominal: 10 });
    expect(await parse(fixture("NBKR/history.html"), HISTORY(36))).toEqual([
      { effectiveDate: "2025-12-30", currency: "JPY", rate: "5.5820", unitMultiplier: 1 },
      { effectiveDate: "2025-12-23", currency: "JPY", rate: "5.6010", unitMultiplier: 1 },
    ]);
    expect(
      await parse('<html><body><a href="https://www.nbkr.kg/">NBKR</a><table></table></body></html>', HISTORY(16)),
    ).toEqual([]);
  });

  it.each([
    ["an empty body", "", "https://www.nbkr.kg/XML/daily.xml"],
    ["an HTML error page", "<!DOCTYPE html><html><body>502 Bad Gateway</body></html>", HISTORY(15)],
    [
      "a truncated XML",
      '<?xml version="1.0" encoding="windows-1251" ?>\n<CurrencyRates Date="31.12.2025">\n<Currency ISOCode="USD">\n<Nominal>1',
      "https://www.nbkr.kg/XML/daily.xml",
    ],
    [
      "another bank's body",
      '<?xml version="1.0" encoding="windows-1251"?><ValCurs Date="02.03.2026" name="Foreign Currency Market"><Valute ID="R01235"><CharCode>USD</CharCode></Valute></ValCurs>',
      "https://www.nbkr.kg/XML/daily.xml",
    ],
    [
      "a history page of an unknown valuta_id",
      "<table><tr><td><!--date-->30.12.2025<!--date--></td><td><!--value-->5,58<!--value--></td></tr></table>",
      HISTORY(999),
    ],
    [
      "a history row without a value",
      "<table><tr><td><!--date-->30.12.2025<!--date--></td><td>5,58</td></tr></table>",
      HISTORY(15),
    ],
    [
      "a bad value",
      '<?xml version="1.0" encoding="windows-1251" ?><CurrencyRates Date="31.12.2025"><Currency ISOCode="USD"><Nominal>1</Nominal><Value>87.45.00</Value></Currency></CurrencyRates>',
      "https://www.nbkr.kg/XML/daily.xml",
    ],
  ])("rejects %s with an error naming the bank", async (_what, body, url) => {
    await expect(async () => parse(body, url)).rejects.toThrow(FeedError);
    await expect(async () => parse(body, url)).rejects.toThrow(/^NBKR: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recordings exactly (values read off the files by hand)", async () => {
    const usd = recording("NBKR/001.html");
    expect(await nbkr.parse(usd.body, { url: usd.url })).toEqual([
      { effectiveDate: "2005-06-25", currency: "USD", rate: "40.9614" },
      { effectiveDate: "2005-06-18", currency: "USD", rate: "41.0685" },
      { effectiveDate: "2005-06-11", currency: "USD", rate: "41.0511" },
      { effectiveDate: "2005-06-04", currency: "USD", rate: "40.9879" },
    ]);
    const eur = recording("NBKR/002.html");
    expect((await nbkr.parse(eur.body, { url: eur.url }))[0]).toEqual({
      effectiveDate: "2005-06-25",
      currency: "EUR",
      rate: "49.4425",
    });
    const weekly = recording("NBKR/004.xml");
    const w = await nbkr.parse(weekly.body, { url: weekly.url });
    expect(w).toHaveLength(40);
    expect(w[0]).toEqual({ effectiveDate: "2026-05-23", currency: "GBP", rate: "117.4147" });
    expect(w.find((x) => x.currency === "JPY")).toEqual({
      effectiveDate: "2026-05-23",
      currency: "JPY",
      rate: "5.4969",
      unitMultiplier: 1,
    });
    expect(w.find((x) => x.currency === "BYR")).toEqual({
      effectiveDate: "2026-05-23",
      currency: "BYR",
      rate: "0.3402",
      unitMultiplier: 2,
    });
    expect(w.find((x) => x.currency === "IRR")).toEqual({
      effectiveDate: "2026-05-23",
      currency: "IRR",
      rate: "0.0007",
      unitMultiplier: 1,
    });
  });

  it("asks daily.xml and weekly.xml for the latest, and one history page per currency for a range", async () => {
    const http = fakeHttp(() => ({ body: "" }));
    await nbkr.fetch({ kind: "latest" }, { http, env: {} });
    await nbkr.fetch({ kind: "range", from: "2025-12-01", to: "2025-12-31" }, { http, env: {} });
    const urls = http.seen.map((r) => r.url);
    expect(urls.slice(0, 2)).toEqual(["https://www.nbkr.kg/XML/daily.xml", "https://www.nbkr.kg/XML/weekly.xml"]);
    expect(urls).toHaveLength(2 + Object.keys(NBKR_VALUTA).length);
    expect(urls).toContain(HISTORY(15));
    expect(urls).toContain(HISTORY(184));
  });
});
