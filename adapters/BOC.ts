// Bank of Canada: daily exchange rates from the Valet API, group FX_RATES_DAILY, as JSON.
// CAD per 1 foreign unit (Direct); each series is named FX{ISO}CAD and its values arrive as
// strings under `v`, kept exactly as written ("0.000080" stays "0.000080").
import {
  FeedError,
  decodeText,
  defineAdapter,
  isIsoDate,
  parseJsonExact,
  recentDays,
  requireDecimal,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "BOC";
const TIME_ZONE = "America/Toronto";
const GROUP = "https://www.bankofcanada.ca/valet/observations/group/FX_RATES_DAILY/json";
const SERIES = /^FX([A-Z]{3})CAD$/;

type Node = Record<string, unknown>;
const isNode = (x: unknown): x is Node => typeof x === "object" && x !== null && !Array.isArray(x);

const boc = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Bank of Canada", abbreviatedName: "BoC" },
      { languageCode: "fr", name: "Banque du Canada", abbreviatedName: "BdC" },
    ],
    // "published once each business day by 16:30 ET" (the group's own description).
    dailyUpdateTime: "16:30:00",
    bankCurrency: "CAD",
    countryCode: ["CA"],
    region: ["Americas"],
    timeZone: TIME_ZONE,
    website: "https://www.bankofcanada.ca",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    // FX_RATES_DAILY starts on 2017-01-03 (the older noon-rate group is a different series).
    coverageStart: "2017-01-03",
    maxRangeDays: 366,
    sourceUrl: GROUP,
  },

  async fetch(range, { http }) {
    const accept = "application/json";
    if (range.kind === "latest") {
      const { from } = recentDays(TIME_ZONE, 10);
      return [await http.get(`${GROUP}?start_date=${from}`, { accept })];
    }
    return [await http.get(`${GROUP}?start_date=${range.from}&end_date=${range.to}`, { accept })];
  },

  parse(body) {
    const json = parseJsonExact(ID, decodeText(ID, body));
    if (!isNode(json) || !Array.isArray(json.observations) || !isNode(json.seriesDetail)) {
      throw new FeedError(ID, "not a Valet observations answer: no seriesDetail or observations");
    }
    const records: RateRecord[] = [];
    for (const [i, obs] of (json.observations as unknown[]).entries()) {
      if (!isNode(obs)) throw new FeedError(ID, `observations[${i}] is not an object`);
      const date = typeof obs.d === "string" ? obs.d : "";
      if (!isIsoDate(date)) throw new FeedError(ID, `observations[${i}]: date "${String(obs.d)}" is not YYYY-MM-DD`);
      for (const [key, cell] of Object.entries(obs)) {
        if (key === "d") continue;
        const m = SERIES.exec(key);
        if (!m) throw new FeedError(ID, `observations[${i}]: unexpected series "${key}"`);
        const raw = isNode(cell) ? cell.v : undefined;
        if (raw === undefined || raw === null || raw === "") continue; // no observation that day
        records.push({ effectiveDate: date, currency: m[1]!, rate: requireDecimal(ID, raw, `${key} on ${date}`) });
      }
    }
    return records;
  },
});

export default boc;
