// Central Bank of West African States (BCEAO): the daily reference rates of the CFA franc (XOF).
// - Endpoint: GET https://www.bceao.int/fr/cours/get_all_reference_by_date?dateJour=YYYY-MM-DD, one call per
//   day: an HTML fragment, an `<h2>` heading "Cours des devises du lundi 16 mars 2026" (French day and month
//   names, "1er" for the first) and a table with the header `Devise | CFA`, one row per currency.
// - XOF per 1 unit of the foreign currency (Direct). Currencies are named in French ("Dollar us",
//   "Couronne suédoise", "Won Coréen"): read by the kit's resolver in French (ICU's names, then its
//   rules), and the bank's own spellings below. Numbers are French (`1.953,0200`); `-` or an empty cell is a currency without a rate that day.
// - Published Sunday to Friday: Sunday's page carries the Gulf currencies. A holiday page holds the heading
//   only. The recorded pages carry accented letters as literal `\xC3\xA9` text (an artefact of how they were
//   saved); the live page is real UTF-8: both are read.
// - The bank states no publication time; the page is polled from 10:00 Dakar time (UTC).
import * as cheerio from "../src/feed/cheerio.js";

import {
  AnswerRows,
  FeedError,
  addDays,
  currencyOf,
  decodeText,
  defineAdapter,
  expectFeedText,
  foldName,
  isoFromParts,
  noPublication,
  recentDays,
  requireDate,
  requireDecimal,
  resolveCurrencyName,
  rowProblem,
  weekday,
  type CurrencyResolution,
  type FeedDocument,
} from "../src/feed/kit.js";
import { monthNumber } from "../src/feed/month-names.js";

const ID = "BCEAO";
const ENDPOINT = "https://www.bceao.int/fr/cours/get_all_reference_by_date";
const TIME_ZONE = "Africa/Dakar";

/**
 * The bank's French names no rule resolves (keys folded), each with why. The kit's resolver reads the
 * others: ICU's French names, "Dollar us" and "Dollar Hong Kong" (a territory), "Couronne thèque" and
 * "Ryal saudien" (misspellings).
 */
export const BCEAO_CURRENCY_NAMES: Readonly<Record<string, string>> = {
  // ICU says "yuan renminbi chinois"; French adjectives are not derived (CLDR has the country names only).
  "yuan chinois": "CNY",
  // ICU says "dollar de Singapour": the adjective again.
  "dollar singapourien": "SGD",
  // The lira's name from 2005 to 2009, kept by the bank; ICU says "livre turque".
  "nouvelle livre turque": "TRY",
  // ICU says "nouveau shekel israélien"; the bank drops the adjective, and "shekel" alone is no unit ICU names.
  "nouveau shekel": "ILS",
  // ICU says "won sud-coréen"; "coréen" alone fits both Koreas.
  "won coreen": "KRW",
};

/** The currency of a name as the page writes it on a date, and how it was resolved; or a RowProblem (`unknown-currency`). */
export function bceaoCurrency(name: string, date?: string): CurrencyResolution {
  return resolveCurrencyName(ID, name, { locales: ["fr"], aliases: BCEAO_CURRENCY_NAMES, date });
}

/** `\xC3\xA9` written out as text back to the UTF-8 letters it stands for. */
function unescapeHexText(text: string): string {
  return text.replace(/(?:\\x[0-9A-Fa-f]{2})+/g, (run) => {
    const bytes = Buffer.from(
      run
        .split("\\x")
        .slice(1)
        .map((h) => parseInt(h, 16)),
    );
    const decoded = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
    return decoded.includes("\uFFFD") ? run : decoded;
  });
}

/** The date of the heading, undefined when its day and month are no real date; a FeedError when it has none. */
function headingDate(heading: string): string | undefined {
  const m = /du\s+(?:\p{L}+\s+)?(\d{1,2})(?:er)?\s+(\p{L}+)\s+(\d{4})/u.exec(foldName(heading));
  if (!m) throw new FeedError(ID, `heading "${heading}" does not give a date`);
  const month = monthNumber(m[2]!, ["fr"]);
  return month === undefined ? undefined : isoFromParts(m[3]!, month, m[1]!);
}

