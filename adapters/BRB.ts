// Banque de la République du Burundi: the official exchange rates of the Burundi franc (BIF), one PDF
// bulletin per business day ("Cours de change du DD-MM-YYYY.pdf"), listed on a paginated Drupal index
// (https://www.brb.bi/en/affichagetoustauxchange[?page=N], newest first). The index pages are read only
// to find the bulletins (navigation, never parsed); their sidebar rates carry no date.
// - The bulletin: an "EN DATE DU 20 MAI 2026" line (French month names), checked against the date in the
//   file name (another day's bulletin is refused); then a header line with the labels Acheteur, Cours
//   moyen jour, Vendeur, and one line per currency: `1 Dollar USA`, `100 Shilling Ougandais*` and three
//   figures matched to the labels by position on the page. Every header line starts a table: the lines
//   under each are read.
// - The official figure is `Cours moyen jour` (mid), BIF per N units (Direct), with a decimal comma.
// - Currency names are French: ICU's French names first ("Couronne Suédoise", "Shilling Ougandais"), then
//   the bank's own spellings below. An asterisk marks a currency "not accepted by exchange bureaus" and
//   is dropped with the other punctuation when names are folded. DTS is the IMF's XDR.
// - Published on business days, polled from 09:00 Bujumbura time (the bank states no time).
import * as cheerio from "../src/feed/cheerio.js";

import {
  AnswerRows,
  FeedError,
  currencyOf,
  decodeText,
  defineAdapter,
  foldName,
  isoFromParts,
  perUnits,
  requireDate,
  requireDecimal,
  requireUnits,
  resolveCurrencyName,
  rowProblem,
  type CurrencyResolution,
  type FeedDocument,
  type IsoDate,
  type ParsedAnswer,
} from "../src/feed/kit.js";
import { monthNumber } from "../src/feed/month-names.js";
import { pdfLines, pdfTextRuns, type PdfTextRun } from "../src/feed/pdf-text.js";

const ID = "BRB";
const HOST = "https://www.brb.bi";
const INDEX = `${HOST}/en/affichagetoustauxchange`;
const MAX_INDEX_PAGES = 30;

/**
 * The bulletin's spellings no rule resolves (keys folded), each with why. The kit's resolver reads the
 * others: ICU's French names, "Dollar USA" (a territory), "Yuan Renminbi" (ISO 4217's name), and the
 * misspellings "Yuan Renmimbi" and "Dinar Kowetien".
 */
export const BRB_ALIASES: Readonly<Record<string, string>> = {
  // "Droits de tirage spéciaux", abbreviated the French way (ICU's French name is the full one).
  dts: "XDR",
};

/** The currency of a bulletin's name on a date, and how it was resolved; or a RowProblem (`unknown-currency`). */
export function brbCurrency(name: string, date?: IsoDate): CurrencyResolution {
  return resolveCurrencyName(ID, name, { aliases: BRB_ALIASES, locales: ["fr"], date });
}

/** The date in a bulletin's file name (`Cours%20de%20change%20du%2020-05-2026.pdf`). */
export function brbFileDate(url: string): IsoDate | undefined {
  const m = /Cours(?:%20| )de(?:%20| )change(?:%20| )du(?:%20| )(\d{2})-(\d{2})-(\d{4})[^/]*\.pdf$/i.exec(url);
  return m ? isoFromParts(m[3]!, m[2]!, m[1]!) : undefined;
}

const center = (r: PdfTextRun) => r.x + r.width / 2;

const LABELS = ["Acheteur", "Cours moyen jour", "Vendeur"] as const;

