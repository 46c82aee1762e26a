// Banco de Moçambique: the daily reference exchange rates of the metical (MZN), one PDF bulletin per
// business day.
// - Fetch: the foreign-exchange market page (https://www.bancomoc.mz/pt/areas-de-actuacao/mercados/mercado-cambial/)
//   links one listing per span of years (`/pt/tabelas-de-taxas-de-cambio-de-referencia-diarias/2026-2025/`);
//   each listing links every bulletin of its span under a random media id
//   (`/media/<id>/taxas-de-câmbio-de-referência-do-mercado-cambial-do-dia-DDMMYYYY.pdf`). The page and the
//   listings are navigation (read only to find the PDFs; marked in fetch, and a saved copy is told apart by
//   its content: no rates); the listings whose years meet the range are read (the newest one is
//   open-ended), then each bulletin of the range.
// - The bulletin (SAP-made, one page, Courier in fixed columns): a heading `... EM METICAIS DO DIA 02
//   Setembro de 2026` (Portuguese month names; checked against the date in the file name: another day's
//   bulletin is refused), a column header `PAÍSES MOEDAS COMPRA VENDA MÉDIA`, then:
//   1. the dollar: `Estados Unidos(a) 63,27 64,54 63,91`, MZN per USD, the bank's own fixing, set at 15:30
//      from the commercial banks' reported trades (footnote a);
//   2. other average rates, crossed by the bank from its dollar fixing and Reuters' dollar rates (footnote
//      b), under unit headings: `Meticais por Unidade de Moeda` (per 1) and `Meticais por 1000 Unidades de
//      Moeda` (per 1000: JPY, MWK, TZS; unitMultiplier 3);
//   3. `OUTRAS INFORMAÇÕES` (prime rate, SOFR, gold in dollars): no metical rates, not read.
//   Figures are matched to COMPRA / VENDA / MÉDIA by position; decimal commas. The figure published is the
//   bank's MÉDIA (the average it rounds and publishes, for the dollar and the crosses alike, Direct);
//   bulletins before November 2020 have no MÉDIA column, and then the exact mean of COMPRA and VENDA is
//   published, flagged "mean". The footer date (`Maputo, 03.09.2026`) is the day of printing, not read.
// - Rows are named by country, in Portuguese (`Àfrica do Sul`, `Zâmbia`), resolved by the table below. The
//   offshore yuan (China/Offshore) is published as the market code CNH; the Zimbabwe "Dólar" row
//   is held: its figure has stood still for years and the bulletin does not say which Zimbabwean currency
//   it is in. The dollar row is the dollar even when its label is missing (footnote a).
// - Published on Mozambican business days; the PDF is made at about 15:40 and served by 16:00 Maputo time
//   (its CreationDate and Last-Modified), so the daemon runs at 16:00. Listings reach back to 2018.
import {
  AnswerRows,
  FeedError,
  defineAdapter,
  foldName,
  decodeText,
  isoFromParts,
  mean,
  perUnits,
  recentDays,
  requireCurrencyCode,
  requireDate,
  requireDecimal,
  rowProblem,
  type FeedDocument,
  type IsoDate,
  type ParsedAnswer,
} from "../src/feed/kit.js";
import { findLinks } from "../src/feed/html-links.js";
import { monthNumber } from "../src/feed/month-names.js";
import { looksLikePdf, pdfLines, pdfTextRuns, type PdfLine, type PdfTextRun } from "../src/feed/pdf-text.js";

const ID = "BM";
const HOST = "https://www.bancomoc.mz";
const INDEX = `${HOST}/pt/areas-de-actuacao/mercados/mercado-cambial/`;
const LISTING = /\/pt\/tabelas-de-taxas-de-cambio-de-referencia-diarias\/(\d{4})-(\d{4})\/?$/;
const BULLETIN = /\/media\/[^/]+\/[^/]*?(\d{2})(\d{2})(\d{4})\.pdf$/i;

/**
 * The bulletin's country labels (folded with foldName) and their currencies; `{ held }`: a row that is
 * held, with the reason given.
 */ // until the kit resolves names by rule
export const BM_COUNTRIES: Readonly<Record<string, string | { held: string }>> = {
  "estados unidos": "USD",
  "africa do sul": "ZAR",
  botswana: "BWP",
  eswatini: "SZL",
  swazilandia: "SZL",
  mauricias: "MUR",
  zambia: "ZMW",
  japao: "JPY",
  malawi: "MWK",
  tanzania: "TZS",
  brasil: "BRL",
  canada: "CAD",
  "china offshore": "CNH",
  china: "CNY",
  dinamarca: "DKK",
  inglaterra: "GBP",
  noruega: "NOK",
  suecia: "SEK",
  suica: "CHF",
  "uniao europeia": "EUR",
  zimbabwe: {
    held: "the Zimbabwe dollar row: its figure has not moved for years and the bulletin does not say which Zimbabwean currency (ZWL, withdrawn in 2024, or ZWG) it is in",
  },
};