const bceao = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Bank of West African States", abbreviatedName: "BCEAO" },
      { languageCode: "fr", name: "Banque Centrale des États de l'Afrique de l'Ouest", abbreviatedName: "BCEAO" },
    ],
    // Polled from 10:00 UTC (= Dakar time); the bank states no time of its own.
    dailyUpdateTime: "10:00:00",
    bankCurrency: "XOF",
    // The eight WAEMU members: Benin, Burkina Faso, Côte d'Ivoire, Guinea-Bissau, Mali, Niger, Senegal, Togo.
    countryCode: ["BJ", "BF", "CI", "GW", "ML", "NE", "SN", "TG"],
    region: ["Africa"],
    timeZone: TIME_ZONE,
    website: "https://www.bceao.int",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5, 7],
    coverageStart: "2014-01-02",
    maxRangeDays: 31,
    sourceUrl: "https://www.bceao.int/fr/cours/cours-de-reference-des-principales-devises-contre-Franc-CFA",
  },

  // One call per day, Saturdays excepted; "latest" asks for the last three days.
  async fetch(range, { http }) {
    const { from, to } = range.kind === "latest" ? recentDays(TIME_ZONE, 2) : range;
    const docs: FeedDocument[] = [];
    for (let day = from; day <= to; day = addDays(day, 1)) {
      if (weekday(day) === 6) continue;
      docs.push(await http.get(`${ENDPOINT}?dateJour=${day}`, { accept: "text/html" }));
    }
    return docs;
  },

  parse(body) {
    const text = unescapeHexText(expectFeedText(ID, decodeText(ID, body), "the BCEAO rates fragment"));
    const $ = cheerio.load(text);
    const heading = $("h2").first().text().trim();
    if (!/cours des devises/i.test(heading))
      throw new FeedError(ID, 'not a BCEAO rates fragment: no "Cours des devises" heading');
    const date = headingDate(heading);
    const tables = $("table").toArray();
    if (tables.length === 0) {
      // A holiday: the heading alone. Anything more without a table is not understood.
      if ($("body").text().replace(heading, "").trim() !== "")
        throw new FeedError(ID, `a page for ${heading} without a rates table`);
      return noPublication(`a page for ${heading} with no rates table (a holiday)`);
    }
    if ((text.match(/<\/table>/gi) ?? []).length < tables.length)
      throw new FeedError(ID, "truncated page: a rates table is not closed");
    const rows = new AnswerRows(ID);
    tables.forEach((table, t) => {
      const trs = $(table).find("tr").toArray();
      const header = $(trs[0])
        .find("th")
        .toArray()
        .map((th) => $(th).text().trim());
      if (header[0] !== "Devise" || header[1] !== "CFA")
        throw new FeedError(ID, `rates table header is "${header.join(" | ")}", expected "Devise | CFA"`);
      trs.slice(1).forEach((tr, r) => {
        const cells = $(tr)
          .find("td")
          .toArray()
          .map((td) => $(td).text().trim());
        if (cells.length === 0) return;
        const [name = "", value = ""] = cells;
        if (cells.length === 2 && (value === "" || value === "-")) return; // no rate that day
        rows.read(
          `table ${t + 1} row ${r + 1}`,
          () => {
            if (cells.length !== 2) rowProblem(ID, "bad-row", `a row of ${cells.length} cells`);
            const currency = currencyOf(bceaoCurrency(name, date));
            const effectiveDate = requireDate(ID, date, heading);
            const rate = requireDecimal(ID, value, currency, { decimalComma: true, thousands: "." });
            if (!/[1-9]/.test(rate)) return undefined;
            return { effectiveDate, currency, rate };
          },
          { effectiveDate: heading, currency: name, rate: value },
        );
      });
    });
    return rows.result();
  },
});

export default bceao;
