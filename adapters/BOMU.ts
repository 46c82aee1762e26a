// Bank of Mauritius: the consolidated indicative exchange rates of the rupee (MUR), an HTML listing.
// - Endpoint: GET https://www.bom.mu/markets/foreign-exchange/consolidated-indicative-exchange-rates
//   ?field_transaction_date_value[value][date]=DD-MM-YYYY&field_transaction_date_value_1[value][date]=DD-MM-YYYY
//   (from and to, both inclusive, both needed); asked a month at a time.
// - The rates are the primary table's `tr.tblConso` rows, one per currency and day, newest day first:
//   country, `USD 1` or `JPY 100` (code and units), T.T buying (`views-field-php`), D.D buying, Notes
//   buying, T.T/D.D selling (`views-field-php-3`), Notes selling, and the day (`DD-MM-YYYY`). The rows
//   repeated without `tblConso` after it, the sidebar's live quotes and the converter are not read. The
//   page carries a NUL byte in its breadcrumb, dropped before parsing.
// - Quotes: MUR per the unit written (Direct). The bank publishes no official mid: the daily averages of
//   the banks' indicative buying and selling rates. The figure stored is the exact mean of T.T buying and
//   T.T/D.D selling (derivation "mean"), per 1 unit (JPY's 100 kept as unitMultiplier 2).
// - Published on Mauritian working days; the hour is not established (polled in the evening).
// A row whose code, units, day or figures cannot be read is held; a row of a day outside the dates
// asked (an answer to another request) refuses the answer, as does a page without the rates table.
import * as cheerio from "../src/feed/cheerio.js";

import {
  AnswerRows,
  FeedError,
  decodeText,
  defineAdapter,
  expectFeedText,
  fromDayMonthYear,
  mean,
  perUnits,
  recentDays,
  requireCurrencyCode,
  requireDate,
  requireDecimal,
  requireUnits,
  rowProblem,
  type IsoDate,
} from "../src/feed/kit.js";

const ID = "BOMU";
const TIME_ZONE = "Indian/Mauritius";
const PAGE = "https://www.bom.mu/markets/foreign-exchange/consolidated-indicative-exchange-rates";
const FROM = "field_transaction_date_value[value][date]";
const TO = "field_transaction_date_value_1[value][date]";

const ddmmyyyy = (date: IsoDate) => `${date.slice(8, 10)}-${date.slice(5, 7)}-${date.slice(0, 4)}`;

/** The listing of the days from `from` to `to`. */
export const bomuUrl = (from: IsoDate, to: IsoDate) =>
  `${PAGE}?${encodeURIComponent(FROM)}=${ddmmyyyy(from)}&${encodeURIComponent(TO)}=${ddmmyyyy(to)}`;

/** The dates a listing's URL asks for, when it names both. */
function askedWindow(url: string | undefined): { from: IsoDate; to: IsoDate } | undefined {
  if (!url) return undefined;
  let params: URLSearchParams;
  try {
    params = new URL(url).searchParams;
  } catch {
    return undefined;
  }
  const from = fromDayMonthYear(params.get(FROM) ?? "");
  const to = fromDayMonthYear(params.get(TO) ?? "");
  return from && to ? { from, to } : undefined;
}

const bomu = defineAdapter({
  bank: {
    id: ID,
    names: [{ languageCode: "en", name: "Bank of Mauritius", abbreviatedName: "BOM" }],
    dailyUpdateTime: "18:00:00",
    bankCurrency: "MUR",
    countryCode: ["MU"],
    region: ["Africa"],
    timeZone: TIME_ZONE,
    website: "https://www.bom.mu",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    // The listing answers for 4 January 2005 (the oldest day recorded).
    coverageStart: "2005-01-04",
    maxRangeDays: 31,
    sourceUrl: PAGE,
  },

  async fetch(range, { http }) {
    const { from, to } = range.kind === "latest" ? recentDays(TIME_ZONE, 7) : range;
    return [await http.get(bomuUrl(from, to), { accept: "text/html" })];
  },

  parse(body, { url }) {
    const text = decodeText(ID, body).replaceAll("\0", "");
    if (!text.includes("tblConso")) {
      expectFeedText(ID, text.replace(/^\s*<!DOCTYPE[^>]*>/i, ""), "the consolidated indicative rates listing");
      throw new FeedError(ID, "not the consolidated indicative rates listing: no tr.tblConso row");
    }
    const $ = cheerio.load(text);
    const window = askedWindow(url);
    const rows = new AnswerRows(ID);
    for (const [r, tr] of $("tr.tblConso").toArray().entries()) {
      const cell = (field: string) => $(tr).find(`td.views-field-${field}`).first().text().trim();
      const written = cell("field-currency").replace(/\s+/g, " ");
      const day = cell("field-transaction-date");
      const [buy, sell] = [cell("php"), cell("php-3")];
      const date = fromDayMonthYear(day);
      if (date && window && (date < window.from || date > window.to))
        throw new FeedError(
          ID,
          `a row of ${date} in the listing of ${window.from} to ${window.to}: not the dates asked`,
        );
      rows.read(
        `row ${r + 1} (${written})`,
        () => {
          const m = /^([A-Z]{3}) (\d+)$/.exec(written);
          if (!m) rowProblem(ID, "unknown-currency", `"${written}" is not a code and a number of units`);
          const currency = requireCurrencyCode(ID, m[1]!);
          const units = requireUnits(ID, m[2], "units");
          const mid = mean(requireDecimal(ID, buy, "T.T buying"), requireDecimal(ID, sell, "T.T/D.D selling"));
          return {
            effectiveDate: requireDate(ID, date, day),
            currency,
            ...perUnits(mid, units),
            derivation: "mean" as const,
          };
        },
        { effectiveDate: day, currency: written.slice(0, 3), rate: `${buy} / ${sell}` },
      );
    }
    return rows.result();
  },
});

export default bomu;
