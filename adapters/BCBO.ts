// Banco Central de Bolivia: official exchange rates as old binary XLS (BIFF), read with SheetJS.
// - Before 2008, GET https://www.bcb.gob.bo/tiposDeCambioHistorico/xls.php?anio=YYYY: a sheet titled
//   "AÑO YYYY", a matrix of days (rows under `DIAS`, 1 to 31) by months (a banner per month over a VENTA |
//   COMPRA pair of columns) for the US dollar only, then a `PROM` row of averages (skipped). The official
//   figure is the exact mean of VENTA and COMPRA (flagged "mean"). Empty cells are days without a quotation.
// - From 2008, GET https://www.bcb.gob.bo/librerias/indicadores/otras/otras_imprimir2XLS.php?qaa=YYYY&qdd=D&qmm=M,
//   one call per weekday: the day's "TABLA DE COTIZACIONES DEL 13 DE JULIO DE 2026" (Spanish month names,
//   runs of spaces inside). The dollar comes from the BCB section: since 2026-07 a single official
//   `Tipo de Cambio Oficial (TCO) (Bs/USD)` column; before, VENTA and COMPRA columns whose mean is taken.
//   The other currencies come from the `TIPO DE CAMBIO EN Bs POR UNIDAD DE MONEDA EXTRANJERA` column of the
//   `COTIZACION DE MONEDAS` table (BOB per unit, Direct), which ends at the first row without a code; its
//   `USD` row (Ecuador) is skipped, and the offshore yuan comes as CNH. Gold, silver and the SDR are quoted
//   in US dollars there: converting them would be a cross rate, which the contract has no derivation for,
//   so they are left out; the UFV (a housing index unit) and SOFR are no currencies.
// - Every sheet of a workbook is read. Columns and sections are found by their labels (accents, case and
//   punctuation ignored); a missing label refuses the answer.
// - Published on weekdays within 12:00-14:30 UTC, i.e. from 08:00 in La Paz (UTC-4).
import type * as XLSX from "@e965/xlsx";

import {
  AnswerRows,
  FeedError,
  addDays,
  defineAdapter,
  foldName,
  mean,
  recentDays,
  requireDate,
  requireDateParts,
  rowProblem,
  weekday,
  type FeedDocument,
  type IsoDate,
  type RateRecord,
} from "../src/feed/kit.js";
import { monthNumber, readMonthBanner, type MonthBanner } from "../src/feed/month-names.js";
import { readXls, xlsDecimal, xlsGrid, xlsText } from "../src/feed/spreadsheet.js";

const ID = "BCBO";
const SITE = "https://www.bcb.gob.bo";
const YEARLY = `${SITE}/tiposDeCambioHistorico/xls.php`;
const DAILY = `${SITE}/librerias/indicadores/otras/otras_imprimir2XLS.php`;
const DAILY_FROM = "2008-01-01";
/** Spanish month names; Bolivian sheets write both SEPTIEMBRE and SETIEMBRE (ICU's es-PE form). */
const SPANISH = ["es", "es-PE"];

type Grid = Array<Array<XLSX.CellObject | undefined>>;
const folded = (cell: XLSX.CellObject | undefined) => foldName(xlsText(cell));

/** A rate cell: its decimal, undefined when empty, or a RowProblem when it holds something else. */
function rateCell(cell: XLSX.CellObject | undefined, what: string): string | undefined {
  const rate = xlsDecimal(cell);
  if (rate !== undefined) return rate;
  const text = xlsText(cell);
  if (text === "") return undefined;
  return rowProblem(ID, "bad-rate", `${what} "${text}" is not a rate`, { rate: text });
}

/** A month's VENTA | COMPRA columns under its banner; `problem` when its days cannot be dated. */
interface MonthColumn {
  month?: number;
  name: string;
  venta: number;
  compra: number;
  problem?: string;
}

function bannerProblem(name: string, banner: Exclude<MonthBanner, { kind: "month" }>): string {
  return banner.kind === "ambiguous"
    ? `the month banner "${name}" could be ${banner.candidates.join(" or ")}`
    : `the month banner "${name}" cannot be read`;
}

