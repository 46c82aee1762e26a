import { describe, expect, it, vi } from "vitest";

import cbo, { exportBody, searchForm } from "../../adapters/CBO.js";
import { createHttpClient } from "../../src/feed/http.js";
import { isNavigation, parseDocuments } from "../../src/ingest/ingest.js";
import { gateRecords } from "../../src/ingest/validate.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";
import { haveMirror, startMirror } from "../support/mirror.js";
import { withPages } from "../support/overlay.js";

const PAGE = "https://cbo.gov.om/Pages/DFESearch.aspx";
const PREFIX = "ctl00$ctl40$g_7c1f0e2a_4b8d_4d2b_9e5f_1a2b3c4d5e6f$ctl00$";
const parse = (body: Buffer | string) =>
  cbo.parse(Buffer.from(body), { url: PAGE, contentType: "application/vnd.ms-excel; charset=utf-8" });
const table = fixture("CBO/export.html").toString();
const eur = (effectiveDate: string, rate: string, source: string) => ({
  effectiveDate,
  currency: "EUR",
  rate,
  derivation: "mean" as const,
  source,
});
/** The fixture's first row, alone under the header, with its cells replaced. */
const oneRow = (row: string) => table.replace(/<\/tr><tr>[\s\S]*<\/tr>/, `</tr><tr>${row}</tr>`);
const GOOD = eur("2026-03-01", "0.45215", "row 2");

