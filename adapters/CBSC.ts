// Central Bank of Seychelles: the Consolidated Average Rates (CAR) of the rupee against the US dollar, the
// euro and the pound sterling.
// - Latest: GET https://www.cbs.sc/Controller/MarketinfoController.jsp?type=car, the current day only: JSON
//   served as `text/html;charset=ISO-8859-1`, wrapped in blank CRLF lines: `{"car":[{"currentDate":
//   "09-Sep-2026","usdbuy":"14.2268","usdsell":"14.7228","usdmid":"14.4077","usddiff":"-0.2089",...}]}`.
// - History: GET https://www.cbs.sc/Downloads/StaExcel/Exchange%20Rates-Daily.xlsx, one sheet per currency
//   since 2000-01-04 with a `Date | SCR/USD` label row, then one row per business day. The workbook keeps
//   the unrounded averages as full-precision numbers (14.616577838181803) and the bank's own views show them
//   to 4 decimals: figures are read rounded half-up to 4 decimals, as shown. A day without a fixing holds
//   text in the cell (GBP on 2020-04-09): skipped. The workbook is regenerated around 16:00 Mahé time and
//   lags the live CAR by a day, so a range reaching yesterday also reads the live answer. (No copy of the
//   workbook was available when this was written: the layout is the documented one, and a workbook with
//   no `Date | SCR/...` label row is refused rather than guessed at.)
// - SCR per 1 unit (Direct). The official figure is the mid (`*mid`), the consolidated average of the
//   authorised dealers' rates; `*buy` and `*sell` are the dealers' averages and `*diff` the day's change.
// - Publication: business days; the live answer held the day's own date at 16:55 Mahé time in the one
//   recording. 16:00 is an estimate; the daemon polls on when the day is not there yet.
// - TLS: www.cbs.sc sends only its leaf certificate. Node needs the intermediate "Sectigo Public Server
//   Authentication CA DV R36" (http://crt.sectigo.com/SectigoPublicServerAuthenticationCADVR36.crt,
//   DER: convert to PEM) in NODE_EXTRA_CA_CERTS, or a live fetch fails verification (README).
// A currency whose mid or date cannot be read is held; an answer without the `car` array, or a workbook
// without any `Date | SCR/...` label row, is refused whole.

import {
  AnswerRows,
  FeedError,
  addDays,
  decodeText,
  defineAdapter,
  foldName,
  jsonNumberText,
  parseJsonExact,
  readDecimal,
  requireCurrencyCode,
  requireDate,
  requireDecimal,
  todayIn,
  type FeedDocument,
  type RateRecord,
} from "../src/feed/kit.js";
import { fromDayMonthName } from "../src/feed/month-names.js";
import { cellDate, cellText, numberText, readXlsx, type Cell, type Worksheet } from "../src/feed/spreadsheet.js";

const ID = "CBSC";
const TIME_ZONE = "Indian/Mahe";
const LIVE = "https://www.cbs.sc/Controller/MarketinfoController.jsp?type=car";
const WORKBOOK = "https://www.cbs.sc/Downloads/StaExcel/Exchange%20Rates-Daily.xlsx";
/** The precision the bank publishes the averages at. */
const SHOWN = "0.0000";

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The live answer: one record per `<ccy>mid` of each `car` entry. */
function parseLive(body: Uint8Array) {
  const json = parseJsonExact(ID, decodeText(ID, body, "iso-8859-1").trim());
  if (!isObject(json) || !Array.isArray(json.car)) throw new FeedError(ID, 'not the CAR answer: no "car" array');
  const rows = new AnswerRows(ID);
  json.car.forEach((entry: unknown, i) => {
    const car = isObject(entry) ? entry : {};
    const date = typeof car.currentDate === "string" ? car.currentDate : "";
    const mids = Object.keys(car).filter((k) => /^[a-z]{3}mid$/.test(k));
    if (mids.length === 0) rows.hold(`car[${i}]`, "bad-row", "no <currency>mid figure", { effectiveDate: date });
    for (const key of mids) {
      const raw = jsonNumberText(car[key]) ?? String(car[key]);
      const code = key.slice(0, 3).toUpperCase();
      rows.read(
        `car[${i}].${key}`,
        (): RateRecord => ({
          effectiveDate: requireDate(ID, fromDayMonthName(date), date),
          currency: requireCurrencyCode(ID, code),
          rate: requireDecimal(ID, raw, key),
        }),
        { effectiveDate: date, currency: code, rate: raw },
      );
    }
  });
  return rows.result();
}