/** Reads one yearly matrix sheet into `rows`; false when the sheet has no `DIAS` row. */
function readYearly(rows: AnswerRows, sheetName: string, grid: Grid): boolean {
  const h = grid.findIndex((row) => folded(row[0]) === "dias");
  if (h < 0) return false;
  const yearText = grid
    .flat()
    .map(folded)
    .find((t) => /^ano \d{4}$/.test(t));
  if (!yearText) throw new FeedError(ID, `sheet "${sheetName}" has no "AÑO YYYY" title`);
  const year = Number(yearText.slice(4));
  const months = grid[h]!;
  const sides = grid[h + 1] ?? [];
  // Each month banner sits over its VENTA column; COMPRA is the next one.
  const blocks: MonthColumn[] = [];
  months.forEach((cell, c) => {
    if (c === 0) return;
    const name = xlsText(cell);
    const banner = name === "" ? undefined : readMonthBanner(name, SPANISH);
    if (!banner) return;
    const labelled = folded(sides[c]) === "venta" && folded(sides[c + 1]) === "compra";
    if (banner.kind !== "month") {
      // A banner no month reads, over VENTA | COMPRA: its days are held, naming the candidates.
      if (labelled) blocks.push({ name, venta: c, compra: c + 1, problem: bannerProblem(name, banner) });
      return;
    }
    if (!labelled) throw new FeedError(ID, `${year}-${banner.month}: the VENTA | COMPRA labels are missing`);
    const first = blocks.find((b) => b.month === banner.month);
    const problem = first
      ? `the block under "${name}" lands on the days of "${first.name}": a layout error, not merged`
      : undefined;
    blocks.push({ month: banner.month, name, venta: c, compra: c + 1, ...(problem && { problem }) });
  });
  if (blocks.length === 0) throw new FeedError(ID, `sheet "${sheetName}" has no month columns`);
  grid.slice(h + 2).forEach((row, k) => {
    const day = xlsText(row[0]);
    if (!/^\d{1,2}$/.test(day)) return; // PROM (averages), notes, signatures
    for (const { month, name, venta, compra, problem } of blocks) {
      if (xlsText(row[venta]) === "" && xlsText(row[compra]) === "") continue;
      const fields = {
        effectiveDate: `${year}-${month ?? name}-${day}`,
        currency: "USD",
        rate: `${xlsText(row[venta])} / ${xlsText(row[compra])}`,
      };
      rows.read(
        `sheet "${sheetName}" row ${h + 3 + k} ${name}`,
        (): RateRecord => {
          if (problem !== undefined || month === undefined) rowProblem(ID, "bad-date", problem ?? name);
          const date = requireDateParts(ID, year, month, day);
          const v = rateCell(row[venta], "VENTA");
          const c = rateCell(row[compra], "COMPRA");
          if (v === undefined || c === undefined) rowProblem(ID, "bad-rate", "one side of the quotation is missing");
          return { effectiveDate: date, currency: "USD", rate: mean(v, c), derivation: "mean" };
        },
        fields,
      );
    }
  });
  return true;
}

