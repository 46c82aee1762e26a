// Banco Central de Bolivia: official exchange rates as old binary XLS (BIFF), read with SheetJS.
// - Before 2008, xls.php?anio=YYYY: one sheet per year, a matrix of days (rows, `DIAS`) by months
//   (blocks of VENTA | COMPRA columns) for the US dollar only; the official figure is the exact mean
//   of VENTA and COMPRA (flagged "mean"). Empty cells are days without a quotation.
// - From 2008, otras_imprimir2XLS.php, one call per weekday: the day's "TABLA DE COTIZACIONES DEL
//   13 DE JULIO DE 2026". The dollar comes from the BCB section: since 2026-07 a single official
//   `Tipo de Cambio Oficial (TCO)` column; before, VENTA and COMPRA columns whose mean is taken. The
//   other currencies come from the `TIPO DE CAMBIO EN Bs POR UNIDAD DE MONEDA EXTRANJERA` column (BOB
//   per unit, Direct); the `USD` row of that table (Ecuador) is skipped. Gold, silver and the SDR are
//   quoted in US dollars there: converting them would be a cross rate, which the contract has no
//   derivation for, so they are left out.
// Columns are found by their labels; a missing label is a FeedError.
import type * as XLSX from "@e965/xlsx";

import {
  FeedError,
  addDays,
  defineAdapter,
  isoFromParts,
  mean,
  recentDays,
  weekday,
  type FeedDocument,
  type IsoDate,
  type RateRecord,
} from "../src/feed/kit.js";
import { readXls, xlsDecimal, xlsGrid, xlsText } from "../src/feed/spreadsheet.js";

const ID = "BCBO";
const SITE = "https://www.bcb.gob.bo";
const YEARLY = `${SITE}/tiposDeCambioHistorico/xls.php`;
const DAILY = `${SITE}/librerias/indicadores/otras/otras_imprimir2XLS.php`;
const DAILY_FROM = "2008-01-01";

const MESES: Readonly<Record<string, number>> = {
  ENERO: 1,
  FEBRERO: 2,
  MARZO: 3,
  ABRIL: 4,
  MAYO: 5,
  JUNIO: 6,
  JULIO: 7,
  AGOSTO: 8,
  SEPTIEMBRE: 9,
  SETIEMBRE: 9,
  OCTUBRE: 10,
  NOVIEMBRE: 11,
  DICIEMBRE: 12,
};

type Grid = Array<Array<XLSX.CellObject | undefined>>;
const norm = (s: string) =>
  s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .toUpperCase();

function parseYearly(grid: Grid): RateRecord[] {
  const yearText = grid
    .flat()
    .map((c) => norm(xlsText(c)))
    .find((t) => /^ANO \d{4}$/.test(t));
  if (!yearText) throw new FeedError(ID, 'the yearly sheet has no "AÑO YYYY" title');
  const year = Number(yearText.slice(4));
  const h = grid.findIndex((row) => norm(xlsText(row[0])) === "DIAS");
  if (h < 0) throw new FeedError(ID, 'the yearly sheet has no "DIAS" row');
  const months = grid[h]!;
  const sides = grid[h + 1] ?? [];
  // Each month banner sits over its VENTA column; COMPRA is the next one.
  const blocks: Array<{ month: number; venta: number; compra: number }> = [];
  months.forEach((cell, c) => {
    const month = MESES[norm(xlsText(cell))];
    if (!month) return;
    if (norm(xlsText(sides[c])) !== "VENTA" || norm(xlsText(sides[c + 1])) !== "COMPRA")
      throw new FeedError(ID, `${year}-${month}: the VENTA | COMPRA labels are missing`);
    blocks.push({ month, venta: c, compra: c + 1 });
  });
  if (blocks.length === 0) throw new FeedError(ID, "the yearly sheet has no month columns");
  const records: RateRecord[] = [];
  for (const row of grid.slice(h + 2)) {
    const day = xlsText(row[0]);
    if (!/^\d{1,2}$/.test(day)) continue;
    for (const { month, venta, compra } of blocks) {
      const v = xlsDecimal(row[venta]);
      const c = xlsDecimal(row[compra]);
      if (v === undefined && c === undefined) {
        if (xlsText(row[venta]) === "" && xlsText(row[compra]) === "") continue;
        throw new FeedError(
          ID,
          `${year}-${month}-${day}: "${xlsText(row[venta])}" / "${xlsText(row[compra])}" are not rates`,
        );
      }
      const date = isoFromParts(year, month, day);
      if (!date || v === undefined || c === undefined)
        throw new FeedError(ID, `${year}-${month}-${day}: a quotation on an impossible date or with one side missing`);
      records.push({ effectiveDate: date, currency: "USD", rate: mean(v, c), derivation: "mean" });
    }
  }
  return records;
}

