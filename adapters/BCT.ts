// Banque Centrale de Tunisie: the average interbank rates of the dinar (TND), one HTML fragment per
// day, asked for by a form POST (input=YYYY-MM-DD, langue=_AN) with a Referer. TND per `Unité`
// units (1, 10, 100 or 1000; Direct): the unit is kept as unitMultiplier. Decimal commas. Only the
// first table (interbank "Cours Moyens ... sur le Marché des Changes interbancaire") is official; the
// second one (manual exchange and travellers' cheques) is ignored. The meta tag says ISO-8859-1 but
// the bytes are UTF-8. A day without data answers "Exhausted Resultset" or silently shows a nearby
// day: the page's own "Journée du DD/MM/YYYY" is the effective date, and fetch drops an answer whose
// date is not the day asked for.
import * as cheerio from "cheerio";

import {
  FeedError,
  addDays,
  decodeText,
  defineAdapter,
  expectFeedText,
  fromDayMonthYear,
  perUnits,
  recentDays,
  requireDecimal,
  weekday,
  type FeedDocument,
  type IsoDate,
  type RateRecord,
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

function parsePage(body: Uint8Array): { date?: IsoDate; records: RateRecord[] } {
  const text = expectFeedText(ID, decode(body), "the BCT rates fragment");
  if (/Exhausted Resultset/i.test(text)) return { records: [] };
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
  const rows = table.find("tbody tr").toArray();
  if (rows.length === 0 || !/<\/table>/.test(text))
    throw new FeedError(ID, `the interbank table of ${date} is empty or truncated`);
  const records = rows.map((row): RateRecord => {
    const cells = $(row)
      .find("td")
      .toArray()
      .map((td) => $(td).text().trim());
    if (cells.length !== 4) throw new FeedError(ID, `a row of ${cells.length} cells on ${date}`);
    const currency = cells[1]!;
    if (!/^[A-Z]{3}$/.test(currency)) throw new FeedError(ID, `Sigle "${currency}" on ${date} is not a currency code`);
    const units = requireDecimal(ID, cells[2], `${currency} on ${date} Unité`);
    if (!/^[1-9]\d*$/.test(units))
      throw new FeedError(ID, `${currency} on ${date}: Unité "${units}" is not a whole number`);
    const rate = requireDecimal(ID, cells[3], `${currency} on ${date} Valeur`, { decimalComma: true, thousands: "." });
    return { effectiveDate: date, currency, ...perUnits(rate, units) };
  });
  return { date, records };
}

const bct = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Bank of Tunisia", abbreviatedName: "BCT" },
      { languageCode: "fr", name: "Banque Centrale de Tunisie", abbreviatedName: "BCT" },
      { languageCode: "ar", name: "البنك المركزي التونسي", abbreviatedName: "ب.م.ت" },
    ],
    // Polled from 17:00 UTC (18:00 in Tunis); the bank states no time of its own (not verified).
    dailyUpdateTime: "18:00:00",
    bankCurrency: "TND",
    countryCode: ["TN"],
    region: ["Africa"],
    timeZone: TIME_ZONE,
    website: "https://www.bct.gov.tn",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    // Not verified: the first day the archive form serves.
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
    return parsePage(body).records;
  },
});

export default bct;