/** Reads one daily table sheet into `rows`; false when the sheet has no dated title. */
function readDaily(rows: AnswerRows, sheetName: string, grid: Grid): boolean {
  const texts = grid.map((row) => row.map(folded));
  const title = texts
    .flat()
    .map((t) => /^tabla de cotizaciones del (\d{1,2}) de (\p{L}+) de (\d{4})$/u.exec(t))
    .find((m) => m);
  if (!title) return false;
  const titleDate = `${title[1]} ${title[2]} ${title[3]}`;
  const month = monthNumber(title[2]!, SPANISH);
  const dateOf = () =>
    month === undefined ? requireDate(ID, undefined, titleDate) : requireDateParts(ID, title[3]!, month, title[1]!);
  const at = (r: number) => `sheet "${sheetName}" row ${r + 1}`;
  const codeCol = (r: number) => texts[r]!.indexOf("codigo");

  // The dollar: the BCB section's header row has TCO, or VENTA and COMPRA.
  const usdHeader = texts.findIndex(
    (row, r) => codeCol(r) >= 0 && row.some((t) => /\btco\b/.test(t) || t === "venta" || t === "compra"),
  );
  if (usdHeader < 0) throw new FeedError(ID, `${titleDate}: no official dollar (TCO or VENTA/COMPRA) header`);
  const usdAt = grid.findIndex((row, r) => r > usdHeader && folded(row[codeCol(usdHeader)]) === "usd");
  if (usdAt < 0) throw new FeedError(ID, `${titleDate}: no USD row under the official dollar header`);
  const usdRow = grid[usdAt]!;
  const head = texts[usdHeader]!;
  const tco = head.findIndex((t) => /\btco\b/.test(t));
  const venta = head.indexOf("venta");
  const compra = head.indexOf("compra");
  if (tco < 0 && (venta < 0 || compra < 0))
    throw new FeedError(ID, `${titleDate}: the dollar's VENTA or COMPRA column is missing`);
  rows.read(
    at(usdAt),
    (): RateRecord => {
      const date = dateOf();
      if (tco >= 0) {
        const rate = rateCell(usdRow[tco], "TCO");
        if (rate === undefined) rowProblem(ID, "bad-rate", "the TCO is empty");
        return { effectiveDate: date, currency: "USD", rate };
      }
      const v = rateCell(usdRow[venta], "VENTA");
      const c = rateCell(usdRow[compra], "COMPRA");
      if (v === undefined || c === undefined) rowProblem(ID, "bad-rate", "the dollar's VENTA or COMPRA is empty");
      return { effectiveDate: date, currency: "USD", rate: mean(v, c), derivation: "mean" };
    },
    { effectiveDate: titleDate, currency: "USD" },
  );

  // The other currencies.
  const label = "bs por unidad de moneda extranjera";
  const h = texts.findIndex((row) => row.some((t) => t.includes(label)));
  if (h < 0) throw new FeedError(ID, `${titleDate}: no "TIPO DE CAMBIO EN Bs POR UNIDAD DE MONEDA EXTRANJERA" column`);
  const rateCol = texts[h]!.findIndex((t) => t.includes(label));
  const code = codeCol(h);
  if (code < 0) throw new FeedError(ID, `${titleDate}: the currency table has no "Codigo" column`);
  for (let r = h + 1; r < grid.length; r++) {
    const row = grid[r]!;
    const c = xlsText(row[code]);
    if (c === "") break; // the table ends at the first row without a code
    if (c === "USD" || c === "BOB") continue; // Ecuador's dollar; the boliviano itself
    rows.read(
      at(r),
      () => {
        if (!/^[A-Z]{3}$/.test(c)) rowProblem(ID, "unknown-currency", `"${c}" is not a currency code`);
        const rate = rateCell(row[rateCol], c);
        if (rate === undefined || !/[1-9]/.test(rate)) return undefined; // no quotation that day
        return { effectiveDate: dateOf(), currency: c, rate };
      },
      { effectiveDate: titleDate, currency: c, rate: xlsText(row[rateCol]) },
    );
  }
  return true;
}

const dailyUrl = (date: IsoDate) =>
  `${DAILY}?qaa=${date.slice(0, 4)}&qdd=${Number(date.slice(8, 10))}&qmm=${Number(date.slice(5, 7))}`;

const bcbo = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Bank of Bolivia", abbreviatedName: "BCB" },
      { languageCode: "es", name: "Banco Central de Bolivia", abbreviatedName: "BCB" },
    ],
    // Published within 12:00-14:30 UTC, i.e. from 08:00 in La Paz (UTC-4).
    dailyUpdateTime: "08:00:00",
    bankCurrency: "BOB",
    countryCode: ["BO"],
    region: ["Americas"],
    timeZone: "America/La_Paz",
    website: "https://www.bcb.gob.bo",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "1987-01-01",
    maxRangeDays: 31,
    sourceUrl: DAILY,
  },

  async fetch(range, { http }) {
    const { from, to } = range.kind === "latest" ? recentDays(bcbo.bank.timeZone, 4) : range;
    const accept = "application/vnd.ms-excel, */*";
    const docs: FeedDocument[] = [];
    for (let year = Number(from.slice(0, 4)); year <= Math.min(Number(to.slice(0, 4)), 2007); year++) {
      docs.push(await http.get(`${YEARLY}?anio=${year}`, { accept }));
    }
    for (let d = from < DAILY_FROM ? DAILY_FROM : from; d <= to; d = addDays(d, 1)) {
      if (weekday(d) <= 5) docs.push(await http.get(dailyUrl(d), { accept }));
    }
    return docs;
  },

  parse(body, { url }) {
    const wb = readXls(ID, body);
    const yearly = url.includes("xls.php?anio=") || url.includes("tiposDeCambioHistorico");
    const rows = new AnswerRows(ID);
    let tables = 0;
    for (const name of wb.SheetNames) {
      const sheet = wb.Sheets[name];
      if (!sheet) continue;
      const grid = xlsGrid(sheet);
      if (yearly ? readYearly(rows, name, grid) : readDaily(rows, name, grid)) tables++;
    }
    if (tables === 0) {
      throw new FeedError(
        ID,
        yearly
          ? 'the yearly workbook has no sheet with a "DIAS" row'
          : 'no sheet with a "TABLA DE COTIZACIONES DEL <day> DE <month> DE <year>" title',
      );
    }
    return rows.result();
  },
});

export default bcbo;
