// Banque Centrale de Tunisie: the average interbank rates of the dinar (TND).
// - Endpoint: POST https://www.bct.gov.tn/bct/siteprod/cours_archiv.jsp with the form `input=YYYY-MM-DD&langue=_AN`
//   and the archive page (cours_archive.jsp) as Referer: one HTML fragment per day. The meta tag says
//   ISO-8859-1 but the bytes are UTF-8 (ISO-8859-1 is the fallback when they are not).
// - The fragment has two modules, each an `<h3>` heading, "Journée du DD/MM/YYYY" and a table
//   `Monnaie | Sigle | Unité | Valeur`: first the interbank average rates ("Cours Moyens des Devises Cotées en
//   dinar tunisien sur le Marché des Changes interbancaire"), the official figures read here; then the rates
//   for manual exchange and travellers' cheques, another rate (not the official one), deliberately not read.
// - TND per `Unité` units (1, 10, 100 or 1000; Direct): the unit is kept as unitMultiplier. Decimal commas.
// - A day without data answers "Exhausted Resultset", or silently shows a nearby day: the page's own "Journée
//   du DD/MM/YYYY" is the effective date, and fetch drops an answer whose date is not the day asked for.
// - Weekdays; the bank states no publication time (polled from 18:00 Tunis time).
import * as cheerio from "../src/feed/cheerio.js";

import {
  AnswerRows,
  FeedError,
  addDays,
  decodeText,
  defineAdapter,
  expectFeedText,
  fromDayMonthYear,
  noPublication,
  perUnits,
  recentDays,
  requireCurrencyCode,
  requireDecimal,
  requireUnits,
  rowProblem,
  weekday,
  type FeedDocument,
  type IsoDate,
  type ParsedAnswer,
} from "../src/feed/kit.js";

const ID = "BCT";
const ENDPOINT = "https://www.bct.gov.tn/bct/siteprod/cours_archiv.jsp";
const REFERER = "https://www.bct.gov.tn/bct/siteprod/cours_archive.jsp";
const TIME_ZONE = "Africa/Tunis";
const HEADER = ["Monnaie", "Sigle", "Unité", "Valeur"];

function decode(body: Uint8Array): string {
  try {
    return decodeText(ID, body);
  } catch {
    return decodeText(ID, body, "iso-8859-1");
  }
}

/** The "Journée du DD/MM/YYYY" of the first (interbank) module, or undefined when absent. */
function echoedDate(text: string): IsoDate | undefined {
  const m = /Journ(?:é|&eacute;|e)e du(?:\s|&nbsp;)*(\d{2}\/\d{2}\/\d{4})/.exec(text);
  return m ? fromDayMonthYear(m[1]!) : undefined;
}

function parsePage(body: Uint8Array): { date?: IsoDate; answer: ParsedAnswer } {
  const text = expectFeedText(ID, decode(body), "the BCT rates fragment");
  if (/Exhausted Resultset/i.test(text))
    return { answer: noPublication("Exhausted Resultset: no rates for the day asked") };
  const $ = cheerio.load(text);
  const heading = $("h3").first().text().replace(/\s+/g, " ");
  if (!/Cours Moyens des Devises Cot[ée]es en dinar tunisien/i.test(heading) || !/interbancaire/i.test(heading)) {
    throw new FeedError(
      ID,
      'not the BCT interbank rates page: no "Cours Moyens des Devises Cotées ... interbancaire" heading',
    );
  }
  const date = echoedDate(text);
  if (!date) throw new FeedError(ID, 'no "Journée du DD/MM/YYYY" date on the page');
  const table = $("table").first();
  const header = table
    .find("thead td")
    .toArray()
    .map((td) => $(td).text().trim());
  if (HEADER.some((label, i) => header[i] !== label)) {
    throw new FeedError(ID, `interbank table header is "${header.join(" | ")}", expected "${HEADER.join(" | ")}"`);
  }
  const trs = table.find("tbody tr").toArray();
  if (trs.length === 0 || !/<\/table>/.test(text))
    throw new FeedError(ID, `the interbank table of ${date} is empty or truncated`);
  const rows = new AnswerRows(ID);
  trs.forEach((tr, r) => {
    const cells = $(tr)
      .find("td")
      .toArray()
      .map((td) => $(td).text().trim());
    rows.read(
      `row ${r + 1}`,
      () => {
        if (cells.length !== 4) rowProblem(ID, "bad-row", `a row of ${cells.length} cells`);
        const currency = requireCurrencyCode(ID, cells[1]!);
        const units = requireUnits(ID, cells[2], "Unité");
        const rate = requireDecimal(ID, cells[3], `${currency} Valeur`, { decimalComma: true, thousands: "." });
        return { effectiveDate: date, currency, ...perUnits(rate, units) };
      },
      { effectiveDate: date, currency: cells[1], rate: cells[3] },
    );
  });
  return { date, answer: rows.result() };
}

const bct = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Bank of Tunisia", abbreviatedName: "BCT" },
      { languageCode: "fr", name: "Banque Centrale de Tunisie", abbreviatedName: "BCT" },
      { languageCode: "ar", name: "البنك المركزي التونسي", abbreviatedName: "ب.م.ت" },
    ],
    // Polled from 17:00 UTC (18:00 in Tunis); the bank states no time of its own.
    dailyUpdateTime: "18:00:00",
    bankCurrency: "TND",
    countryCode: ["TN"],
    region: ["Africa"],
    timeZone: TIME_ZONE,
    website: "https://www.bct.gov.tn",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    // The first day the archive form is taken to serve.
    coverageStart: "2000-01-03",
    maxRangeDays: 30,
    sourceUrl: ENDPOINT,
  },

  // One POST per weekday; "latest" asks for the last five days. An answer showing another day than
  // the one asked for (the site's silent fallback) is dropped: that day is asked for on its own.
  async fetch(range, { http }) {
    const { from, to } = range.kind === "latest" ? recentDays(TIME_ZONE, 4) : range;
    const docs: FeedDocument[] = [];
    for (let day = from; day <= to; day = addDays(day, 1)) {
      if (weekday(day) > 5) continue;
      const doc = await http.post(ENDPOINT, `input=${day}&langue=_AN`, {
        accept: "text/html",
        headers: { Referer: REFERER },
      });
      const shown = /Exhausted Resultset/i.test(doc.body.toString("latin1")) ? undefined : parsePage(doc.body).date;
      if (shown === day) docs.push(doc);
    }
    return docs;
  },

  parse(body) {
    return parsePage(body).answer;
  },
});

export default bct;