/** The `Date | SCR/XXX` label row of a sheet: its row, the Date column and each currency's column. */
function labelRow(ws: Worksheet): { row: number; date: number; currencies: Array<[number, string]> } | undefined {
  for (let r = 1; r <= Math.min(ws.rowCount, 15); r++) {
    let date = 0;
    const currencies: Array<[number, string]> = [];
    for (const cell of ws.getRow(r).cells()) {
      const c = cell.col;
      const t = cellText(cell);
      const pair = /^SCR\s*\/\s*([A-Za-z]{3})$/.exec(t);
      if (foldName(t) === "date") date = c;
      else if (pair) currencies.push([c, pair[1]!.toUpperCase()]);
    }
    if (date > 0 && currencies.length > 0) return { row: r, date, currencies };
  }
  return undefined;
}

/** A figure cell: a number rounded to the shown 4 decimals, a text that is a number, or undefined (no fixing). */
function figure(cell: Cell): string | undefined {
  const v = cell.value as unknown;
  const n = typeof v === "number" ? v : isObject(v) && typeof v.result === "number" ? v.result : undefined;
  if (n !== undefined) return numberText(n, SHOWN, "displayed");
  return readDecimal(cellText(cell));
}

/** The history workbook: every sheet with a `Date | SCR/...` label row. */
async function parseWorkbook(body: Uint8Array) {
  const wb = await readXlsx(ID, body);
  const rows = new AnswerRows(ID);
  let tables = 0;
  for (const ws of wb.worksheets) {
    const labels = labelRow(ws);
    if (!labels) continue; // a cover or notes sheet
    tables++;
    for (const row of ws.rows()) {
      const r = row.number;
      if (r <= labels.row) continue;
      const dateCell = row.getCell(labels.date);
      for (const [c, code] of labels.currencies) {
        const rate = figure(row.getCell(c));
        if (rate === undefined) continue; // empty, or a note: no fixing that day
        rows.read(
          `sheet "${ws.name}" row ${r}`,
          (): RateRecord => ({
            effectiveDate: requireDate(ID, cellDate(dateCell), cellText(dateCell)),
            currency: requireCurrencyCode(ID, code),
            rate,
          }),
          { effectiveDate: cellText(dateCell), currency: code, rate: cellText(row.getCell(c)) },
        );
      }
    }
  }
  if (tables === 0) throw new FeedError(ID, 'no sheet with a "Date | SCR/..." label row in the workbook');
  return rows.result();
}

const cbsc = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Bank of Seychelles", abbreviatedName: "CBS" },
      { languageCode: "fr", name: "Banque Centrale des Seychelles", abbreviatedName: "BCS" },
    ],
    // An estimate (see the header).
    dailyUpdateTime: "16:00:00",
    bankCurrency: "SCR",
    countryCode: ["SC"],
    region: ["Africa"],
    timeZone: TIME_ZONE,
    website: "https://www.cbs.sc",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "2000-01-04",
    maxRangeDays: 36500,
    sourceUrl: LIVE,
  },

  async fetch(range, { http }) {
    const live = () => http.get(LIVE, { accept: "application/json, text/html" });
    if (range.kind === "latest") return [await live()];
    const docs: FeedDocument[] = [
      await http.get(WORKBOOK, {
        accept: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, application/octet-stream",
      }),
    ];
    // The workbook lags the live rates by a day.
    if (range.to >= addDays(todayIn(TIME_ZONE), -1)) docs.push(await live());
    return docs;
  },

  async parse(body) {
    // Which answer it is, by its bytes (a zip is the workbook): a saved file keeps no URL worth trusting.
    return body[0] === 0x50 && body[1] === 0x4b ? parseWorkbook(body) : parseLive(body);
  },
});

export default cbsc;
