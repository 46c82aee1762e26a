// Banco Central del Paraguay: the interbank reference rate of the guaraní (PYG), one HTML page per
// year and currency (monedas-historica?anho=YYYY&moneda=XXX) holding a 31-day × 12-month matrix.
// PYG per 1 unit of the foreign currency (Direct); gold (XAU) is already per troy ounce. Cells are
// `7.271,63` (dot thousands, decimal comma) or `ND` (no rate that day); the date is the cell's
// position (row = day, column = month found by its label). The currency is the URL's `moneda`,
// checked against the Spanish name in the page title (mapped below); the year is the title's,
// checked against `anho`. The site sits behind Cloudflare: a challenge page has no rates matrix and
// is rejected.
import * as cheerio from "cheerio";

import {
  FeedError,
  decodeText,
  defineAdapter,
  isoFromParts,
  requireDecimal,
  todayIn,
  type FeedDocument,
  type RateRecord,
} from "../src/feed/kit.js";

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

/** The names in the page title ("... DE MONEDA DOLAR AMERICANO") to ISO 4217 codes. */
export const BCP_CURRENCY_NAMES: Readonly<Record<string, string>> = {
  "DOLAR AMERICANO": "USD",
  EURO: "EUR",
  "LIBRA ESTERLINA": "GBP",
  "YEN JAPONES": "JPY",
  "FRANCO SUIZO": "CHF",
  "DOLAR CANADIENSE": "CAD",
  "DOLAR AUSTRALIANO": "AUD",
  "YUAN CHINO": "CNY",
  "REAL BRASILERO": "BRL",
  "PESO ARGENTINO": "ARS",
  "PESO CHILENO": "CLP",
  "PESO MEXICANO": "MXN",
  "PESO URUGUAYO": "UYU",
  "PESO COLOMBIANO": "COP",
  "BOLIVIAN BOLIVIANO": "BOB",
  "DOLAR NEOZELANDES": "NZD",
  "RAND SUDAFRICANO": "ZAR",
  "CORONA SUECA": "SEK",
  "CORONA DANESA": "DKK",
  "CORONA NORUEGA": "NOK",
  "DERECHO ESPECIAL DE GIRO": "XDR",
  ORO: "XAU",
  "UAE DIRHAM": "AED",
  "PERUVIAN NUEVO SOL": "PEN",
  "SINGAPORE DOLLAR": "SGD",
  "NEW TAIWAN DOLLAR": "TWD",
};

const MONTHS = ["ENE", "FEB", "MAR", "ABR", "MAY", "JUN", "JUL", "AGO", "SEP", "OCT", "NOV", "DIC"];

const bcp = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Bank of Paraguay", abbreviatedName: "BCP" },
      { languageCode: "es", name: "Banco Central del Paraguay", abbreviatedName: "BCP" },
    ],
    // Polled from 19:00 UTC (16:00 in Asunción, UTC-3); the bank states no time of its own (not verified).
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
    const currency = BCP_CURRENCY_NAMES[m[2]!];
    if (!currency) throw new FeedError(ID, `unknown currency name "${m[2]}" in the page title`);
    const query = url ? new URL(url).searchParams : undefined;
    const asked = query?.get("moneda");
    if (asked && (asked === "SDR" ? "XDR" : asked) !== currency)
      throw new FeedError(ID, `page for ${currency} where moneda=${asked} was asked`);
    const askedYear = query?.get("anho");
    if (askedYear && Number(askedYear) !== year)
      throw new FeedError(ID, `page for ${year} where anho=${askedYear} was asked`);

    const matrix = $("table#cotizacion-interbancaria")
      .filter((_, t) => $(t).find("tbody tr").length > 0)
      .first();
    const rows = matrix.find("tr").toArray();
    const labels = $(rows[0])
      .children()
      .toArray()
      .map((c) => $(c).text().trim());
    const column = MONTHS.map((label) => labels.indexOf(label));
    const missing = MONTHS.filter((_, i) => column[i]! < 0);
    if (rows.length === 0 || missing.length > 0)
      throw new FeedError(ID, `the rates matrix lacks the month column(s) ${missing.join(", ") || "(no matrix)"}`);
    if (!/<\/table>/.test(text.slice(text.lastIndexOf("cotizacion-interbancaria"))))
      throw new FeedError(ID, "truncated page: the rates matrix is not closed");

    const records: RateRecord[] = [];
    const days = new Set<number>();
    for (const row of rows.slice(1)) {
      const cells = $(row)
        .children()
        .toArray()
        .map((c) => $(c).text().trim());
      const day = Number(cells[0]);
      if (!/^\d{1,2}$/.test(cells[0] ?? "") || day < 1 || day > 31)
        throw new FeedError(ID, `row label "${cells[0]}" is not a day of the month`);
      days.add(day);
      MONTHS.forEach((label, i) => {
        const raw = cells[column[i]!];
        if (raw === undefined) throw new FeedError(ID, `day ${day} of ${year} has no ${label} cell`);
        if (raw === "ND" || raw === "") return;
        const date = isoFromParts(year, i + 1, day);
        if (!date)
          throw new FeedError(ID, `a ${currency} rate "${raw}" on the impossible date ${day} ${label} ${year}`);
        const rate = requireDecimal(ID, raw, `${currency} on ${date}`, { decimalComma: true, thousands: "." });
        records.push({ effectiveDate: date, currency, rate });
      });
    }
    if (days.size !== 31) throw new FeedError(ID, `the rates matrix has ${days.size} day rows, not 31`);
    return records.sort((a, b) => a.effectiveDate.localeCompare(b.effectiveDate));
  },
});

export default bcp;
