// Reserve Bank of Vanuatu: the exchange rates of the vatu (VUV), a Joomla Fabrik list on the bank's
// site, asked for whole (?limit1=100000: every row in one answer; the CSV export stops at 100 rows).
// VUV per 1 unit of each foreign currency (Direct; JPY too is per 1 unit). Currency columns are found
// by their header labels; dates are written `22 May 2026` or `27-Aug-25` depending on age.
// The list is not filtered by date: a range fetch reads the whole list (the store folds repeats).
// TLS: the server leaves its Trustico intermediate certificate out of the chain; the shared HTTP
// client cannot yet be given an extra CA (see the report), so a live fetch may fail verification.
import * as cheerio from "cheerio";

import {
  FeedError,
  decodeText,
  defineAdapter,
  isoFromParts,
  requireDecimal,
  type IsoDate,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "RBV";
const ENDPOINT = "https://www.rbv.gov.vu/index.php/en/exchange-rates?limit1=100000";
const LONG_MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

export function rbvDate(raw: string): IsoDate {
  const text = raw.replace(/\s+/g, " ").trim();
  const long = /^(\d{1,2}) ([A-Za-z]+) (\d{4})$/.exec(text);
  const short = /^(\d{1,2})-([A-Za-z]{3})-(\d{2})$/.exec(text);
  const m = long ?? short;
  const name = m?.[2]!.toLowerCase() ?? "";
  // Full English month names in the long form, three-letter abbreviations in the short one.
  const month = m ? (long ? LONG_MONTHS : MONTHS).indexOf(name) + 1 : 0;
  const year = m ? (short ? `20${m[3]}` : m[3]!) : "";
  const date = m && month > 0 ? isoFromParts(year, month, m[1]!) : undefined;
  if (!date) throw new FeedError(ID, `date "${raw.trim()}" is neither "DD Month YYYY" nor "DD-Mon-YY"`);
  return date;
}

const rbv = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Reserve Bank of Vanuatu", abbreviatedName: "RBV" },
      { languageCode: "bi", name: "Reserve Bank blong Vanuatu", abbreviatedName: "RBV" },
      { languageCode: "fr", name: "Banque de Réserve de Vanuatu", abbreviatedName: "BRV" },
    ],
    // Rates of the day are posted between 08:30 and 09:00 Vanuatu time (polled from 21:00 UTC the day before).
    dailyUpdateTime: "08:30:00",
    bankCurrency: "VUV",
    countryCode: ["VU"],
    region: ["Oceania"],
    timeZone: "Pacific/Efate",
    website: "https://www.rbv.gov.vu",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    // The oldest row of the list as recorded (row id 1: 26-Aug-25).
    coverageStart: "2025-08-26",
    maxRangeDays: 3660,
    sourceUrl: "https://www.rbv.gov.vu/index.php/en/exchange-rates",
  },

  // The whole list, whatever the range.
  async fetch(_range, { http }) {
    return [await http.get(ENDPOINT, { accept: "text/html" })];
  },

  parse(body) {
    const text = decodeText(ID, body);
    if (text.trim() === "") throw new FeedError(ID, "empty body where the exchange-rates list was expected");
    const $ = cheerio.load(text);
    const table = $("table#list_1_com_fabrik_1");
    if (table.length !== 1)
      throw new FeedError(
        ID,
        "not the RBV exchange-rates list: no Fabrik table list_1_com_fabrik_1 (an error or WAF page?)",
      );
    if (!/<\/table>/.test(text.slice(text.indexOf("list_1_com_fabrik_1"))))
      throw new FeedError(ID, "truncated page: the list table is not closed");
    const labels = table
      .find("thead tr.fabrik___heading th")
      .toArray()
      .map((th) => $(th).text().trim());
    const dateCol = labels.indexOf("Date");
    if (dateCol < 0) throw new FeedError(ID, `no "Date" column (columns: ${labels.join(", ")})`);
    const currencyCols = labels.map((label, i) => ({ label, i })).filter((c) => /^[A-Z]{3}$/.test(c.label));
    if (currencyCols.length === 0) throw new FeedError(ID, "no currency columns in the list header");
    const records: RateRecord[] = [];
    for (const row of table.find("tbody tr.fabrik_row").toArray()) {
      const cells = $(row)
        .children("td")
        .toArray()
        .map((td) => $(td).text().trim());
      if (cells.length !== labels.length)
        throw new FeedError(ID, `a row of ${cells.length} cells under ${labels.length} columns`);
      const date = rbvDate(cells[dateCol]!);
      for (const { label: currency, i } of currencyCols) {
        const raw = cells[i]!;
        if (raw === "" || raw === "-") continue;
        const rate = requireDecimal(ID, raw, `${currency} on ${date}`);
        if (!/[1-9]/.test(rate)) continue;
        records.push({ effectiveDate: date, currency, rate });
      }
    }
    return records;
  },
});

export default rbv;
