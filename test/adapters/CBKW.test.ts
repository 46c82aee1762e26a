import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import cbkw, { cbkwPacing, lookupBody, lookupForm, withdrawnOn } from "../../adapters/CBKW.js";
import { createHttpClient } from "../../src/feed/http.js";
import { isNavigation, parseDocuments } from "../../src/ingest/ingest.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";
import { haveMirror, startMirror } from "../support/mirror.js";
import { withPages } from "../support/overlay.js";

const RATES = "https://www.cbk.gov.kw/en/monetary-policy/market-operations/exchange-rates";
const LOOKUP = `${RATES}/get-exchange-rates`;
const parse = (body: Buffer | string) => cbkw.parse(Buffer.from(body), { url: LOOKUP });
const answer = fixture("CBKW/lookup-eur.html").toString();
const eur = (effectiveDate: string, rate: string) => ({
  effectiveDate,
  currency: "EUR",
  rate,
  unitMultiplier: 3,
  source: expect.any(String) as unknown as string,
});

describe("CBKW adapter", () => {
  beforeAll(() => {
    cbkwPacing.pauseMs = 0;
  });
  afterAll(() => {
    cbkwPacing.pauseMs = 300;
  });

  it("reads fils per unit as the bank's digits in KWD per 1000 units (unitMultiplier 3), trailing zeros kept", async () => {
    expect(await answerOf(parse(answer))).toEqual({
      records: [eur("2026-03-01", "356.100"), eur("2026-03-02", "355.982"), eur("2026-03-03", "356.410")],
      held: [],
    });
  });

  it("holds a day on which the table and the chart disagree, and takes the others", async () => {
    await expectOneHeld(parse(answer.replace("<td>355.982</td>", "<td>355.928</td>")), {
      records: [eur("2026-03-01", "356.100"), eur("2026-03-03", "356.410")],
      held: { kind: "conflict", effectiveDate: "2026-03-02", currency: "EUR", rate: "355.928", source: "row 2" },
    });
  });

  it("takes a day only the chart gives, and shows a chart point that is no day as an ISO date-time, never epoch ms", async () => {
    const noRow = answer.replace(/\s*<tr><td>02\.03\.2026<\/td><td>355\.982<\/td><\/tr>/, "");
    expect(await recordsOf(parse(noRow))).toContainEqual({
      ...eur("2026-03-02", "355.982"),
      source: "chart dataSet[1]",
    });
    // 5 hours after midnight UTC: not a day.
    const offDay = noRow.replace("[1772409600000, 355.982]", "[1772427600000, 355.982]");
    await expectOneHeld(parse(offDay), {
      records: [eur("2026-03-01", "356.100"), eur("2026-03-03", "356.410")],
      held: {
        kind: "bad-date",
        effectiveDate: "2026-03-02T05:00:00.000Z",
        rate: "355.982",
        source: "chart dataSet[1]",
      },
    });
  });

  it("holds a table row that cannot be read", async () => {
    await expectOneHeld(parse(answer.replace("<td>03.03.2026</td>", "<td>31.02.2026</td>")), {
      records: [eur("2026-03-01", "356.100"), eur("2026-03-02", "355.982"), eur("2026-03-03", "356.410")],
      held: { kind: "bad-date", effectiveDate: "31.02.2026", source: "row 3" },
    });
  });

  it("adds the power of ten of a counted header, and divides out any other count (flagged)", async () => {
    const jpy = answer.replaceAll("EUR", "JPY").replace("KWD / Euro", "KWD / 100 Japanese Yen");
    expect((await recordsOf(parse(jpy)))[0]).toMatchObject({ currency: "JPY", rate: "356.100", unitMultiplier: 5 });
    const per8 = answer.replace("KWD / Euro", "KWD / 8 Euro");
    expect((await recordsOf(parse(per8)))[0]).toMatchObject({
      rate: "44.5125",
      unitMultiplier: 3,
      derivation: "unit-normalised",
    });
  });

  it("holds figures dated after their currency was withdrawn (a code the bank still serves)", async () => {
    const sucre = await answerOf(parse(answer.replaceAll("EUR", "ECS")));
    expect(sucre.records).toEqual([]);
    expect(sucre.held.map((h) => [h.kind, h.effectiveDate, h.currency])).toEqual([
      ["unknown-currency", "2026-03-01", "ECS"],
      ["unknown-currency", "2026-03-02", "ECS"],
      ["unknown-currency", "2026-03-03", "ECS"],
    ]);
    expect(sucre.held[0]!.reason).toMatch(/withdrawn on 2000-10-02/);
  });

  it("knows when a currency was withdrawn everywhere, from CLDR", () => {
    expect([
      withdrawnOn("ECS"),
      withdrawnOn("VEF"),
      withdrawnOn("SLL"),
      withdrawnOn("USD"),
      withdrawnOn("EUR"),
    ]).toEqual(["2000-10-02", "2018-08-20", "2023-12-31", undefined, undefined]);
  });

  it("reads a window without data as no records", async () => {
    const empty = answer
      .replace(/"dataSet": \[\[.*?\]\]/, '"dataSet": []')
      .replace(/<tbody>[\s\S]*<\/tbody>/, "<tbody></tbody>");
    expect(await answerOf(parse(empty))).toEqual({
      records: [],
      held: [],
      noPublication: "the chart and the table of EUR have no day in the window asked",
    });
  });

  it("tells the form page (navigation) by its URL or, saved, by its content; a POST answered by it is refused", () => {
    const form = fixture("CBKW/form.html");
    const doc = (url: string, method: "GET" | "POST", body: Buffer) => ({
      url,
      method,
      contentType: "text/html",
      body,
    });
    expect(isNavigation(cbkw, doc(`${RATES}/usd`, "GET", Buffer.from(answer)))).toBe(true);
    expect(isNavigation(cbkw, doc(LOOKUP, "GET", form))).toBe(true); // `exrates parse` of a saved form page
    expect(isNavigation(cbkw, doc(LOOKUP, "POST", form))).toBe(false);
    expect(isNavigation(cbkw, doc(LOOKUP, "GET", Buffer.from(answer)))).toBe(false); // a saved answer
    expect(() => parse(form)).toThrow(/^CBKW: the lookup form's page, not an exchange-rates answer$/);
  });

  itRefusesWhole("CBKW", parse, [
    ["a fragment without the chart block", answer.replace(/<script[\s\S]*?<\/script>/, "")],
    ["a chart in another unit", answer.replace('"yAxisTitle": "Fils"', '"yAxisTitle": "KWD"')],
    ["a chart that does not name its currency", answer.replace("KWD To EUR", "Euro")],
    ["a truncated chart block", answer.replace(/,"dateRangeMin[\s\S]*?<\/script>/, "</script>")],
    ["an answer without the table", answer.replace(/<table[\s\S]*<\/table>/, "")],
    ["a table whose figure column is not KWD", answer.replace("KWD / Euro", "Euro")],
  ]);

  it("reads the form, then posts one lookup per currency (the start exclusive), skipping withdrawn codes", async () => {
    const http = fakeHttp((req) =>
      req.method === "GET" ? { body: fixture("CBKW/form.html") } : { body: answer, contentType: "text/html" },
    );
    const docs = await cbkw.fetch({ kind: "range", from: "2026-03-01", to: "2026-03-03" }, { http, env: {} });
    expect(http.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET ${RATES}/usd`,
      `POST ${LOOKUP}`,
      `POST ${LOOKUP}`,
      `POST ${LOOKUP}`,
    ]);
    expect(http.seen.slice(1).map((r) => new URLSearchParams(r.body).get("selCurrency"))).toEqual([
      "USD:128735",
      "EUR:128741",
      "JPY:128760",
    ]);
    expect(http.seen[1]!.body).toBe(
      "formId=127906&selCurrency=USD%3A128735&txtDateFrom=28%2F02%2F2026&txtDateTo=03%2F03%2F2026",
    );
    expect(docs.map((d) => d.role)).toEqual(["navigation", undefined, undefined, undefined]);
  });

  it("refuses a form page without its id or options", () => {
    expect(() =>
      lookupForm("<html><body><select><option value='USD'>US Dollar</option></select></body></html>"),
    ).toThrow(/^CBKW: no formId/);
    expect(() => lookupForm('<html><body><input name="formId" value="1"></body></html>')).toThrow(/^CBKW: no CODE:ID/);
    expect(lookupBody("9", "USD:1", "2026-01-01", "2026-01-31")).toBe(
      "formId=9&selCurrency=USD%3A1&txtDateFrom=31%2F12%2F2025&txtDateTo=31%2F01%2F2026",
    );
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded lookup exactly (values read off the file by hand)", async () => {
    const usd = recording("CBKW/001.html");
    // <tr><td>06.09.2026</td><td>306.850</td></tr> ... 08.09.2026 306.650; the chart gives the same three days.
    expect(await answerOf(cbkw.parse(usd.body, { url: usd.url }))).toEqual({
      records: [
        { effectiveDate: "2026-09-06", currency: "USD", rate: "306.850", unitMultiplier: 3, source: "row 1" },
        { effectiveDate: "2026-09-07", currency: "USD", rate: "306.850", unitMultiplier: 3, source: "row 2" },
        { effectiveDate: "2026-09-08", currency: "USD", rate: "306.650", unitMultiplier: 3, source: "row 3" },
      ],
      held: [],
    });
  });

  it.skipIf(!haveMirror)(
    "fetches and parses through the feed mirror (the form page, not recorded, from our fixture)",
    async () => {
      const mirror = await startMirror(["CBKW"]);
      try {
        const http = withPages(createHttpClient({ mirror: mirror.url, retries: 0 }), {
          [`${RATES}/usd`]: fixture("CBKW/form.html"),
        });
        const docs = await cbkw.fetch({ kind: "range", from: "2026-09-06", to: "2026-09-08" }, { http, env: {} });
        // The mirror matches a POST by path: each lookup gets the one recorded answer (USD).
        // The mirror logs each answer as it sends it: wait for the last line.
        await vi.waitFor(() =>
          expect(mirror.served().map((s) => s.file)).toEqual(["CBKW/001.html", "CBKW/001.html", "CBKW/001.html"]),
        );
        const parsed = await parseDocuments(cbkw, docs);
        expect(parsed[1]!.records.map((r) => `${r.effectiveDate} ${r.currency} ${r.rate} ${r.unitMultiplier}`)).toEqual(
          ["2026-09-06 USD 306.850 3", "2026-09-07 USD 306.850 3", "2026-09-08 USD 306.650 3"],
        );
      } finally {
        await mirror.stop();
      }
    },
  );
});
