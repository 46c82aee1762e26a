// South African Reserve Bank: daily weighted averages of the banks' rates at about 10:30 Johannesburg
// time (weights from the banks' foreign exchange transactions), one JSON series per currency from the
// web-indicators API: GetTimeseriesObservations/{series}/{from}T00:00:00/{to}T00:00:00 answers
// [{Period, Timeseries, Description, Value, FormatNumber, FormatDate}]. The series mix directions: 20
// are foreign units per 1 ZAR ("Japan: Yen per Rand") and USD, GBP and EUR are ZAR per unit ("Rand
// per US Dollar"). The bank is declared Indirect, the majority convention, so that the twenty
// four-decimal figures stay verbatim (inverting 0.0465 CHF would invent precision); the three "Rand
// per" series, which carry more significant digits, are inverted to 10 significant digits and
// flagged. A body carries no series code: parse takes it from the URL (a URL naming no known series
// refuses the answer) and checks each observation's label against the direction the map assumes (an
// observation whose label says the other direction is held). A null, empty or zero Value marks a day
// without an observation and is skipped.
import {
  AnswerRows,
  FeedError,
  defineAdapter,
  invert,
  isIsoDate,
  jsonNumberText,
  parseJsonExact,
  recentDays,
  requireDate,
  requireDecimal,
  rowProblem,
  type FeedDocument,
} from "../src/feed/kit.js";

const ID = "SARB";
const API = "https://custom.resbank.co.za/SarbWebApi/WebIndicators/Shared/GetTimeseriesObservations";
const TIME_ZONE = "Africa/Johannesburg";

/** Series code to currency; `perRand` true when the series is foreign units per 1 ZAR. */
export const SARB_SERIES: Readonly<Record<string, { currency: string; perRand: boolean }>> = {
  EXCX135D: { currency: "USD", perRand: false },
  EXCZ001D: { currency: "GBP", perRand: false },
  EXCZ002D: { currency: "EUR", perRand: false },
  EXCB080D: { currency: "AUD", perRand: true },
  EXCB051D: { currency: "BWP", perRand: true },
  EXCB036D: { currency: "BRL", perRand: true },
  EXCB031D: { currency: "CAD", perRand: true },
  EXCB121D: { currency: "CNY", perRand: true },
  EXCB003D: { currency: "DKK", perRand: true },
  EXCB122D: { currency: "HKD", perRand: true },
  EXCB123D: { currency: "INR", perRand: true },
  EXCB094D: { currency: "ILS", perRand: true },
  EXCB120D: { currency: "JPY", perRand: true },
  EXCB059D: { currency: "KES", perRand: true },
  EXCB063D: { currency: "MWK", perRand: true },
  EXCB081D: { currency: "NZD", perRand: true },
  EXCB013D: { currency: "NOK", perRand: true },
  EXCB015D: { currency: "SEK", perRand: true },
  EXCB016D: { currency: "CHF", perRand: true },
  EXCB126D: { currency: "TWD", perRand: true },
  EXCB115D: { currency: "THB", perRand: true },
  EXCB071D: { currency: "ZMW", perRand: true },
  EXCB118D: { currency: "KRW", perRand: true },
};

type Node = Record<string, unknown>;

const seriesUrl = (code: string, from: string, to: string) => `${API}/${code}/${from}T00:00:00/${to}T00:00:00`;

function seriesOf(url: string): string {
  const m = /\/GetTimeseriesObservations\/([A-Z0-9]+)\//i.exec(url);
  const code = m?.[1]?.toUpperCase() ?? "";
  if (!SARB_SERIES[code])
    throw new FeedError(
      ID,
      `cannot tell the series from the URL "${url}" (known: ${Object.keys(SARB_SERIES).length} series)`,
    );
  return code;
}

const sarb = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "South African Reserve Bank", abbreviatedName: "SARB" },
      { languageCode: "af", name: "Suid-Afrikaanse Reserwebank", abbreviatedName: "SARB" },
    ],
    // The figures are the weighted average of the banks' rates at about 10:30.
    dailyUpdateTime: "10:30:00",
    bankCurrency: "ZAR",
    // The rand is legal tender in the Common Monetary Area beside the local currencies.
    countryCode: ["ZA", "LS", "NA", "SZ"],
    region: ["Africa"],
    timeZone: TIME_ZONE,
    website: "https://www.resbank.co.za",
    quoteType: "Indirect",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "1990-01-02",
    maxRangeDays: 365,
    sourceUrl: `${API}/EXCX135D`,
  },

  async fetch(range, { http }) {
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 10);
    const docs: FeedDocument[] = [];
    for (const code of Object.keys(SARB_SERIES)) {
      docs.push(await http.get(seriesUrl(code, from, to), { accept: "application/json" }));
    }
    return docs;
  },

  parse(body, { url }) {
    const code = seriesOf(url);
    const { currency, perRand } = SARB_SERIES[code]!;
    const json = parseJsonExact(ID, body);
    if (!Array.isArray(json)) throw new FeedError(ID, `not a SARB observations answer: no array (series ${code})`);
    const rows = new AnswerRows(ID);
    for (const [i, obs] of (json as unknown[]).entries()) {
      if (typeof obs !== "object" || obs === null || !("Period" in obs) || !("Timeseries" in obs))
        throw new FeedError(ID, `not a SARB observations answer: observation ${i + 1} has no Period and Timeseries`);
      const o = obs as Node;
      const label = typeof o.Timeseries === "string" ? o.Timeseries.trim() : "";
      const rawDate = typeof o.Period === "string" ? o.Period : String(jsonNumberText(o.Period) ?? "");
      const raw = o.Value === null || o.Value === undefined ? "" : (jsonNumberText(o.Value) ?? "");
      rows.read(
        `${code} observation ${i + 1}`,
        () => {
          // "Rand per US Dollar" / "Japan: Yen per Rand": the label must say the direction the map assumes.
          const says = /per Rand$/i.test(label) ? "per Rand" : /^Rand per /i.test(label) ? "Rand per" : "neither";
          if (says !== (perRand ? "per Rand" : "Rand per"))
            rowProblem(ID, "bad-row", `label "${label}" does not say ${currency} ${perRand ? "per Rand" : "Rand per"}`);
          const date = requireDate(ID, isIsoDate(rawDate.slice(0, 10)) ? rawDate.slice(0, 10) : undefined, rawDate);
          if (raw.trim() === "") return undefined; // no observation that day
          const value = requireDecimal(ID, raw, `${code} Value`);
          if (!/[1-9]/.test(value)) return undefined; // 0 marks a missing observation
          return perRand
            ? { effectiveDate: date, currency, rate: value }
            : { effectiveDate: date, currency, rate: invert(value), derivation: "inverted" as const };
        },
        { effectiveDate: rawDate, currency: label, rate: raw },
      );
    }
    return rows.result();
  },
});

export default sarb;
