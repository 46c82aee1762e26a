// Banca d'Italia: the daily exchange rates of the euro against about 150 currencies (the ECB reference rates
// plus the bank's own indicative rates for the others).
// - Endpoint: GET https://tassidicambio.bancaditalia.it/terzevalute-wf-web/rest/v1.0/dailyRates?referenceDate=
//   YYYY-MM-DD&currencyIsoCode=EUR&lang=en, one call per weekday, with a pause of about 300 ms between calls
//   as the portal asks.
// - CSV with the header `Country,Currency,ISO Code,UIC Code,Rate,Rate convention,Reference date (CET)`
//   (columns found by name), then a disclaimer of "#" lines (dropped before reading: they hold any
//   punctuation).
// - Foreign units per 1 EUR (Indirect): every row says "Foreign currency amount for 1 Euro."; a row saying
//   another convention is held. "N.A." marks a currency without a rate that day (skipped). A currency used by
//   several countries (XOF, XAF, XCD) has one row per country with the same figure: the ingest gate folds
//   them (and holds them all should their figures ever differ).
// - Published on weekdays around 16:00 Rome time (after the ECB's concertation).
import {
  AnswerRows,
  addDays,
  decodeText,
  EURO_AREA,
  defineAdapter,
  expectFeedText,
  FeedError,
  isIsoDate,
  pause,
  requireDate,
  requireDecimal,
  rowProblem,
  todayIn,
  weekdaysBetween,
  type FeedDocument,
  type IsoDate,
} from "../src/feed/kit.js";
import { csvColumns, readCsv } from "../src/feed/csv.js";

const ID = "BDI";
const ENDPOINT = "https://tassidicambio.bancaditalia.it/terzevalute-wf-web/rest/v1.0/dailyRates";
const TIME_ZONE = "Europe/Rome";
const CONVENTION = "Foreign currency amount for 1 Euro.";
const COLUMNS = ["ISO Code", "Rate", "Rate convention", "Reference date (CET)"] as const;
const WHAT = "a Banca d'Italia daily-rates CSV";

const dayUrl = (date: IsoDate) => `${ENDPOINT}?referenceDate=${date}&currencyIsoCode=EUR&lang=en`;

const bdi = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Bank of Italy", abbreviatedName: "BdI" },
      { languageCode: "it", name: "Banca d'Italia", abbreviatedName: "BdI" },
    ],
    dailyUpdateTime: "16:00:00",
    bankCurrency: "EUR",
    countryCode: [...EURO_AREA],
    region: ["Europe"],
    timeZone: TIME_ZONE,
    website: "https://www.bancaditalia.it",
    quoteType: "Indirect",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "1999-01-04",
    maxRangeDays: 31,
    sourceUrl: `${ENDPOINT}?currencyIsoCode=EUR&lang=en`,
  },

  async fetch(range, { http }) {
    const today = todayIn(TIME_ZONE);
    // Latest: the last few weekdays, so that a day not yet published or a holiday still leaves the newest.
    const days =
      range.kind === "range"
        ? weekdaysBetween(range.from, range.to)
        : weekdaysBetween(addDays(today, -4), today).slice(-3);
    const docs: FeedDocument[] = [];
    for (const [i, day] of days.entries()) {
      if (i > 0) await pause(300); // the portal asks for a pause between calls
      docs.push(await http.get(dayUrl(day), { accept: "text/csv" }));
    }
    return docs;
  },

  parse(body) {
    const text = expectFeedText(ID, decodeText(ID, body), "CSV");
    // The disclaimer lines start with "#" and may hold any punctuation: drop them before parsing.
    const data = text
      .split(/\r?\n/)
      .filter((line) => !line.startsWith("#"))
      .join("\n");
    const lines = readCsv(ID, data, { relaxColumnCount: true, what: WHAT });
    const header = lines[0] ?? [];
    const at = csvColumns(ID, header, COLUMNS, WHAT);
    const last = lines.at(-1)!;
    if (lines.length > 1 && last.length < header.length)
      throw new FeedError(
        ID,
        `truncated: the last row has ${last.length} fields where the header has ${header.length}`,
      );
    const rated = lines.slice(1).filter((row) => row.length === header.length && !/^(N\.A\.)?$/.test(row[at.Rate]!));
    if (rated.length > 0 && rated.every((row) => row[at["Rate convention"]] !== CONVENTION))
      throw new FeedError(ID, `not euro rates: the rate convention is "${rated[0]![at["Rate convention"]]}"`);
    const rows = new AnswerRows(ID);
    for (let i = 1; i < lines.length; i++) {
      const row = lines[i]!;
      const currency = row[at["ISO Code"]] ?? "";
      const raw = row[at.Rate] ?? "";
      const date = row[at["Reference date (CET)"]] ?? "";
      if (currency === "EUR") continue;
      if (raw === "N.A." || raw === "") continue; // no rate for that currency that day
      rows.read(
        `line ${i + 1}`,
        () => {
          if (row.length !== header.length)
            rowProblem(ID, "bad-row", `${row.length} fields where the header has ${header.length}`);
          if (row[at["Rate convention"]] !== CONVENTION)
            rowProblem(ID, "bad-row", `rate convention "${row[at["Rate convention"]]}", not "${CONVENTION}"`);
          const effectiveDate = requireDate(ID, isIsoDate(date) ? date : undefined, date);
          // A code that is not ISO 4217 goes on as written: the ingest gate holds it.
          return { effectiveDate, currency, rate: requireDecimal(ID, raw, `rate of ${currency}`) };
        },
        { effectiveDate: date, currency, rate: raw },
      );
    }
    return rows.result();
  },
});

export default bdi;
