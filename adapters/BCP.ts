// Banco Central del Paraguay: the interbank reference rate of the guaraní (PYG).
// - Endpoint: GET https://www.bcp.gov.py/webapps/web/cotizacion/monedas-historica?anho=YYYY&moneda=XXX, one
//   HTML page per year and currency, read by cheerio. The page has two tables with the id
//   `cotizacion-interbancaria`: the title "PLANILLA DE COTIZACIONES DEL AÑO 2024 DE MONEDA DOLAR AMERICANO",
//   then the matrix: a header `# | ENE | FEB | … | DIC` (Spanish month abbreviations) and 31 day rows.
// - PYG per 1 unit of the foreign currency (Direct); gold (XAU) is already per troy ounce. Cells are
//   `7.271,63` (dot thousands, decimal comma) or `ND` (no rate that day); the date is the cell's position
//   (row = day, column = month found by its label).
// - The currency is the URL's `moneda` (SDR answers only ND: not asked), checked against the currency name
//   of the title (ICU's Spanish and English names first, then the bank's own spellings below); the year is
//   the title's, checked against `anho`. A page of another currency or year than asked is refused.
// - The site sits behind Cloudflare: a challenge page has no rates matrix and is refused.
// - Weekdays; the bank states no publication time (polled from 16:00 Asunción time).
import * as cheerio from "../src/feed/cheerio.js";

import {
  AnswerRows,
  FeedError,
  currencyOf,
  decodeText,
  defineAdapter,
  requireDateParts,
  requireDecimal,
  resolveCurrencyName,
  rowProblem,
  todayIn,
  type CurrencyResolution,
  type FeedDocument,
  type RateRecord,
} from "../src/feed/kit.js";
import { monthNumber } from "../src/feed/month-names.js";

const ID = "BCP";
const ENDPOINT = "https://www.bcp.gov.py/webapps/web/cotizacion/monedas-historica";
const TIME_ZONE = "America/Asuncion";

/** The currencies asked for, as the `moneda` parameter spells them (SDR answers only ND: left out). */
export const BCP_CURRENCIES = [
  "USD",
  "EUR",
  "GBP",
  "JPY",
  "CHF",
  "CAD",
  "AUD",
  "CNY",
  "BRL",
  "ARS",
  "CLP",
  "MXN",
  "UYU",
  "COP",
  "BOB",
  "NZD",
  "ZAR",
  "SEK",
  "DKK",
  "NOK",
  "AED",
  "PEN",
  "SGD",
  "TWD",
  "XAU",
] as const;

/**
 * Title names no rule resolves (keys folded), each with why. The kit's resolver reads the others:
 * ICU's Spanish and English names, "Real Brasilero" (a misspelling of "real brasileño"), "Derecho
 * Especial de Giro" (the singular of ICU's name), "UAE Dirham" (ISO 4217's name).
 */
export const BCP_CURRENCY_NAMES: Readonly<Record<string, string>> = {
  // ICU says "dólar estadounidense"; Spanish adjectives are not derived ("americano" is no CLDR name).
  "dolar americano": "USD",
  // ICU says "yuan renminbi"; "chino" is an adjective again.
  "yuan chino": "CNY",
  // The sol's name until 2015 (ICU: "Peruvian Sol"); "nuevo sol" is no unit ICU names.
  "peruvian nuevo sol": "PEN",
};

/** The currency of a page title's name, and how it was resolved; or a RowProblem (`unknown-currency`). */
export function bcpCurrency(name: string): CurrencyResolution {
  return resolveCurrencyName(ID, name, { locales: ["es", "en"], aliases: BCP_CURRENCY_NAMES });
}

