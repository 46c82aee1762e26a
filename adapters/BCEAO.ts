// Central Bank of West African States (BCEAO): the daily reference rates of the CFA franc (XOF),
// as an HTML fragment per day (get_all_reference_by_date?dateJour=YYYY-MM-DD). XOF per 1 unit of the
// foreign currency (Direct); French currency names (mapped below) and French numbers (`1.953,0200`).
// Published Sunday to Friday: Sunday's page carries the Gulf currencies. A holiday page holds the
// heading only. The recorded pages carry accented letters as literal `\xC3\xA9` text (an artefact of
// how they were saved); the live page is real UTF-8: both are read.
import * as cheerio from "cheerio";

import {
  FeedError,
  addDays,
  decodeText,
  defineAdapter,
  expectFeedText,
  isoFromParts,
  recentDays,
  requireDecimal,
  weekday,
  type FeedDocument,
  type IsoDate,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "BCEAO";
const ENDPOINT = "https://www.bceao.int/fr/cours/get_all_reference_by_date";
const TIME_ZONE = "Africa/Dakar";

/** Currency names as the page writes them (compared without accents, case or extra spaces). */
export const BCEAO_CURRENCY_NAMES: Readonly<Record<string, string>> = {
  euro: "EUR",
  "dollar us": "USD",
  "yen japonais": "JPY",
  "couronne danoise": "DKK",
  "couronne suedoise": "SEK",
  "livre sterling": "GBP",
  "couronne norvegienne": "NOK",
  // sic: the bank writes "thèque" for the Czech koruna.
  "couronne theque": "CZK",
  "couronne tcheque": "CZK",
  "forint hongrois": "HUF",
  "zloty polonais": "PLN",
  "franc suisse": "CHF",
  "dollar canadien": "CAD",
  "dollar australien": "AUD",
  "dollar neo-zelandais": "NZD",
  "rand sud-africain": "ZAR",
  "yuan chinois": "CNY",
  "roupie indienne": "INR",
  "baht thailandais": "THB",
  "real bresilien": "BRL",
  "dollar singapourien": "SGD",
  "nouvelle livre turque": "TRY",
  "dirham emirats arabes unis": "AED",
  "nouveau shekel": "ILS",
  "won coreen": "KRW",
  "dollar hong kong": "HKD",
  "ryal saudien": "SAR",
  "dinar koweitien": "KWD",
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

/** Lower case, no accents, single spaces: the key of BCEAO_CURRENCY_NAMES. */
export function bceaoNameKey(name: string): string {
  return name
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

function headingDate(heading: string): IsoDate {
  const m = /du\s+(?:[a-z]+\s+)?(\d{1,2})(?:er)?\s+([a-z]+)\s+(\d{4})/.exec(bceaoNameKey(heading));
  const month = m ? MONTHS[m[2]!] : undefined;
  const date = m && month ? isoFromParts(m[3]!, month, m[1]!) : undefined;
  if (!date) throw new FeedError(ID, `heading "${heading}" does not give a date`);
  return date;
}

const bceao = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Bank of West African States", abbreviatedName: "BCEAO" },
      { languageCode: "fr", name: "Banque Centrale des États de l'Afrique de l'Ouest", abbreviatedName: "BCEAO" },
    ],
    // Polled from 10:00 UTC (= Dakar time); the bank states no time of its own (not verified).
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
    const tables = $("table");
    if (tables.length === 0) {
      // A holiday: the heading alone. Anything more without a table is not understood.
      if ($("body").text().replace(heading, "").trim() !== "")
        throw new FeedError(ID, `a page for ${date} without a rates table`);
      return [];
    }
    const rows = tables.first().find("tr").toArray();
    const header = $(rows[0])
      .find("th")
      .toArray()
      .map((th) => $(th).text().trim());
    if (header[0] !== "Devise" || header[1] !== "CFA")
      throw new FeedError(ID, `rates table header is "${header.join(" | ")}", expected "Devise | CFA"`);
    if (!text.includes("</table>")) throw new FeedError(ID, "truncated page: the rates table is not closed");
    const records: RateRecord[] = [];
    for (const row of rows.slice(1)) {
      const cells = $(row)
        .find("td")
        .toArray()
        .map((td) => $(td).text().trim());
      if (cells.length === 0) continue;
      if (cells.length !== 2) throw new FeedError(ID, `a row of ${cells.length} cells on ${date}`);
      const name = cells[0]!;
      const currency = BCEAO_CURRENCY_NAMES[bceaoNameKey(name)];
      if (!currency) throw new FeedError(ID, `unknown currency name "${name}" on ${date}`);
      const value = cells[1]!;
      if (value === "" || value === "-") continue;
      const rate = requireDecimal(ID, value, `${currency} on ${date}`, { decimalComma: true, thousands: "." });
      if (!/[1-9]/.test(rate)) continue;
      records.push({ effectiveDate: date, currency, rate });
    }
    return records;
  },
});

export default bceao;