function parseDaily(grid: Grid): RateRecord[] {
  const texts = grid.map((row) => row.map((c) => norm(xlsText(c))));
  const title = texts
    .flat()
    .map((t) => /^TABLA DE COTIZACIONES DEL (\d{1,2}) DE ([A-Z]+) DE (\d{4})$/.exec(t))
    .find((m) => m);
  const date = title ? isoFromParts(title[3]!, MESES[title[2]!] ?? 0, title[1]!) : undefined;
  if (!date)
    throw new FeedError(ID, 'no "TABLA DE COTIZACIONES DEL <day> DE <month> DE <year>" title with a real date');
  const records: RateRecord[] = [];
  const codeCol = (r: number) => texts[r]!.indexOf("CODIGO");

  // The dollar: the BCB section's header row has TCO, or VENTA and COMPRA.
  const usdHeader = texts.findIndex(
    (row) => codeCol(texts.indexOf(row)) >= 0 && row.some((t) => t.includes("TCO") || t === "VENTA" || t === "COMPRA"),
  );
  if (usdHeader < 0) throw new FeedError(ID, `${date}: no official dollar (TCO or VENTA/COMPRA) header`);
  const usdRow = grid.slice(usdHeader + 1).find((row) => norm(xlsText(row[codeCol(usdHeader)])) === "USD");
  if (!usdRow) throw new FeedError(ID, `${date}: no USD row under the official dollar header`);
  const head = texts[usdHeader]!;
  const tco = head.findIndex((t) => t.includes("TCO"));
  if (tco >= 0) {
    const rate = xlsDecimal(usdRow[tco]);
    if (rate === undefined) throw new FeedError(ID, `${date}: the TCO "${xlsText(usdRow[tco])}" is not a rate`);
    records.push({ effectiveDate: date, currency: "USD", rate });
  } else {
    const v = xlsDecimal(usdRow[head.indexOf("VENTA")]);
    const c = xlsDecimal(usdRow[head.indexOf("COMPRA")]);
    if (v === undefined || c === undefined || head.indexOf("VENTA") < 0 || head.indexOf("COMPRA") < 0)
      throw new FeedError(ID, `${date}: the dollar's VENTA or COMPRA is missing`);
    records.push({ effectiveDate: date, currency: "USD", rate: mean(v, c), derivation: "mean" });
  }

  // The other currencies.
  const h = texts.findIndex((row) => row.some((t) => t.includes("BS POR UNIDAD DE MONEDA EXTRANJERA")));
  if (h < 0) throw new FeedError(ID, `${date}: no "TIPO DE CAMBIO EN Bs POR UNIDAD DE MONEDA EXTRANJERA" column`);
  const rateCol = texts[h]!.findIndex((t) => t.includes("BS POR UNIDAD DE MONEDA EXTRANJERA"));
  const code = codeCol(h);
  if (code < 0) throw new FeedError(ID, `${date}: the currency table has no "Codigo" column`);
  for (const row of grid.slice(h + 1)) {
    const c = norm(xlsText(row[code]));
    if (c === "") break; // the table ends at the first row without a code
    if (!/^[A-Z]{3}$/.test(c)) throw new FeedError(ID, `${date}: "${c}" is not a currency code`);
    if (c === "USD" || c === "BOB") continue;
    const rate = xlsDecimal(row[rateCol]);
    if (rate === undefined) {
      if (xlsText(row[rateCol]) === "") continue;
      throw new FeedError(ID, `${date} ${c}: "${xlsText(row[rateCol])}" is not a rate`);
    }
    if (/[1-9]/.test(rate)) records.push({ effectiveDate: date, currency: c, rate });
  }
  return records;
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
    // BANKS.md: published within 12:00-14:30 UTC, i.e. from 08:00 in La Paz (UTC-4).
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
    const sheet = wb.Sheets[wb.SheetNames[0]!];
    if (!sheet) throw new FeedError(ID, "the workbook has no sheet");
    const grid = xlsGrid(sheet);
    return url.includes("xls.php?anio=") || url.includes("tiposDeCambioHistorico")
      ? parseYearly(grid)
      : parseDaily(grid);
  },
});

export default bcbo;
