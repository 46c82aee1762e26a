// Banco Central de Venezuela: the reference rates of the bolívar (Tipo de Cambio de Referencia, SMC), from
// its quarterly workbooks.
// - Listing: GET https://www.bcv.org.ve/estadisticas/tipo-cambio-de-referencia-smc?page=N (a Drupal view,
//   newest first, ~144 KB a page; navigation: read only for its links). It links one old binary XLS per
//   quarter, …/sites/default/files/EstadisticasGeneral/2_1_2{a|b|c|d}{YY}_smc[_NN].xls (a to d: the first
//   to the fourth quarter). A quarter uploaded again gets a `_NN` suffix and its bare name then serves a
//   stale copy, so the file is always taken from the listing (the highest suffix when several are linked).
//   Only when the listing itself answers 404 are the bare names asked for directly.
// - Workbook: XLS (BIFF8), one sheet per operation day named `DDMMYYYY`, newest first, every sheet read.
//   Row 1 carries a publication stamp (`13/10/2025 04:22 PM`); then `Fecha Operacion: DD/MM/YYYY` and
//   `Fecha Valor: DD/MM/YYYY`; a `(a) Cotización M.E./US$` column pair and a `Bs./M.E.` pair, each
//   `Compra (BID) | Venta (ASK)`, over one row per currency code (`Moneda/País` beside it).
// - Official figure: the Bs./M.E. Venta (ASK), VES per 1 unit (Direct), the figure the bank's home page
//   shows; the BID is ASK × 0.9975 and is not published here. Figures are read as the sheet shows them, 8
//   decimals (197.24560000). Currencies other than the dollar are the dollar's rate crossed by the bank; they
//   are its published figures. Mexico is written `MXP` (read as MXN); `CUC` sits at the dollar's parity;
//   the petro (`PTR`, listed in 2019-2020) is no currency and is left out; a dash cell is no quotation.
// - Effective date: the rate applies on the Fecha Valor, the next business day (Friday's sheet prices
//   Monday), and is stored under it. A range is met by the quarters holding its operation days (a week
//   before the range, for the sheets that price its first days).
// - Units: the 1,000,000:1 redenomination of 2021-10-01 kept the code VES and the bank did not restate its
//   files: figures valued before 2021-10-01 are in bolívares of before (USD about 4,000,000), as published.
// - Publication: the stamps of 188 sheets of 2025 run from 14:28 to 19:19 Caracas time (median 15:57, 90 %
//   by 17:37). The run is at 19:30: the sheet of day D prices D+1, which the day before's sheet already
//   stored, so an earlier run would find the bank "up to date" and not wait for the new sheet.
// - TLS: www.bcv.org.ve sends a stale Sectigo intermediate ("Sectigo RSA Domain Validation Secure Server
//   CA") that did not issue its certificate. Node needs the real issuer, "Sectigo Public Server
//   Authentication CA DV R36" (http://crt.sectigo.com/SectigoPublicServerAuthenticationCADVR36.crt, DER:
//   convert to PEM), in NODE_EXTRA_CA_CERTS, or a live fetch fails verification (README).
// A currency row whose code or figure cannot be read, or a sheet without a readable Fecha Valor, is held
// row by row; a workbook without any sheet in this layout, or a `DDMMYYYY` sheet that has lost it, is
// refused whole.
import type * as XLSX from "@e965/xlsx";

import {
  AnswerRows,
  FeedError,
  HttpError,
  addDays,
  decodeText,
  defineAdapter,
  foldName,
  fromDayMonthYear,
  requireCurrencyCode,
  requireDate,
  rowProblem,
  todayIn,
  type FeedDocument,
  type HttpClient,
  type IsoDate,
  type RateRecord,
} from "../src/feed/kit.js";
import { findLinks } from "../src/feed/html-links.js";
import { readXls, xlsDecimal, xlsGrid, xlsText } from "../src/feed/spreadsheet.js";

