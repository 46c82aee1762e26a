// Maldives Monetary Authority: the daily reference rate of the rufiyaa against the US dollar (the only pair).
// Endpoint: GET https://www.mma.gov.mv/JSON/referencerates.json?v=YYYYMMDD (`v` is only a cache-buster):
// every answer is the whole history since 21 April 2011, newest first.
// Format: a JSON array of {"Date": "22 January 2020", "Rate": "15.38"}, the rate as text.
// Quote: MVR per 1 USD (Direct). Published on the Maldivian working days (Sunday to Thursday), in the morning.
// Quirks met in the file: a few dates are repeated (with the same figure: folded by the ingest; with another
// figure: a conflict the ingest holds, neither guessed); some entries are dated with two days, such as
// `08/09 February 2021`, which do not say which day the figure is for: held, never guessed; an empty or "-"
// Rate marks a day without a figure and is skipped.
// Because the file is the whole history, a bad entry is held and costs only itself; only an answer that is
// not a JSON array of entries is refused.
import {
  AnswerRows,
  FeedError,
  defineAdapter,
  jsonNumberText,
  parseJsonExact,
  requireDate,
  requireDecimal,
  rowProblem,
  todayIn,
  type RateRecord,
} from "../src/feed/kit.js";
import { fromDayMonthName } from "../src/feed/month-names.js";

const ID = "MMA";
const ENDPOINT = "https://www.mma.gov.mv/JSON/referencerates.json";
const TIME_ZONE = "Indian/Maldives";
const TWO_DAYS = /^\d{1,2}\s*\/\s*\d{1,2}\s+[A-Za-z]+\s+\d{4}$/;

interface MmaRow {
  Date?: unknown;
  Rate?: unknown;
}

const mma = defineAdapter({
  bank: {
    id: ID,
    // The Dhivehi name is not given: it could not be checked against the Authority's own spelling.
    names: [{ languageCode: "en", name: "Maldives Monetary Authority", abbreviatedName: "MMA" }],
    dailyUpdateTime: "08:00:00",
    bankCurrency: "MVR",
    countryCode: ["MV"],
    region: ["Asia"],
    timeZone: TIME_ZONE,
    website: "https://www.mma.gov.mv",
    quoteType: "Direct",
    // Sunday to Thursday, the Maldivian working week.
    publicationDays: [7, 1, 2, 3, 4],
    coverageStart: "2011-04-21",
    maxRangeDays: 3660,
    sourceUrl: ENDPOINT,
  },

  // `v` is only a cache-buster: every answer is the whole history.
  async fetch(range, { http }) {
    const stamp = (range.kind === "range" ? range.to : todayIn(TIME_ZONE)).replaceAll("-", "");
    return [await http.get(`${ENDPOINT}?v=${stamp}`, { accept: "application/json" })];
  },

  parse(body) {
    const json = parseJsonExact(ID, body);
    if (!Array.isArray(json)) throw new FeedError(ID, "not the MMA reference-rate file: the body is not a JSON array");
    const isEntry = (row: unknown): row is MmaRow =>
      typeof row === "object" && row !== null && "Date" in row && "Rate" in row;
    if (json.length > 0 && !json.some(isEntry))
      throw new FeedError(ID, "not the MMA reference-rate file: no {Date, Rate} entry");
    const rows = new AnswerRows(ID);
    (json as unknown[]).forEach((row, i) => {
      const entry: MmaRow = isEntry(row) ? row : {};
      const text = typeof entry.Date === "string" ? entry.Date.trim() : (JSON.stringify(entry.Date) ?? "");
      const raw = jsonNumberText(entry.Rate)?.trim();
      if (isEntry(row) && (raw === "" || raw === "-")) return; // no figure that day
      rows.read(
        `entry ${i + 1}`,
        (): RateRecord => {
          if (!isEntry(row)) rowProblem(ID, "bad-row", "not a {Date, Rate} object");
          if (TWO_DAYS.test(text))
            rowProblem(ID, "bad-date", `"${text}" names two days: which one the figure is for is not said`);
          const effectiveDate = requireDate(ID, fromDayMonthName(text), text);
          return { effectiveDate, currency: "USD", rate: requireDecimal(ID, raw ?? entry.Rate, `Rate of ${text}`) };
        },
        { effectiveDate: text, currency: "USD", rate: raw ?? JSON.stringify(entry.Rate) },
      );
    });
    return rows.result();
  },
});

export default mma;