describe("CBO adapter", () => {
  it("publishes the exact mean of Buying and Selling, the day's latest revision only, without the type prefix", async () => {
    // 01/03: (0.4512 + 0.4531) / 2; 02/03: the 11:30 revision, (0.4503 + 0.4523) / 2; 03/03 has no figure;
    // 04/03: the 12:05 PM row beats the 09:58 AM one written after it, (0.45 + 0.4517) / 2.
    expect(await answerOf(parse(table))).toEqual({
      records: [GOOD, eur("2026-03-02", "0.4513", "row 4"), eur("2026-03-04", "0.45085", "row 6")],
      held: [],
    });
  });

  const row = (code: string, when: string, buy: string, sell: string) =>
    `<td>${code}</td><td>${when}</td><td>x</td><td>y</td><td>string;#${buy}</td><td>string;#${sell}</td>`;
  it.each([
    ["only one of the two figures", row("EUR", "05/03/2026 09:55:00 AM", "0.4491", ""), "bad-rate"],
    ["a figure that is not a number", row("EUR", "05/03/2026 09:55:00 AM", "0.4491", "n/a"), "bad-rate"],
    ["a date that does not exist", row("EUR", "31/02/2026 09:55:00 AM", "0.4491", "0.4513"), "bad-date"],
    ["an hour that does not exist", row("EUR", "05/03/2026 13:55:00 PM", "0.4491", "0.4513"), "bad-date"],
    ["a code that is no currency", row("EUX", "05/03/2026 09:55:00 AM", "0.4491", "0.4513"), "unknown-currency"],
  ] as const)("holds a row with %s and takes the others", async (_what, bad, kind) => {
    const first = /<tr>\s*<td>EUR<\/td>[\s\S]*?<\/tr>/.exec(table)![0];
    await expectOneHeld(parse(oneRow(`${first.slice(4, -5)}</tr><tr>${bad}`)), {
      records: [GOOD],
      held: { kind, source: "row 3" },
    });
  });

  it("publishes the text itself when Buying and Selling are equal", async () => {
    const equal = oneRow(row("USD", "05/03/2026 09:55:00 AM", "0.3850", "0.3850"));
    expect((await answerOf(parse(equal))).records).toEqual([
      { effectiveDate: "2026-03-05", currency: "USD", rate: "0.3850", source: "row 2" },
    ]);
  });

  it("gives both figures of one time of day, so that the gate holds the conflict", async () => {
    const twice = oneRow(
      `${row("EUR", "05/03/2026 09:55:00 AM", "0.4491", "0.4513")}</tr><tr>${row("EUR", "05/03/2026 09:55:00 AM", "0.4493", "0.4513")}`,
    );
    const { records, held } = await answerOf(parse(twice));
    expect(records.map((r) => r.rate)).toEqual(["0.4502", "0.4503"]);
    expect(gateRecords("OMR", records, held).held.map((h) => [h.kind, h.source])).toEqual([
      ["conflict", "row 2"],
      ["conflict", "row 3"],
    ]);
  });

  it("tells a saved copy of the search page (navigation) by its content; a POST answered by it is refused", () => {
    const page = fixture("CBO/search-page.html");
    expect(isNavigation(cbo, { url: PAGE, method: "GET", contentType: "text/html", body: page })).toBe(true);
    expect(isNavigation(cbo, { url: PAGE, method: "POST", contentType: "text/html", body: page })).toBe(false);
    expect(isNavigation(cbo, { url: PAGE, method: "GET", contentType: "text/html", body: Buffer.from(table) })).toBe(
      false,
    ); // `exrates parse` of a saved export
    expect(() => parse(page)).toThrow(/^CBO: the search page, not the export table/);
  });

  it("reads an export table without rows as the bank publishing nothing for the dates asked", async () => {
    const empty = table.replace(/<\/tr><tr>[\s\S]*<\/tr>/, "</tr>");
    expect(await answerOf(parse(empty))).toEqual({
      records: [],
      held: [],
      noPublication: "the export table has no rows for the dates asked",
    });
  });

  itRefusesWhole("CBO", parse, [
    ["an export without the Selling column", table.replace(">Selling<", ">Mid<")],
    ["a table that is not the export", "<table><tr><td>Date</td><td>Rate</td></tr></table>"],
    ["a truncated export", table.slice(0, -40)],
  ]);

  it("reads the form: hidden fields, the GUID prefix, the currencies without All", () => {
    const form = searchForm(fixture("CBO/search-page.html").toString());
    expect(form.prefix).toBe(PREFIX);
    expect(form.currencies).toEqual(["AED", "EUR", "USD"]);
    expect(form.fields.map(([name]) => name)).toEqual([
      "MSOWebPartPage_PostbackSource",
      "__REQUESTDIGEST",
      "__VIEWSTATE",
      "__VIEWSTATEGENERATOR",
      "__EVENTVALIDATION",
    ]);
    const body = new URLSearchParams(exportBody(form, "EUR", "2026-03-01", "2026-03-05"));
    expect([...body.keys()].slice(-4)).toEqual([
      `${PREFIX}ddCurrencyCodes`,
      `${PREFIX}dateFrom`,
      `${PREFIX}dateTo`,
      `${PREFIX}btnExport`,
    ]);
    expect([body.get(`${PREFIX}ddCurrencyCodes`), body.get(`${PREFIX}dateFrom`), body.get(`${PREFIX}dateTo`)]).toEqual([
      "EUR",
      "01/03/2026",
      "05/03/2026",
    ]);
    expect(() => searchForm("<html><body><form></form></body></html>")).toThrow(/^CBO: no currency list/);
  });

  it("gets the page once, then posts one export per currency in the same session", async () => {
    const http = fakeHttp((req) =>
      req.method === "GET"
        ? { body: fixture("CBO/search-page.html") }
        : { body: table, contentType: "application/vnd.ms-excel; charset=utf-8" },
    );
    const docs = await cbo.fetch({ kind: "range", from: "2026-03-01", to: "2026-03-05" }, { http, env: {} });
    expect(http.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET ${PAGE}`,
      ...Array<string>(3).fill(`POST ${PAGE}`),
    ]);
    expect(http.seen.slice(1).map((r) => new URLSearchParams(r.body).get(`${PREFIX}ddCurrencyCodes`))).toEqual([
      "AED",
      "EUR",
      "USD",
    ]);
    expect(docs.map((d) => d.role)).toEqual(["navigation", undefined, undefined, undefined]);
  });

  it("refuses an export answered with the search page (it would read as no rates)", async () => {
    const http = fakeHttp(() => ({ body: fixture("CBO/search-page.html") }));
    await expect(cbo.fetch({ kind: "range", from: "2026-03-01", to: "2026-03-05" }, { http, env: {} })).rejects.toThrow(
      /^CBO: the export of AED answered with the search page/,
    );
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded export exactly (values read off the file by hand)", async () => {
    const aed = recording("CBO/001.html");
    // string;#0.104541 / string;#0.1048218 on 01/06 and 03/06; 0.1045438 / 0.1048275; 0.104541 / 0.1048189.
    const { records, held } = await answerOf(cbo.parse(aed.body, { url: aed.url, contentType: aed.contentType }));
    expect(held).toEqual([]);
    expect(records.map((r) => [r.effectiveDate, r.currency, r.rate, r.derivation])).toEqual([
      ["2026-06-01", "AED", "0.1046814", "mean"],
      ["2026-06-02", "AED", "0.10468565", "mean"],
      ["2026-06-03", "AED", "0.1046814", "mean"],
      ["2026-06-04", "AED", "0.10467995", "mean"],
    ]);
  });

  it.skipIf(!haveMirror)(
    "fetches and parses through the feed mirror (the search page, not recorded, from our fixture)",
    async () => {
      const mirror = await startMirror(["CBO"]);
      try {
        const http = withPages(createHttpClient({ mirror: mirror.url, retries: 0 }), {
          [PAGE]: fixture("CBO/search-page.html"),
        });
        const docs = await cbo.fetch({ kind: "range", from: "2026-06-01", to: "2026-06-04" }, { http, env: {} });
        // The mirror logs each answer as it sends it: wait for the last line.
        await vi.waitFor(() =>
          expect(mirror.served().map((s) => s.file)).toEqual(["CBO/001.html", "CBO/001.html", "CBO/001.html"]),
        );
        const parsed = await parseDocuments(cbo, docs);
        expect(parsed.slice(1).every((p) => p.records.length === 4 && p.held.length === 0)).toBe(true);
      } finally {
        await mirror.stop();
      }
    },
  );
});