const ID = "BCV";
const TIME_ZONE = "America/Caracas";
const SITE = "https://www.bcv.org.ve";
const LISTING = `${SITE}/estadisticas/tipo-cambio-de-referencia-smc`;
const FILES = `${SITE}/sites/default/files/EstadisticasGeneral`;
const WORKBOOK = /\/EstadisticasGeneral\/2_1_2([a-d])(\d{2})_smc(?:_(\d+))?\.xls$/i;
/** Listing pages read at most, newest first (four quarters a year since 2019 fit well within). */
const MAX_PAGES = 40;
/** The operation day of a Fecha Valor lies at most this many days before it (Carnival, Holy Week). */
const LOOKBACK_DAYS = 7;
/** BCV's own spellings of ISO codes. */ // until the kit resolves names by rule
const CODES: Readonly<Record<string, string>> = { MXP: "MXN" };
/** Rows that are no currency: the petro, a state crypto-asset listed in 2019-2020. */
const NOT_CURRENCIES = new Set(["PTR"]);

type Grid = Array<Array<XLSX.CellObject | undefined>>;

/** A quarter as `2025-4`. */
const quarterOf = (date: IsoDate) => `${date.slice(0, 4)}-${Math.floor((Number(date.slice(5, 7)) - 1) / 3) + 1}`;

/** The quarters from the one holding `from` to the one holding `to`, oldest first. */
function quartersBetween(from: IsoDate, to: IsoDate): string[] {
  const out: string[] = [];
  for (let d = `${from.slice(0, 7)}-01`; d <= to; d = addDays(d, 32).slice(0, 8) + "01") {
    const q = quarterOf(d);
    if (!out.includes(q)) out.push(q);
  }
  return out;
}

/** A quarter's bare file name: 2025-4 is 2_1_2d25_smc.xls. */
const bareFile = (quarter: string) =>
  `${FILES}/2_1_2${"abcd"[Number(quarter.slice(5)) - 1]}${quarter.slice(2, 4)}_smc.xls`;

/** The workbook links of a listing page, the newest upload of each quarter (highest `_NN` suffix). */
export function quarterlyWorkbooks(html: string, pageUrl: string): Map<string, string> {
  const best = new Map<string, { url: string; suffix: number }>();
  for (const url of findLinks(html, pageUrl, WORKBOOK)) {
    const m = WORKBOOK.exec(url)!;
    const quarter = `20${m[2]}-${"abcd".indexOf(m[1]!.toLowerCase()) + 1}`;
    const suffix = m[3] === undefined ? -1 : Number(m[3]);
    if ((best.get(quarter)?.suffix ?? -2) < suffix) best.set(quarter, { url, suffix });
  }
  return new Map([...best].map(([q, { url }]) => [q, url]));
}

/**
 * Reads listing pages until every wanted quarter is found (or, for the latest, the first page), the
 * pages marked as navigation. Undefined when the listing answers 404 (the caller falls back on bare names).
 */
async function readListing(
  http: HttpClient,
  wanted: string[] | "newest",
): Promise<{ pages: FeedDocument[]; files: Map<string, string> } | undefined> {
  const pages: FeedDocument[] = [];
  const files = new Map<string, string>();
  for (let page = 0; page < MAX_PAGES; page++) {
    let doc: FeedDocument;
    try {
      doc = await http.get(`${LISTING}?page=${page}`, { accept: "text/html" });
    } catch (error) {
      if (page === 0 && error instanceof HttpError && error.status === 404) return undefined;
      throw error;
    }
    pages.push({ ...doc, role: "navigation" });
    const found = quarterlyWorkbooks(decodeText(ID, doc.body), doc.url);
    if (page === 0 && found.size === 0)
      throw new FeedError(ID, `the listing ${LISTING} links to no quarterly workbook (has the page changed?)`);
    const before = files.size;
    for (const [q, url] of found) if (!files.has(q)) files.set(q, url);
    if (wanted === "newest" || files.size === before || wanted.every((q) => files.has(q))) break;
  }
  return { pages, files };
}

/** The Fecha Valor of a sheet, as written, from its first rows; "" when absent. */
function fechaValor(grid: Grid): string {
  for (const row of grid.slice(0, 12))
    for (const cell of row) {
      const m = /fecha\s+valor\s*:?\s*(\S+)/i.exec(xlsText(cell));
      if (m) return m[1]!;
    }
  return "";
}