/** The date in a bulletin's file name (`...-do-dia-02092026.pdf`). */
export function bmFileDate(url: string): IsoDate | undefined {
  const m = BULLETIN.exec(url);
  return m ? isoFromParts(m[3]!, m[2]!, m[1]!) : undefined;
}

const center = (r: PdfTextRun) => r.x + r.width / 2;
const COLUMNS = ["COMPRA", "VENDA", "MÉDIA"] as const;
type Column = (typeof COLUMNS)[number];

/** The bulletin's date, from its heading (`... DO DIA 02 Setembro de 2026`, wrapped over two lines). */
function bulletinDate(lines: PdfLine[]): { date: IsoDate | undefined; said: string } {
  const heading = lines
    .slice(0, 8)
    .map((l) => l.text)
    .join(" ");
  const m = /do dia (\d{1,2}) (?:de )?(\p{L}+) (?:de )?(\d{4})/u.exec(foldName(heading));
  if (!m) throw new FeedError(ID, 'no "DO DIA <day> <month> de <year>" heading in the bulletin');
  const month = monthNumber(m[2]!, ["pt"]);
  return { date: month ? isoFromParts(m[3]!, month, m[1]!) : undefined, said: m[0] };
}

type Columns = Array<{ label: Column; at: number }>;
/** The column a run stands under (its centre near the label's), if any: figures, or what stands in for one. */
function columnOf(run: PdfTextRun, columns: Columns): Column | undefined {
  const nearest = columns.reduce((a, b) => (Math.abs(center(run) - a.at) <= Math.abs(center(run) - b.at) ? a : b));
  return Math.abs(center(run) - nearest.at) <= 25 ? nearest.label : undefined;
}

/** One row's figures by column, matched by position. */
function figuresOf(runs: PdfTextRun[], columns: Columns): Map<Column, string> {
  const byColumn = new Map<Column, string>();
  for (const run of runs) {
    const column = columnOf(run, columns);
    if (column === undefined) continue;
    if (byColumn.has(column)) rowProblem(ID, "bad-row", `two figures under ${column}`);
    byColumn.set(column, run.text.trim());
  }
  return byColumn;
}

/** The rate of a row: MÉDIA as published, else the exact mean of COMPRA and VENDA (flagged). */
function rateOf(figures: Map<Column, string>, currency: string): { rate: string; derivation?: "mean" } {
  const syntax = { decimalComma: true, thousands: "." };
  const average = figures.get("MÉDIA");
  if (average !== undefined) return { rate: requireDecimal(ID, average, `${currency} MÉDIA`, syntax) };
  const [buy, sell] = [figures.get("COMPRA"), figures.get("VENDA")];
  if (buy === undefined || sell === undefined)
    rowProblem(ID, "bad-rate", `${currency} has neither a MÉDIA nor both COMPRA and VENDA`);
  const [compra, venda] = [
    requireDecimal(ID, buy, `${currency} COMPRA`, syntax),
    requireDecimal(ID, sell, `${currency} VENDA`, syntax),
  ];
  return compra === venda ? { rate: compra } : { rate: mean(compra, venda), derivation: "mean" };
}

