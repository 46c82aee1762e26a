// Maldives Monetary Authority: the daily reference rate of the rufiyaa against the US dollar (the only pair), as
// JSON; one file holds the whole history, newest first. MVR per 1 USD (Direct). Dates look like `22 January 2020`.
// The file repeats some dates; the first entry (the newest) is kept. Entries dated with two days, such as
// `08/09 February 2021`, do not say which day the figure is for: they are skipped, never guessed.
import {
  FeedError,
  decodeText,
  defineAdapter,
  isoFromParts,
  jsonNumberText,
  parseJsonExact,
  readDecimal,
  todayIn,
  type IsoDate,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "MMA";
const ENDPOINT = "https://www.mma.gov.mv/JSON/referencerates.json";
const TIME_ZONE = "Indian/Maldives";
const MONTHS = [
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
const TWO_DAYS = /^\d{1,2}\s*\/\s*\d{1,2}\s+[A-Za-z]+\s+\d{4}$/;

interface MmaRow {
  Date?: unknown;
  Rate?: unknown;
}

function dayMonthYear(text: string): IsoDate | undefined {
  const m = /^(\d{1,2})\s+([A-Za-z]+)\s+(\d{4})$/.exec(text.trim());
  if (!m) return undefined;
  const month = MONTHS.indexOf(m[2]!.toLowerCase()) + 1;
  return month > 0 ? isoFromParts(m[3]!, month, m[1]!) : undefined;
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
    const json = parseJsonExact(ID, decodeText(ID, body));
    if (!Array.isArray(json)) throw new FeedError(ID, "not the MMA reference-rate file: the body is not a JSON array");
    const seen = new Set<IsoDate>();
    const records: RateRecord[] = [];
    (json as MmaRow[]).forEach((row, i) => {
      if (typeof row !== "object" || row === null || !("Date" in row) || !("Rate" in row))
        throw new FeedError(ID, `entry ${i} is not a {Date, Rate} object`);
      const text = typeof row.Date === "string" ? row.Date.trim() : "";
      if (TWO_DAYS.test(text)) return;
      const date = dayMonthYear(text);
      if (!date) throw new FeedError(ID, `entry ${i}: Date "${String(row.Date)}" is not "DD Month YYYY"`);
      const raw = jsonNumberText(row.Rate);
      if (raw === undefined || raw.trim() === "") return;
      const rate = readDecimal(raw);
      if (!rate) throw new FeedError(ID, `entry ${i} (${date}): Rate "${raw}" is not a decimal`);
      if (seen.has(date)) return;
      seen.add(date);
      records.push({ effectiveDate: date, currency: "USD", rate });
    });
    return records;
  },
});

export default mma;