async function parseBulletin(body: Uint8Array, url: string | undefined): Promise<ParsedAnswer> {
  const lines = pdfLines(await pdfTextRuns(ID, body));
  const DATED = /en date du (\d{1,2}) (\p{L}+) (\d{4})/u;
  const datedLine = lines.find((l) => DATED.test(foldName(l.text)));
  const dated = datedLine && DATED.exec(foldName(datedLine.text));
  if (!datedLine || !dated) throw new FeedError(ID, 'no "EN DATE DU <day> <month> <year>" line in the bulletin');
  // A day that does not exist ("31 JUIN") holds every row: none can be dated.
  const month = monthNumber(dated[2]!, ["fr"]);
  const date = month ? isoFromParts(dated[3]!, month, dated[1]!) : undefined;
  const said = datedLine.text;
  const named = url ? brbFileDate(url) : undefined;
  if (date && named && named !== date)
    throw new FeedError(ID, `the bulletin is dated ${date} but its file name says ${named}`);

  const rows = new AnswerRows(ID);
  let columns: Array<{ label: string; at: number }> | undefined;
  let currencyLines = 0;
  for (const line of lines) {
    if (line.runs.some((r) => r.text.trim() === "Cours moyen jour")) {
      columns = LABELS.map((label) => {
        const run = line.runs.find((r) => r.text.trim() === label);
        if (!run) throw new FeedError(ID, `no "${label}" column label in the bulletin of ${said}`);
        return { label, at: center(run) };
      });
      continue;
    }
    const first = /^(\d+) (.+)$/.exec(line.runs[0]!.text.trim());
    if (!first || !columns) continue; // the letterhead, notes and the address are no rates
    currencyLines++;
    const under = columns;
    const figures = line.runs.slice(1).map((r) => r.text.trim());
    rows.read(
      `page ${line.page} line "${line.text}"`,
      () => {
        if (figures.length !== 3) rowProblem(ID, "bad-row", `${figures.length} figures where three were expected`);
        const byColumn = new Map<string, string>();
        for (const run of line.runs.slice(1)) {
          const nearest = under.reduce((a, b) =>
            Math.abs(center(run) - a.at) <= Math.abs(center(run) - b.at) ? a : b,
          );
          if (byColumn.has(nearest.label)) rowProblem(ID, "bad-row", `two figures under "${nearest.label}"`);
          byColumn.set(nearest.label, run.text.trim());
        }
        const currency = currencyOf(brbCurrency(first[2]!, date));
        const effectiveDate = requireDate(ID, date, said);
        const mid = requireDecimal(ID, byColumn.get("Cours moyen jour"), `${currency} Cours moyen jour`, {
          decimalComma: true,
        });
        return { effectiveDate, currency, ...perUnits(mid, requireUnits(ID, first[1]!)) };
      },
      { effectiveDate: said, currency: first[2]!, rate: figures.join(" ") },
    );
  }
  if (!columns) throw new FeedError(ID, `no "Cours moyen jour" column label in the bulletin of ${said}`);
  if (currencyLines === 0) throw new FeedError(ID, `no currency rows in the bulletin of ${said}`);
  return rows.result();
}

/** The bulletins an index page links to, with the date of each. */
function indexLinks(body: Uint8Array): Array<{ date: IsoDate; url: string }> {
  const text = decodeText(ID, body);
  const $ = cheerio.load(text);
  if (!$("div.view-affichagetoustauxchange").length)
    throw new FeedError(ID, "not the BRB rates index: no affichagetoustauxchange view (an error or WAF page?)");
  const links: Array<{ date: IsoDate; url: string }> = [];
  $("div.view-affichagetoustauxchange a[href$='.pdf']").each((_, a) => {
    const href = $(a).attr("href")!;
    const date = brbFileDate(href);
    if (date) links.push({ date, url: href.startsWith("http") ? href : `${HOST}${href}` });
  });
  return links;
}

const brb = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Bank of the Republic of Burundi", abbreviatedName: "BRB" },
      { languageCode: "fr", name: "Banque de la République du Burundi", abbreviatedName: "BRB" },
      { languageCode: "rn", name: "Ibanki ya Repubulika y'u Burundi", abbreviatedName: "BRB" },
    ],
    // Polled from 07:00 UTC (09:00 in Bujumbura); the bank states no time of its own (not verified).
    dailyUpdateTime: "09:00:00",
    bankCurrency: "BIF",
    countryCode: ["BI"],
    region: ["Africa"],
    timeZone: "Africa/Bujumbura",
    website: "https://www.brb.bi",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "2024-09-02",
    maxRangeDays: 30,
    sourceUrl: INDEX,
  },

  navigation: /^https:\/\/www\.brb\.bi\/en\/affichagetoustauxchange(\?page=\d+)?$/,

  // Index pages (newest first) until one reaches back before `from`, then each bulletin in the range.
  async fetch(range, { http }) {
    const docs: FeedDocument[] = [];
    const wanted: Array<{ date: IsoDate; url: string }> = [];
    for (let page = 0; page < MAX_INDEX_PAGES; page++) {
      const doc = await http.get(page === 0 ? INDEX : `${INDEX}?page=${page}`, { accept: "text/html" });
      docs.push({ ...doc, role: "navigation" });
      const links = indexLinks(doc.body);
      if (range.kind === "latest") {
        const newest = [...links].sort((a, b) => b.date.localeCompare(a.date))[0];
        if (newest) wanted.push(newest);
        break;
      }
      wanted.push(...links.filter((l) => l.date >= range.from && l.date <= range.to));
      if (links.length === 0 || links.some((l) => l.date < range.from)) break;
    }
    const seen = new Set<string>();
    for (const link of wanted.sort((a, b) => a.date.localeCompare(b.date))) {
      if (seen.has(link.url)) continue;
      seen.add(link.url);
      docs.push(await http.get(link.url, { accept: "application/pdf" }));
    }
    return docs;
  },

  parse: (body, { url }) => parseBulletin(body, url),
});

export default brb;
