// Sveriges Riksbank: exchange rates against the krona from the SWEA API, group 130
// (Observations/ByGroup/130/{from}/{to}, at most a year per call), as a JSON array of
// {seriesId, date, value}. SEK per 1 foreign unit (Direct), series SEK{ISO}PMI, published at about
// 16:15 Stockholm time on Swedish banking days; the numbers are read without losing digits. SEKETT
// (the krona against itself, always 1) is not a rate and is skipped, as is a null value (no
// observation). EUR values before 1999-01-04 are the ECU and are published as XEU. The API's values
// are rounded to 5 decimals (IDR comes out as 0.00055): they are kept as sent. A series of another
// shape is held: its currency cannot be told.
import {
  AnswerRows,
  FeedError,
  defineAdapter,
  isIsoDate,
  jsonNumberText,
  parseJsonExact,
  recentDays,
  requireDate,
  requireDecimal,
  rowProblem,
} from "../src/feed/kit.js";

const ID = "RB";
const TIME_ZONE = "Europe/Stockholm";
const API = "https://api.riksbank.se/swea/v1/Observations/ByGroup/130";
const SERIES = /^SEK([A-Z]{3})PMI$/;
const EURO_START = "1999-01-04";

type Node = Record<string, unknown>;
const isNode = (x: unknown): x is Node => typeof x === "object" && x !== null && !Array.isArray(x);
/** What a field said, as text (numbers with their digits); undefined when absent. */
const raw = (x: unknown) =>
  x === undefined || x === null ? undefined : typeof x === "string" ? x : (jsonNumberText(x) ?? JSON.stringify(x));

const rb = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Sveriges Riksbank", abbreviatedName: "Riksbank" },
      { languageCode: "sv", name: "Sveriges riksbank", abbreviatedName: "Riksbanken" },
    ],
    // The daily exchange rates are published at about 16:15 on Swedish banking days.
    dailyUpdateTime: "16:15:00",
    bankCurrency: "SEK",
    countryCode: ["SE"],
    region: ["Europe"],
    timeZone: TIME_ZONE,
    website: "https://www.riksbank.se",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    // "Most of the exchange rates are available from 1993."
    coverageStart: "1993-01-04",
    // The API answers at most one year per call.
    maxRangeDays: 365,
    sourceUrl: API,
  },

  async fetch(range, { http }) {
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 10);
    return [await http.get(`${API}/${from}/${to}`, { accept: "application/json" })];
  },

  parse(body) {
    const json = parseJsonExact(ID, body);
    if (!Array.isArray(json)) throw new FeedError(ID, "not a SWEA observations answer: not a JSON array");
    const rows = new AnswerRows(ID);
    for (const [i, obs] of json.entries()) {
      if (!isNode(obs) || typeof obs.seriesId !== "string")
        throw new FeedError(ID, `not a SWEA observations answer: observation ${i + 1} has no seriesId`);
      const series = obs.seriesId;
      const rawDate = raw(obs.date) ?? "";
      rows.read(
        `observation ${i + 1} (${series})`,
        () => {
          if (series === "SEKETT") return undefined; // the krona itself, not a rate
          const m = SERIES.exec(series);
          if (!m) rowProblem(ID, "unknown-currency", `series "${series}" is not SEK{ISO}PMI`);
          const date = requireDate(ID, isIsoDate(rawDate) ? rawDate : undefined, rawDate);
          if (obs.value === null || obs.value === undefined) return undefined; // no observation
          const rate = requireDecimal(ID, jsonNumberText(obs.value), `${series} value`);
          const currency = m[1] === "EUR" && date < EURO_START ? "XEU" : m[1]!;
          return { effectiveDate: date, currency, rate };
        },
        { effectiveDate: rawDate, currency: series, rate: raw(obs.value) },
      );
    }
    return rows.result();
  },
});

export default rb;
