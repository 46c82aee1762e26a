// Banque de la République du Burundi: the official exchange rates of the Burundi franc (BIF), one PDF
// bulletin per business day ("Cours de change du DD-MM-YYYY.pdf"), listed on a paginated Drupal
// index (affichagetoustauxchange[?page=N], newest first). The bulletin has three columns, Acheteur,
// Cours moyen jour, Vendeur: the official figure is `Cours moyen jour` (mid), BIF per N units
// (`1 Dollar USA`; Direct). Columns are found by their header labels and matched to the figures by
// position on the page; French currency names are mapped below (an asterisk, "not accepted by
// exchange bureaus", is dropped; DTS is XDR). Decimal commas. The bulletin's date is its
// "EN DATE DU 20 MAI 2026" line, checked against the date in the file name. The index page carries
// no dated rates and parses to no records.
import * as cheerio from "cheerio";

import {
  FeedError,
  decodeText,
  defineAdapter,
  isoFromParts,
  perUnits,
  requireDecimal,
  type FeedDocument,
  type IsoDate,
  type RateRecord,
} from "../src/feed/kit.js";
import { looksLikePdf, pdfLines, pdfTextRuns, type PdfTextRun } from "../src/feed/pdf-text.js";

const ID = "BRB";
const HOST = "https://www.brb.bi";
const INDEX = `${HOST}/en/affichagetoustauxchange`;
const MAX_INDEX_PAGES = 30;

/** French names in the bulletin (lower case, no accents, no asterisk) to ISO 4217 codes. */
export const BRB_CURRENCY_NAMES: Readonly<Record<string, string>> = {
  "dollar canadien": "CAD",
  "couronne danoise": "DKK",
  "yen japonais": "JPY",
  "couronne norvegienne": "NOK",
  "livre sterling": "GBP",
  "couronne suedoise": "SEK",
  "dollar usa": "USD",
  "franc suisse": "CHF",
  euro: "EUR",
  "shilling kenyan": "KES",
  dts: "XDR",
  "rand sud-africain": "ZAR",
  "dollar australien": "AUD",
  "shilling tanzanien": "TZS",
  "shilling ougandais": "UGX",
  "franc rwandais": "RWF",
  // sic: "Renmimbi", "Kowetien".
  "yuan renmimbi": "CNY",
  "yuan renminbi": "CNY",
  "dinar kowetien": "KWD",
  "dinar koweitien": "KWD",
  "riyal saoudien": "SAR",
};

const MONTHS: Readonly<Record<string, number>> = {
  janvier: 1,
  fevrier: 2,
  mars: 3,
  avril: 4,
  mai: 5,
  juin: 6,
  juillet: 7,
  aout: 8,
  septembre: 9,
  octobre: 10,
  novembre: 11,
  decembre: 12,
};

export function brbNameKey(name: string): string {
  return name
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/\*/g, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

/** The date in a bulletin's file name (`Cours%20de%20change%20du%2020-05-2026.pdf`). */
export function brbFileDate(url: string): IsoDate | undefined {
  const m = /Cours(?:%20| )de(?:%20| )change(?:%20| )du(?:%20| )(\d{2})-(\d{2})-(\d{4})[^/]*\.pdf$/i.exec(url);
  return m ? isoFromParts(m[3]!, m[2]!, m[1]!) : undefined;
}

const center = (r: PdfTextRun) => r.x + r.width / 2;

async function parseBulletin(body: Uint8Array, url: string | undefined): Promise<RateRecord[]> {
  const lines = pdfLines(await pdfTextRuns(ID, body));
  const dated = lines
    .map((l) => /EN DATE DU (\d{1,2}) (\S+) (\d{4})/.exec(brbNameKey(l.text).toUpperCase()))
    .find(Boolean);
  const month = dated ? MONTHS[dated[2]!.toLowerCase()] : undefined;
  const date = dated && month ? isoFromParts(dated[3]!, month, dated[1]!) : undefined;
  if (!date) throw new FeedError(ID, 'no "EN DATE DU <day> <month> <year>" line in the bulletin');
  const named = url ? brbFileDate(url) : undefined;
  if (named && named !== date) throw new FeedError(ID, `the bulletin is dated ${date} but its file name says ${named}`);

  const header = lines.find((l) => l.runs.some((r) => r.text.trim() === "Cours moyen jour"));
  const column = (label: string) => {
    const run = header?.runs.find((r) => r.text.trim() === label);
    if (!run) throw new FeedError(ID, `no "${label}" column label in the bulletin of ${date}`);
    return center(run);
  };
  const columns = [
    { label: "Acheteur", at: column("Acheteur") },
    { label: "Cours moyen jour", at: column("Cours moyen jour") },
    { label: "Vendeur", at: column("Vendeur") },
  ];
  const records: RateRecord[] = [];
  for (const line of lines) {
    const first = /^(\d+) (.+)$/.exec(line.runs[0]!.text.trim());
    if (!first || line.y >= header!.y) continue;
    const figures = line.runs.slice(1);
    if (figures.length !== 3) throw new FeedError(ID, `row "${line.text}" of ${date} does not have three figures`);
    const byColumn = new Map<string, string>();
    for (const run of figures) {
      const nearest = columns.reduce((a, b) => (Math.abs(center(run) - a.at) <= Math.abs(center(run) - b.at) ? a : b));
      if (byColumn.has(nearest.label))
        throw new FeedError(ID, `row "${line.text}" of ${date} has two figures under "${nearest.label}"`);
      byColumn.set(nearest.label, run.text.trim());
    }
    const currency = BRB_CURRENCY_NAMES[brbNameKey(first[2]!)];
    if (!currency) throw new FeedError(ID, `unknown currency name "${first[2]}" in the bulletin of ${date}`);
    const mid = requireDecimal(ID, byColumn.get("Cours moyen jour"), `${currency} Cours moyen jour on ${date}`, {
      decimalComma: true,
    });
    records.push({ effectiveDate: date, currency, ...perUnits(mid, first[1]!) });
  }
  if (records.length === 0) throw new FeedError(ID, `no currency rows in the bulletin of ${date}`);
  return records;
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

  // Index pages (newest first) until one reaches back before `from`, then each bulletin in the range.
  async fetch(range, { http }) {
    const docs: FeedDocument[] = [];
    const wanted: Array<{ date: IsoDate; url: string }> = [];
    for (let page = 0; page < MAX_INDEX_PAGES; page++) {
      const doc = await http.get(page === 0 ? INDEX : `${INDEX}?page=${page}`, { accept: "text/html" });
      docs.push(doc);
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

  async parse(body, { url }) {
    if (looksLikePdf(body)) return parseBulletin(body, url);
    const text = decodeText(ID, body);
    if (text.trim() === "") throw new FeedError(ID, "empty body where a bulletin PDF or the rates index was expected");
    if (url && /\.pdf$/i.test(url)) return parseBulletin(body, url);
    indexLinks(body);
    return [];
  },
});

export default brb;
