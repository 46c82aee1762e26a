// Bank of Canada: daily exchange rates from the Valet API, group FX_RATES_DAILY, as JSON
// (https://www.bankofcanada.ca/valet/observations/group/FX_RATES_DAILY/json?start_date=&end_date=,
// YYYY-MM-DD; the latest asks from ten days back without an end).
// - Answer: `seriesDetail` (one entry per series) and `observations`, each {d: date, FX{ISO}CAD: {v}}.
//   CAD per 1 foreign unit (Direct); values arrive as strings under `v`, kept exactly as written
//   ("0.000080" stays "0.000080"); an empty or missing `v` is a day without a value.
// - An answer whose series are none of the FX{ISO}CAD form is another group (refused); a lone series of
//   another form has figures no currency can be given to, and they are held.
// - Published once each business day by 16:30 Toronto time (the group's own description).
import {
  AnswerRows,
  FeedError,
  defineAdapter,
  isIsoDate,
  parseJsonExact,
  recentDays,
  requireCurrencyCode,
  requireDecimal,
  rowProblem,
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
    const json = parseJsonExact(ID, body);
    if (!isNode(json) || !Array.isArray(json.observations) || !isNode(json.seriesDetail)) {
      throw new FeedError(ID, "not a Valet observations answer: no seriesDetail or observations");
    }
    const series = Object.keys(json.seriesDetail);
    if (series.length > 0 && !series.some((key) => SERIES.test(key)))
      throw new FeedError(
        ID,
        `not the FX_RATES_DAILY group: no FX<ISO>CAD series among ${series.slice(0, 5).join(", ")}`,
      );
    const rows = new AnswerRows(ID);
    (json.observations as unknown[]).forEach((obs, i) => {
      const source = `observations[${i}]`;
      if (!isNode(obs)) return rows.hold(source, "bad-row", "not an object");
      const date = typeof obs.d === "string" ? obs.d : String(obs.d);
      if (!isIsoDate(date))
        return rows.hold(source, "bad-date", `date "${date}" is not a real YYYY-MM-DD date`, { effectiveDate: date });
      for (const [key, cell] of Object.entries(obs)) {
        if (key === "d") continue;
        const raw = isNode(cell) ? cell.v : undefined;
        if (raw === undefined || raw === null || raw === "") continue; // no observation that day
        const text = typeof raw === "string" ? raw : JSON.stringify(raw);
        rows.read(
          `${source} ${key}`,
          () => {
            const m = SERIES.exec(key);
            if (!m) rowProblem(ID, "unknown-currency", `series "${key}" is not an FX<ISO>CAD rate`);
            const currency = requireCurrencyCode(ID, m[1]!);
            return { effectiveDate: date, currency, rate: requireDecimal(ID, raw, `${key} on ${date}`) };
          },
          { effectiveDate: date, currency: key, rate: text },
        );
      }
    });
    return rows.result();
  },
});

export default boc;