const bcp = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Bank of Paraguay", abbreviatedName: "BCP" },
      { languageCode: "es", name: "Banco Central del Paraguay", abbreviatedName: "BCP" },
    ],
    // Polled from 19:00 UTC (16:00 in Asunción, UTC-3); the bank states no time of its own.
    dailyUpdateTime: "16:00:00",
    bankCurrency: "PYG",
    countryCode: ["PY"],
    region: ["Americas"],
    timeZone: TIME_ZONE,
    website: "https://www.bcp.gov.py",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    // USD and EUR go back to 2001; most other currencies start later (their early years are all ND).
    coverageStart: "2001-01-01",
    maxRangeDays: 366,
    sourceUrl: ENDPOINT,
  },

  // One page per calendar year and currency: 25 calls per year; "latest" reads the current year.
  async fetch(range, { http }) {
    const first = range.kind === "latest" ? Number(todayIn(TIME_ZONE).slice(0, 4)) : Number(range.from.slice(0, 4));
    const last = range.kind === "latest" ? first : Number(range.to.slice(0, 4));
    const docs: FeedDocument[] = [];
    for (let year = first; year <= last; year++) {
      for (const currency of BCP_CURRENCIES) {
        docs.push(await http.get(`${ENDPOINT}?anho=${year}&moneda=${currency}`, { accept: "text/html" }));
      }
    }
    return docs;
  },

  parse(body, { url }) {
    const text = decodeText(ID, body);
    if (text.trim() === "") throw new FeedError(ID, "empty body where the yearly rates page was expected");
    const $ = cheerio.load(text);
    const title = $("table#cotizacion-interbancaria thead th").first().text().replace(/\s+/g, " ").trim();
    const m = /PLANILLA DE COTIZACIONES DEL AÑO (\d{4}) DE MONEDA (.+)$/.exec(title);
    if (!m)
      throw new FeedError(
        ID,
        'not a BCP yearly rates page: no "PLANILLA DE COTIZACIONES DEL AÑO ... DE MONEDA ..." title (a Cloudflare or error page?)',
      );
    const year = Number(m[1]);
    const name = m[2]!;
    let resolved: CurrencyResolution | undefined;
    try {
      resolved = bcpCurrency(name);
    } catch {
      resolved = undefined; // every rate of the page is held below
    }
    const currency = resolved?.currency;
    const query = url ? new URL(url).searchParams : undefined;
    const asked = query?.get("moneda");
    if (currency && asked && (asked === "SDR" ? "XDR" : asked) !== currency)
      throw new FeedError(ID, `page for ${currency} where moneda=${asked} was asked`);
    const askedYear = query?.get("anho");
    if (askedYear && Number(askedYear) !== year)
      throw new FeedError(ID, `page for ${year} where anho=${askedYear} was asked`);
    if (!/<\/table>/.test(text.slice(text.lastIndexOf("cotizacion-interbancaria"))))
      throw new FeedError(ID, "truncated page: the rates matrix is not closed");

    const matrices = $("table#cotizacion-interbancaria")
      .filter((_, t) => $(t).find("tbody tr").length > 0)
      .toArray();
    if (matrices.length === 0) throw new FeedError(ID, "the page has no rates matrix");
    const rows = new AnswerRows(ID);
    matrices.forEach((matrix, t) => {
      const trs = $(matrix).find("tr").toArray();
      const labels = $(trs[0])
        .children()
        .toArray()
        .map((c) => $(c).text().trim());
      // Column of each month, January first.
      const column = Array.from({ length: 12 }, (_, i) =>
        labels.findIndex((label, c) => c > 0 && monthNumber(label, ["es"]) === i + 1),
      );
      const missing = column.flatMap((c, i) => (c < 0 ? [String(i + 1)] : []));
      if (missing.length > 0)
        throw new FeedError(
          ID,
          `the rates matrix lacks the column(s) of month ${missing.join(", ")} ("${labels.join(" | ")}")`,
        );
      const days = new Set<number>();
      for (const tr of trs.slice(1)) {
        const cells = $(tr)
          .children()
          .toArray()
          .map((c) => $(c).text().trim());
        const day = Number(cells[0]);
        if (!/^\d{1,2}$/.test(cells[0] ?? "") || day < 1 || day > 31)
          throw new FeedError(ID, `row label "${cells[0]}" is not a day of the month`);
        days.add(day);
        column.forEach((c, i) => {
          const raw = cells[c];
          if (raw === "ND" || raw === "") return;
          rows.read(
            `${matrices.length > 1 ? `matrix ${t + 1} ` : ""}day ${day} ${labels[c]}`,
            (): RateRecord => {
              if (raw === undefined) rowProblem(ID, "bad-row", "the row has no cell for this month");
              const code = currencyOf(resolved ?? bcpCurrency(name));
              const effectiveDate = requireDateParts(ID, year, i + 1, day);
              const rate = requireDecimal(ID, raw, code, { decimalComma: true, thousands: "." });
              return { effectiveDate, currency: code, rate };
            },
            { effectiveDate: `${day} ${labels[c]} ${year}`, currency: name, rate: raw },
          );
        });
      }
      if (days.size !== 31) throw new FeedError(ID, `the rates matrix has ${days.size} day rows, not 31`);
    });
    const answer = rows.result();
    answer.records.sort((a, b) => a.effectiveDate.localeCompare(b.effectiveDate));
    return answer;
  },
});

export default bcp;
