// Reserve Bank of Vanuatu: the exchange rates of the vatu (VUV), a Joomla Fabrik list on the bank's
// site (table#list_1_com_fabrik_1, rows tr.fabrik_row), asked for whole (?limit1=100000: every row in
// one answer; the CSV export stops at 100 rows). VUV per 1 unit of each foreign currency (Direct; JPY
// too is per 1 unit), posted between 08:30 and 09:00 Vanuatu time on working days. Currency columns
// are found by their header labels (three-letter codes: USD, JPY, NZD, GBP, AUD, EUR); dates are
// written `22 May 2026` or `27-Aug-25` depending on age. Empty and dash cells are days without a
// figure. The list is not filtered by date: a range fetch reads the whole list (the store folds
// repeats). TLS: the server leaves its Trustico intermediate certificate out of the chain; give it to
// Node through NODE_EXTRA_CA_CERTS, or a live fetch fails verification.
import * as cheerio from "../src/feed/cheerio.js";

import {
  AnswerRows,
  FeedError,
  decodeText,
  defineAdapter,
  isoFromParts,
  requireCurrencyCode,
  requireDate,
  requireDecimal,
  type IsoDate,
} from "../src/feed/kit.js";
import { fromDayMonthName, monthNumber } from "../src/feed/month-names.js";

const ID = "RBV";
const ENDPOINT = "https://www.rbv.gov.vu/index.php/en/exchange-rates?limit1=100000";
/** `22 May 2026` or `27-Aug-25` to ISO; undefined when it is neither, or no real day. */
export function rbvDate(raw: string): IsoDate | undefined {
  const text = raw.replace(/\s+/g, " ").trim();
  const short = /^(\d{1,2})-(\p{L}{3})-(\d{2})$/u.exec(text);
  if (!short) return fromDayMonthName(text);
  const month = monthNumber(short[2]!);
  return month ? isoFromParts(`20${short[3]}`, month, short[1]!) : undefined;
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
    const rows = new AnswerRows(ID);
    for (const row of table.find("tbody tr.fabrik_row").toArray()) {
      const id = $(row).attr("id") ?? "";
      const cells = $(row)
        .children("td")
        .toArray()
        .map((td) => $(td).text().trim());
      const rawDate = (cells[dateCol] ?? "").replace(/\s+/g, " ");
      if (cells.length !== labels.length) {
        rows.hold(`<tr id="${id}">`, "bad-row", `a row of ${cells.length} cells under ${labels.length} columns`, {
          effectiveDate: rawDate,
        });
        continue;
      }
      for (const { label, i } of currencyCols) {
        const raw = cells[i] ?? "";
        rows.read(
          `<tr id="${id}"> ${label}`,
          () => {
            if (raw === "" || raw === "-") return undefined;
            const date = requireDate(ID, rbvDate(rawDate), rawDate);
            const currency = requireCurrencyCode(ID, label);
            const rate = requireDecimal(ID, raw, `${label} on ${date}`);
            if (!/[1-9]/.test(rate)) return undefined; // a zero placeholder
            return { effectiveDate: date, currency, rate };
          },
          { effectiveDate: rawDate, currency: label, rate: raw },
        );
      }
    }
    return rows.result();
  },
});

export default rbv;
