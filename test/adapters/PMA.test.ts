import ExcelJS from "exceljs";
import { describe, expect, it, vi } from "vitest";

import pma, { exportBody, exportForm } from "../../adapters/PMA.js";
import { createHttpClient } from "../../src/feed/http.js";
import { isNavigation, parseDocuments } from "../../src/ingest/ingest.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";
import { haveMirror, startMirror } from "../support/mirror.js";

const EXPORT = "https://wcur.pma.ps/ar/webtools/currency/export";
const parse = (body: Buffer | string) => pma.parse(Buffer.from(body), { url: EXPORT });
const HEADER = ["التاريخ", "العملة", "الشراء", "البيع", "الوسطي"];
const form = fixture("PMA/form.html").toString();

/** A workbook in the export's layout (every cell a string), with these rows under the header. */
async function workbook(rows: string[][], header = HEADER): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("Worksheet");
  ws.addRow(header);
  for (const row of rows) ws.addRow(row);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
const USD_ROW = ["2026/03/01", "USD/ILS", "3.1530", "3.1570", "3.155"];
const USD = { effectiveDate: "2026-03-01", currency: "USD", rate: "3.155", source: "row 2" };

describe("PMA adapter", () => {
  it("publishes the PMA's own mid of the pairs priced in shekels, as written; pairs priced in other currencies are left out", async () => {
    expect(await answerOf(parse(fixture("PMA/export.xlsx")))).toEqual({
      records: [
        USD,
        { effectiveDate: "2026-03-01", currency: "JOD", rate: "4.4495", source: "row 7" },
        { effectiveDate: "2026-03-01", currency: "EGP", rate: "0.0621", source: "row 8" },
        { effectiveDate: "2026-03-02", currency: "USD", rate: "3.1511", source: "row 9" },
        { effectiveDate: "2026-03-02", currency: "JOD", rate: "4.4445", source: "row 10" },
      ],
      held: [],
    });
  });

  it("inverts a shekel pair written the other way round, flagged", async () => {
    expect(await recordsOf(parse(await workbook([["2026/03/02", "ILS/JOD", "0.2245", "0.2255", "0.225"]])))).toEqual([
      { effectiveDate: "2026-03-02", currency: "JOD", rate: "4.444444444", derivation: "inverted", source: "row 2" },
    ]);
  });

  it.each([
    ["a date that does not exist", ["2026/02/30", "EUR/ILS", "3.47", "3.48", "3.475"], { kind: "bad-date" }],
    ["no mid", ["2026/03/01", "EUR/ILS", "3.4711", "3.4759", ""], { kind: "bad-rate", currency: "EUR/ILS" }],
    ["a pair that is no pair", ["2026/03/01", "EURO", "3.4711", "3.4759", "3.4736"], { kind: "bad-row" }],
    [
      "a code that is no currency",
      ["2026/03/01", "EUX/ILS", "3.4711", "3.4759", "3.4736"],
      { kind: "unknown-currency" },
    ],
  ] as const)("holds a row with %s and takes the others", async (_what, bad, held) => {
    await expectOneHeld(parse(await workbook([USD_ROW, [...bad]])), {
      records: [USD],
      held: { ...held, source: "row 3" },
    });
  });

  it("reads every sheet, and refuses a workbook whose header lost a column", async () => {
    const wb = new ExcelJS.Workbook();
    for (const [name, row] of [
      ["a", USD_ROW],
      ["b", ["2026/03/02", "USD/ILS", "3.1490", "3.1532", "3.1511"]],
    ] as const) {
      const ws = wb.addWorksheet(name);
      ws.addRow(HEADER);
      ws.addRow([...row]);
    }
    const two = Buffer.from(await wb.xlsx.writeBuffer());
    expect((await recordsOf(parse(two))).map((r) => `${r.effectiveDate} ${r.rate} ${r.source}`)).toEqual([
      '2026-03-01 3.155 sheet "a" row 2',
      '2026-03-02 3.1511 sheet "b" row 2',
    ]);
    await expect(parse(await workbook([USD_ROW], HEADER.slice(0, 4)))).rejects.toThrow(/^PMA: the export's header/);
  });

  itRefusesWhole("PMA", parse, [
    ["a truncated workbook", fixture("PMA/export.xlsx").subarray(0, 3000)],
    [
      "the export form with an error message",
      form.replace('<div class="form">', '<div class="alert alert-error">Invalid token</div><div class="form">'),
    ],
  ]);
  it("refuses a workbook without the export's header", async () => {
    await expect(parse(await workbook([USD_ROW], ["Date", "Pair", "Buy", "Sell", "Mid"]))).rejects.toThrow(
      /^PMA: not the PMA export/,
    );
  });

  it("tells a saved copy of the form (navigation) by its content; a POST answered by the form is refused", async () => {
    const saved = { url: EXPORT, method: "GET" as const, contentType: "text/html", body: Buffer.from(form) };
    expect(isNavigation(pma, saved)).toBe(true);
    const at = new Date();
    const parsed = await parseDocuments(pma, [{ ...saved, status: 200, startedAt: at, finishedAt: at }]);
    expect(parsed.map((p) => [p.navigation, p.records.length])).toEqual([[true, 0]]);
    expect(isNavigation(pma, { ...saved, method: "POST" })).toBe(false);
    expect(isNavigation(pma, { ...saved, body: fixture("PMA/export.xlsx") })).toBe(false);
    await expect(parse(form)).rejects.toThrow(/^PMA: the export form, not a workbook$/);
  });

  it("gets the form, then posts its random token with the range, in one session", async () => {
    const xlsx = fixture("PMA/export.xlsx");
    const http = fakeHttp((req) => (req.method === "GET" ? { body: form } : { body: xlsx }));
    const docs = await pma.fetch({ kind: "range", from: "2026-03-01", to: "2026-03-05" }, { http, env: {} });
    expect(http.seen.map((r) => `${r.method} ${r.url}`)).toEqual([`GET ${EXPORT}`, `POST ${EXPORT}`]);
    expect(http.seen[1]!.body).toBe(
      "dGVzdC10b2tlbi1uYW1lLTAwMQ%3D%3D=dGVzdC10b2tlbi12YWx1ZS0wMDE%3D&from=2026-03-01&to=2026-03-05",
    );
    expect(http.seen[1]!.headers).toMatchObject({ Referer: EXPORT });
    expect(docs.map((d) => d.role)).toEqual(["navigation", undefined]);
    expect(exportBody(exportForm(form), "2020-09-01", "2020-09-30")).toMatch(/&from=2020-09-01&to=2020-09-30$/);
  });

  it("refuses an export answered with the form again, with the form's message", async () => {
    const refused = form.replace(
      '<div class="form">',
      '<div class="alert alert-error">انتهت صلاحية الجلسة</div><div class="form">',
    );
    const http = fakeHttp((req) => ({ body: req.method === "GET" ? form : refused }));
    await expect(pma.fetch({ kind: "range", from: "2026-03-01", to: "2026-03-05" }, { http, env: {} })).rejects.toThrow(
      /^PMA: the export of 2026-03-01 to 2026-03-05 answered with its form, not a workbook: انتهت صلاحية الجلسة$/,
    );
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded export exactly (values read off the file by hand)", async () => {
    const xlsx = recording("PMA/002.xlsx");
    const records = await recordsOf(pma.parse(xlsx.body, { url: xlsx.url }));
    // Six days (1-3 and 6-8 September 2026) x USD/ILS, JOD/ILS, EUR/ILS, EGP/ILS; the other 21 pairs left out.
    expect(records).toHaveLength(24);
    expect(records.slice(0, 4).map((r) => [r.effectiveDate, r.currency, r.rate])).toEqual([
      ["2026-09-01", "USD", "2.9924"],
      ["2026-09-01", "JOD", "4.2206"],
      ["2026-09-01", "EUR", "3.4736"],
      ["2026-09-01", "EGP", "0.0588"],
    ]);
    expect(records.at(-4)).toMatchObject({ effectiveDate: "2026-09-08", currency: "USD", rate: "3.0115" });
    const form = recording("PMA/001.html");
    expect(exportBody(exportForm(form.body.toString()), "2026-09-01", "2026-09-08")).toBe(xlsx.requestBody);
  });

  it.skipIf(!haveMirror)("fetches and parses through the feed mirror, both steps recorded", async () => {
    const mirror = await startMirror(["PMA"]);
    try {
      const http = createHttpClient({ mirror: mirror.url, retries: 0 });
      const docs = await pma.fetch({ kind: "range", from: "2026-09-01", to: "2026-09-08" }, { http, env: {} });
      // The mirror logs each answer as it sends it: wait for the last line.
      await vi.waitFor(() => expect(mirror.served().map((s) => s.file)).toEqual(["PMA/001.html", "PMA/002.xlsx"]));
      const parsed = await parseDocuments(pma, docs);
      expect([parsed[0]!.records.length, parsed[1]!.records.length, parsed[1]!.held.length]).toEqual([0, 24, 0]);
    } finally {
      await mirror.stop();
    }
  });
});