/** Where the official column and the codes are: the Bs./M.E. banner's Venta (ASK) and the column left of Moneda/País. */
function layoutOf(grid: Grid): { labelRow: number; ask: number; code: number } | undefined {
  const banner = grid.findIndex((row) => row.some((c) => /^bs\.?\s*\/\s*m\.?\s*e\.?$/i.test(xlsText(c))));
  if (banner < 0) return undefined;
  const from = grid[banner]!.findIndex((c) => /^bs\.?\s*\/\s*m\.?\s*e\.?$/i.test(xlsText(c)));
  for (let r = banner; r <= banner + 3 && r < grid.length; r++) {
    const labels = grid[r]!.map((c) => foldName(xlsText(c)));
    const ask = labels.findIndex((l, c) => c >= from && l === "venta ask");
    const moneda = labels.findIndex((l) => l.startsWith("moneda"));
    if (ask >= 0 && moneda > 0) return { labelRow: r, ask, code: moneda - 1 };
  }
  return undefined;
}

/** Reads one day's sheet into `rows`; false when the sheet is not in the reference-rate layout. */
function readSheet(rows: AnswerRows, name: string, grid: Grid): boolean {
  const layout = layoutOf(grid);
  if (!layout) return false;
  const valor = fechaValor(grid);
  let started = false;
  for (let r = layout.labelRow + 1; r < grid.length; r++) {
    const row = grid[r]!;
    const code = xlsText(row[layout.code]);
    if (code === "") {
      if (started) break; // the table ends at its first empty row; notes follow
      continue;
    }
    started = true;
    const ask = row[layout.ask];
    rows.read(
      `sheet "${name}" row ${r + 1}`,
      (): RateRecord | undefined => {
        if (NOT_CURRENCIES.has(code)) return undefined;
        const text = xlsText(ask);
        const rate = xlsDecimal(ask, "displayed");
        if (rate === undefined) {
          if (text === "" || /^-+$/.test(text)) return undefined; // no quotation that day
          rowProblem(ID, "bad-rate", `Venta (ASK) "${text}" is not a rate`);
        }
        if (!/[1-9]/.test(rate)) return undefined; // a zero placeholder
        return {
          effectiveDate: requireDate(ID, fromDayMonthYear(valor), valor || "(no Fecha Valor)"),
          currency: requireCurrencyCode(ID, CODES[code] ?? code),
          rate,
        };
      },
      { effectiveDate: valor, currency: code, rate: xlsText(ask) },
    );
  }
  return true;
}

const bcv = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Bank of Venezuela", abbreviatedName: "BCV" },
      { languageCode: "es", name: "Banco Central de Venezuela", abbreviatedName: "BCV" },
    ],
    // After the latest stamp seen in 2025 (19:19); see the header for why not earlier.
    dailyUpdateTime: "19:30:00",
    bankCurrency: "VES",
    countryCode: ["VE"],
    region: ["Americas"],
    timeZone: TIME_ZONE,
    website: SITE,
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    // The reference-rate system (SMC) began in May 2019; earlier quarters are not in the listing.
    coverageStart: "2019-05-02",
    maxRangeDays: 366,
    sourceUrl: LISTING,
  },

  navigation: /\/estadisticas\/tipo-cambio-de-referencia-smc/,

  async fetch(range, { http }) {
    const session = http.session();
    const wanted = range.kind === "latest" ? "newest" : quartersBetween(addDays(range.from, -LOOKBACK_DAYS), range.to);
    const listing = await readListing(session, wanted);
    let files: string[];
    if (listing === undefined) {
      files = (wanted === "newest" ? [quarterOf(todayIn(TIME_ZONE))] : wanted).map(bareFile);
    } else if (wanted === "newest") {
      const newest = [...listing.files.keys()].sort().at(-1)!;
      files = [listing.files.get(newest)!];
    } else {
      files = wanted.flatMap((q) => listing.files.get(q) ?? []); // a quarter not listed: not published (yet)
    }
    const docs: FeedDocument[] = [...(listing?.pages ?? [])];
    for (const url of files) docs.push(await session.get(url, { accept: "application/vnd.ms-excel, */*" }));
    return docs;
  },

  parse(body) {
    const wb = readXls(ID, body);
    const rows = new AnswerRows(ID);
    let sheets = 0;
    for (const name of wb.SheetNames) {
      const grid = xlsGrid(wb.Sheets[name]!);
      if (readSheet(rows, name, grid)) sheets++;
      else if (/^\d{8}$/.test(name))
        throw new FeedError(ID, `sheet "${name}" has no Bs./M.E. Venta (ASK) column beside Moneda/País`);
    }
    if (sheets === 0) throw new FeedError(ID, "no sheet with the reference-rate table (Bs./M.E. Venta (ASK))");
    return rows.result();
  },
});

export default bcv;
