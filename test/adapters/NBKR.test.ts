import { describe, expect, it } from "vitest";

import nbkr, { NBKR_VALUTA } from "../../adapters/NBKR.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const HISTORY = (id: number) =>
  `https://www.nbkr.kg/index1.jsp?item=1562&lang=ENG&valuta_id=${id}&beg_day=01&beg_month=12&beg_year=2025&end_day=31&end_month=12&end_year=2025`;
const parse = (body: Buffer | string, url = "https://www.nbkr.kg/XML/daily.xml") =>
  nbkr.parse(Buffer.from(body), { url });

describe("NBKR adapter", () => {
  it("reads the windows-1251 XML with decimal commas and Nominal 10 as unitMultiplier 1", async () => {
    expect(await recordsOf(parse(fixture("NBKR/daily.xml")))).toEqual([
      { effectiveDate: "2025-12-31", currency: "USD", rate: "87.4500" },
      { effectiveDate: "2025-12-31", currency: "JPY", rate: "5.5820", unitMultiplier: 1 },
      { effectiveDate: "2025-12-31", currency: "KZT", rate: "0.1701" },
    ]);
  });

  it("reads a history page's marked rows for the valuta_id of its URL, with that currency's nominal", async () => {
    expect(NBKR_VALUTA[36]).toEqual({ iso: "JPY", nominal: 10 });
    expect(await recordsOf(parse(fixture("NBKR/history.html"), HISTORY(36)))).toEqual([
      { effectiveDate: "2025-12-30", currency: "JPY", rate: "5.5820", unitMultiplier: 1 },
      { effectiveDate: "2025-12-23", currency: "JPY", rate: "5.6010", unitMultiplier: 1 },
    ]);
    expect(
      await recordsOf(
        parse('<html><body><a href="https://www.nbkr.kg/">NBKR</a><table></table></body></html>', HISTORY(16)),
      ),
    ).toEqual([]);
  });

  // itRefusesWhole parses with the daily.xml URL; the history page's own refusal is checked below.
  itRefusesWhole("NBKR", (body) => parse(body), [
    [
      "a truncated XML",
      '<?xml version="1.0" encoding="windows-1251" ?>\n<CurrencyRates Date="31.12.2025">\n<Currency ISOCode="USD">\n<Nominal>1',
    ],
    [
      "another bank's body",
      '<?xml version="1.0" encoding="windows-1251"?><ValCurs Date="02.03.2026" name="Foreign Currency Market"><Valute ID="R01235"><CharCode>USD</CharCode></Valute></ValCurs>',
    ],
  ]);

  it("refuses an error page where a history page was expected", async () => {
    await expect(async () =>
      parse("<!DOCTYPE html><html><body>502 Bad Gateway</body></html>", HISTORY(15)),
    ).rejects.toThrow(/^NBKR: /);
  });

  const xml = (date: string, ...currencies: string[]) =>
    `<?xml version="1.0" encoding="windows-1251" ?><CurrencyRates Date="${date}">${currencies.join("")}</CurrencyRates>`;
  const currency = (code: string, nominal: string, value: string) =>
    `<Currency ISOCode="${code}"><Nominal>${nominal}</Nominal><Value>${value}</Value></Currency>`;
  const good = [currency("USD", "1", "87,4500"), currency("JPY", "10", "5,5820")];
  it.each([
    ["a figure that is not a number", currency("EUR", "1", "87.45.00"), { kind: "bad-rate" }],
    ["a nominal that is no whole number", currency("EUR", "1,5", "102,1"), { kind: "unknown-unit" }],
    ["a code that is not ISO 4217", currency("ЕВР", "1", "102,1"), { kind: "unknown-currency" }],
  ] as const)("holds %s in the XML and takes the other currencies", async (_what, bad, held) => {
    await expectOneHeld(parse(xml("31.12.2025", good[0]!, bad, good[1]!)), {
      records: [
        { effectiveDate: "2025-12-31", currency: "USD", rate: "87.4500" },
        { effectiveDate: "2025-12-31", currency: "JPY", rate: "5.5820", unitMultiplier: 1 },
      ],
      held,
    });
  });

  const row = (date: string, value: string) =>
    `<tr><td><!--date-->${date}<!--date--></td><td><!--value-->${value}<!--value--></td></tr>`;
  it.each([
    ["a date that does not exist", row("31.11.2025", "5,60"), { kind: "bad-date", effectiveDate: "31.11.2025" }],
    [
      "a row with a date but no marked value",
      "<tr><td><!--date-->23.12.2025<!--date--></td><td>5,58</td></tr>",
      { kind: "bad-row" },
    ],
    ["a figure that is not a number", row("16.12.2025", "5.601.0"), { kind: "bad-rate" }],
  ] as const)("holds %s on a history page and takes the other rows", async (_what, bad, held) => {
    const page = `<html><body><table>${row("30.12.2025", "5,5820")}${bad}${row("09.12.2025", "5,6100")}${row("02.12.2025", "-")}</table></body></html>`;
    await expectOneHeld(parse(page, HISTORY(36)), {
      records: [
        { effectiveDate: "2025-12-30", currency: "JPY", rate: "5.5820", unitMultiplier: 1 },
        { effectiveDate: "2025-12-09", currency: "JPY", rate: "5.6100", unitMultiplier: 1 },
      ],
      held: { ...held, source: "row 2" },
    });
  });

  it("holds every row of a history page whose valuta_id is unknown", async () => {
    const answer = await answerOf(
      parse(`<table>${row("30.12.2025", "5,58")}${row("23.12.2025", "5,60")}</table>`, HISTORY(999)),
    );
    expect(answer.records).toEqual([]);
    expect(answer.held.map((h) => [h.kind, h.effectiveDate])).toEqual([
      ["unknown-currency", "30.12.2025"],
      ["unknown-currency", "23.12.2025"],
    ]);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recordings exactly (values read off the files by hand)", async () => {
    const usd = recording("NBKR/001.html");
    expect(await recordsOf(nbkr.parse(usd.body, { url: usd.url }))).toEqual([
      { effectiveDate: "2005-06-25", currency: "USD", rate: "40.9614" },
      { effectiveDate: "2005-06-18", currency: "USD", rate: "41.0685" },
      { effectiveDate: "2005-06-11", currency: "USD", rate: "41.0511" },
      { effectiveDate: "2005-06-04", currency: "USD", rate: "40.9879" },
    ]);
    const eur = recording("NBKR/002.html");
    expect((await recordsOf(nbkr.parse(eur.body, { url: eur.url })))[0]).toEqual({
      effectiveDate: "2005-06-25",
      currency: "EUR",
      rate: "49.4425",
    });
    const weekly = recording("NBKR/004.xml");
    const w = await recordsOf(nbkr.parse(weekly.body, { url: weekly.url }));
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