async function parseBulletin(body: Uint8Array, url: string | undefined): Promise<ParsedAnswer> {
  const lines = pdfLines(await pdfTextRuns(ID, body), 4);
  const { date, said } = bulletinDate(lines);
  const named = url ? bmFileDate(url) : undefined;
  if (date && named && date !== named)
    throw new FeedError(ID, `the bulletin is dated ${date} but its file name says ${named}`);
  const rows = new AnswerRows(ID);
  let columns: Columns | undefined;
  let currencyAt = Infinity;
  let units = "1";
  let section = 1;
  let read = 0;
  for (const line of lines) {
    const text = foldName(line.text);
    if (/^3 outras informacoes/.test(text)) break; // prime rate, SOFR, gold in dollars: no metical rates
    if (/^2 outras taxas/.test(text)) section = 2;
    const unitHeading = /meticais por (?:([\d.]+) )?unidades? de moeda/.exec(text);
    if (unitHeading) units = (unitHeading[1] ?? "1").replaceAll(".", "");
    const labels = line.runs.map((r) => r.text.trim());
    if (labels.includes("COMPRA") && labels.includes("VENDA")) {
      columns = COLUMNS.flatMap((label) => {
        const run = line.runs.find((r) => r.text.trim() === label);
        return run ? [{ label, at: center(run) }] : [];
      });
      currencyAt = line.runs.find((r) => r.text.trim() === "MOEDAS")?.x ?? currencyAt;
      continue;
    }
    const [under, count] = [columns, units];
    const figures = under ? line.runs.filter((r) => r.x > currencyAt + 1 && columnOf(r, under)) : [];
    if (!under || figures.length === 0) continue; // headings and notes
    const country = line.runs
      .filter((r) => r.x < currencyAt - 1)
      .map((r) => r.text.trim())
      .join(" ")
      .replace(/\(\w\)/g, "")
      .trim();
    read++;
    const source = `page ${line.page} line "${line.text}"`;
    rows.read(
      source,
      () => {
        const key = foldName(country || (section === 1 ? "Estados Unidos" : ""));
        const known = BM_COUNTRIES[key];
        if (known === undefined) rowProblem(ID, "unknown-currency", `country "${country}" is not in the table`);
        if (typeof known === "object") rowProblem(ID, "unknown-currency", known.held);
        const currency = requireCurrencyCode(ID, known);
        const effectiveDate = requireDate(ID, date, said);
        const { rate, derivation } = rateOf(figuresOf(figures, under), currency);
        return { effectiveDate, currency, ...perUnits(rate, count), ...(derivation ? { derivation } : {}), source };
      },
      { effectiveDate: date ?? said, currency: country, rate: figures.map((r) => r.text.trim()).join(" ") },
    );
  }
  if (!columns) throw new FeedError(ID, `no COMPRA / VENDA column header in the bulletin of ${said}`);
  if (read === 0) throw new FeedError(ID, `no rates in the bulletin of ${said}`);
  return rows.result();
}

/** The listings (years they span, URL) the market page links to; the newest is open-ended. */
function listings(html: string): Array<{ first: number; last: number; url: string }> {
  const spans = findLinks(html, INDEX, LISTING).map((url) => {
    const [, a, b] = LISTING.exec(url)!;
    return { first: Math.min(Number(a), Number(b)), last: Math.max(Number(a), Number(b)), url };
  });
  if (spans.length === 0)
    throw new FeedError(ID, "no listing of daily reference rates on the market page (has it changed?)");
  spans.sort((x, y) => x.first - y.first);
  spans[spans.length - 1]!.last = Infinity;
  return spans;
}

/** The market page or a listing (not a PDF, linking to listings or bulletins): navigation, no rates. */
export function isLinkPage(answer: { url: string; body: Uint8Array }): boolean {
  if (looksLikePdf(answer.body)) return false;
  const html = Buffer.from(answer.body).toString("utf8");
  return findLinks(html, answer.url, LISTING).length > 0 || findLinks(html, answer.url, BULLETIN).length > 0;
}

const bm = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Bank of Mozambique", abbreviatedName: "BM" },
      { languageCode: "pt", name: "Banco de Moçambique", abbreviatedName: "BM" },
    ],
    dailyUpdateTime: "16:00:00",
    bankCurrency: "MZN",
    countryCode: ["MZ"],
    region: ["Africa"],
    timeZone: "Africa/Maputo",
    website: "https://www.bancomoc.mz",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "2018-01-02",
    maxRangeDays: 92,
    sourceUrl: INDEX,
  },

  async fetch(range, { http }) {
    const { from, to } = range.kind === "range" ? range : recentDays(bm.bank.timeZone, 7);
    const session = http.session();
    const index = await session.get(INDEX, { accept: "text/html" });
    const docs: FeedDocument[] = [{ ...index, role: "navigation" }];
    const wanted = new Map<IsoDate, string>();
    for (const listing of listings(decodeText(ID, index.body))) {
      if (listing.last < Number(from.slice(0, 4)) || listing.first > Number(to.slice(0, 4))) continue;
      const page = await session.get(listing.url, { accept: "text/html" });
      docs.push({ ...page, role: "navigation" });
      for (const url of findLinks(decodeText(ID, page.body), listing.url, BULLETIN)) {
        const date = bmFileDate(url);
        if (date && date >= from && date <= to && !wanted.has(date)) wanted.set(date, url);
      }
    }
    for (const [, url] of [...wanted].sort(([a], [b]) => a.localeCompare(b)))
      docs.push(await session.get(url, { accept: "application/pdf" }));
    return docs;
  },

  // The market page and the listings (marked navigation in fetch) are told apart by their content, so that a
  // saved bulletin given without its URL (`exrates parse BM file.pdf`) is read as data.
  navigationAnswer: isLinkPage,

  async parse(body, { url }) {
    return parseBulletin(body, url);
  },
});

export default bm;
