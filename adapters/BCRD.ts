// Banco Central de la República Dominicana: the reference rates of the US dollar on the spot market, the
// whole history since 1991 in one workbook.
// - Endpoint: GET https://cdn.bancentral.gov.do/documents/estadisticas/mercado-cambiario/documents/TASA_DOLAR_REFERENCIA_MC.xlsx
//   (no date parameters: latest and every range read the same file, and the store folds the repeats; the
//   CDN may answer application/octet-stream). A same-named .xls answers too but has been frozen since
//   2022-07; the bank's REST API (api.bancentral.gov.do) needs a key and is not used.
// - Sheet `Diaria`: two title rows, then `Año | Mes | Día | Compra | Venta`, one row per business day; the
//   month is a Spanish abbreviation (`Ene` ... `Dic`, sometimes with a trailing space). The other six sheets
//   (PromMensual, PromTrimestral, PromAnual, FPMensual, FPTrimestral, FPAnual) are period averages and
//   end-of-period repeats of the daily figures, not publications of their own: every sheet is looked at,
//   and a sheet is read as daily when its label row has a `Día` column; the others are left out.
// - DOP per 1 USD (Direct): the reference buying (Compra) and selling (Venta) rates; the bank publishes no
//   daily mid. The published figure is their exact mean, flagged `mean` (the text itself when both are
//   equal), as for the other banks that publish only a pair (docs/DECISIONS.md, "BCRD").
// - Cells are numbers shown with 4 decimals; a few were typed with more (38.0472112): figures are read as
//   the sheet shows them (4 decimals), which is how the bank publishes them.
// - The file holds odd dates from the bank's own history, kept as given: in 1999 a run of Saturdays and
//   Sundays where Thursdays and Fridays would be expected (the rate was flat then), a buying rate above the
//   selling one on 1991-01-25.
// - Publication: the workbook of 2023-04-20 was saved at 15:38 Santo Domingo time with that day's row;
//   16:00 is an estimate from that one file. Business days.
// A row without either figure is a day without rates (or a note), skipped; a row whose date or figures
// cannot be read is held with its row number; a workbook without a
// `Año | Mes | Día | Compra | Venta` sheet is not this file and is refused whole.

import {
  AnswerRows,
  FeedError,
  defineAdapter,
  foldName,
  isoFromParts,
  mean,
  requireDate,
  rowProblem,
} from "../src/feed/kit.js";
import { monthNumber } from "../src/feed/month-names.js";
import { cellDecimal, cellText, readXlsx, type Row, type Worksheet } from "../src/feed/spreadsheet.js";

const ID = "BCRD";
const FILE =
  "https://cdn.bancentral.gov.do/documents/estadisticas/mercado-cambiario/documents/TASA_DOLAR_REFERENCIA_MC.xlsx";
const LABELS = ["ano", "mes", "dia", "compra", "venta"] as const;
type Columns = Record<(typeof LABELS)[number], number>;

/** The label row of a daily sheet (`Año | Mes | Día | Compra | Venta`) in its first rows, or undefined. */
function dailyColumns(ws: Worksheet): { row: number; at: Columns } | undefined {
  for (let r = 1; r <= Math.min(ws.rowCount, 10); r++) {
    const labels: string[] = [];
    for (const cell of ws.getRow(r).cells()) labels[cell.col] = foldName(cellText(cell));
    const at = Object.fromEntries(LABELS.map((l) => [l, labels.indexOf(l)])) as Columns;
    if (Object.values(at).every((c) => c > 0)) return { row: r, at };
  }
  return undefined;
}

/** One day: the date from its three cells, the figure from Compra and Venta. */
function readDay(row: Row, at: Columns) {
  const [year, month, day] = [at.ano, at.mes, at.dia].map((c) => cellText(row.getCell(c)));
  const m = monthNumber(month!, ["es", "es-PE"]);
  const raw = `${year}-${month}-${day}`;
  const effectiveDate = requireDate(
    ID,
    /^\d{4}$/.test(year!) && /^\d{1,2}$/.test(day!) && m !== undefined ? isoFromParts(year!, m, day!) : undefined,
    raw,
  );
  const buy = cellDecimal(row.getCell(at.compra), "displayed");
  const sell = cellDecimal(row.getCell(at.venta), "displayed");
  if (buy === undefined || sell === undefined)
    rowProblem(
      ID,
      "bad-rate",
      `Compra "${cellText(row.getCell(at.compra))}" or Venta "${cellText(row.getCell(at.venta))}" is not a rate`,
    );
  return buy === sell
    ? { effectiveDate, currency: "USD", rate: buy }
    : { effectiveDate, currency: "USD", rate: mean(buy, sell), derivation: "mean" as const };
}

/** Reads one daily sheet into `rows`. */
function readSheet(rows: AnswerRows, ws: Worksheet, header: { row: number; at: Columns }): void {
  const { at } = header;
  for (const row of ws.rows()) {
    const r = row.number;
    if (r <= header.row) continue;
    const texts = LABELS.map((l) => cellText(row.getCell(at[l])));
    if (texts.every((t) => t === "")) continue; // blank row
    if (texts[3] === "" && texts[4] === "") continue; // a note under the table, or a day without rates
    rows.read(`sheet "${ws.name}" row ${r}`, () => readDay(row, at), {
      effectiveDate: `${texts[0]}-${texts[1]}-${texts[2]}`,
      currency: "USD",
      rate: `${texts[3]} / ${texts[4]}`,
    });
  }
}

const bcrd = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Bank of the Dominican Republic", abbreviatedName: "BCRD" },
      { languageCode: "es", name: "Banco Central de la República Dominicana", abbreviatedName: "BCRD" },
    ],
    // An estimate from one saved workbook (see the header).
    dailyUpdateTime: "16:00:00",
    bankCurrency: "DOP",
    countryCode: ["DO"],
    region: ["Americas"],
    timeZone: "America/Santo_Domingo",
    website: "https://www.bancentral.gov.do",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "1991-01-02",
    maxRangeDays: 36500,
    sourceUrl: FILE,
  },

  async fetch(_range, { http }) {
    const accept = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, application/octet-stream";
    return [await http.get(FILE, { accept })];
  },

  async parse(body) {
    const wb = await readXlsx(ID, body);
    const rows = new AnswerRows(ID);
    let daily = 0;
    for (const ws of wb.worksheets) {
      const header = dailyColumns(ws);
      if (!header) continue; // a period summary (monthly, quarterly, yearly averages or closes)
      readSheet(rows, ws, header);
      daily++;
    }
    if (daily === 0) throw new FeedError(ID, 'no sheet with an "Año | Mes | Día | Compra | Venta" label row');
    return rows.result();
  },
});

export default bcrd;
