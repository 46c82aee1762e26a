// FRED (Federal Reserve Bank of St. Louis): the Federal Reserve Board's H.10 daily noon buying
// rates in New York, one JSON answer per series.
// Endpoint: GET https://api.stlouisfed.org/fred/series/observations?series_id=DEX..&api_key=KEY
// &file_type=json&observation_start=YYYY-MM-DD[&observation_end=YYYY-MM-DD] (a free key is needed; FRED
// asks for restraint, so the 22 series are asked one after another with a short pause).
// Format: {"units":"lin", ..., "observations":[{"date":"2026-03-02","value":"157.48"}, ...]}; the body does
// not name its series, so parse reads the series id from the URL.
// Quote: 18 series are foreign units per 1 USD (Indirect, as published); DEXUSAL/DEXUSEU/DEXUSNZ/DEXUSUK
// are USD per 1 AUD/EUR/NZD/GBP and are inverted to the declared direction (10 significant digits,
// derivation "inverted"). H.10 comes out on Mondays at 16:15 New York time, a figure per business day.
// "." marks a day without an observation (a holiday) and is skipped; a zero, a figure that is not a
// number or a date that does not exist is held. Another transformation than levels ("units" other than
// "lin": percent changes...) or an API error refuses the answer.
import {
  AnswerRows,
  FeedError,
  credentialFrom,
  US_DOLLAR_AREA,
  defineAdapter,
  invert,
  isIsoDate,
  parseJsonExact,
  pause,
  recentDays,
  requireDate,
  requireDecimal,
  rowProblem,
  type FeedDocument,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "FRED";
const TIME_ZONE = "America/New_York";
const API = "https://api.stlouisfed.org/fred/series/observations";

/** H.10 series id -> [ISO code, direction]: "foreign" = foreign per 1 USD, "usd" = USD per 1 foreign. */
export const FRED_SERIES: Readonly<Record<string, readonly [string, "foreign" | "usd"]>> = {
  DEXBZUS: ["BRL", "foreign"],
  DEXCAUS: ["CAD", "foreign"],
  DEXCHUS: ["CNY", "foreign"],
  DEXDNUS: ["DKK", "foreign"],
  DEXHKUS: ["HKD", "foreign"],
  DEXINUS: ["INR", "foreign"],
  DEXJPUS: ["JPY", "foreign"],
  DEXKOUS: ["KRW", "foreign"],
  DEXMAUS: ["MYR", "foreign"],
  DEXMXUS: ["MXN", "foreign"],
  DEXNOUS: ["NOK", "foreign"],
  DEXSDUS: ["SEK", "foreign"],
  DEXSFUS: ["ZAR", "foreign"],
  DEXSIUS: ["SGD", "foreign"],
  DEXSLUS: ["LKR", "foreign"],
  DEXSZUS: ["CHF", "foreign"],
  DEXTAUS: ["TWD", "foreign"],
  DEXTHUS: ["THB", "foreign"],
  DEXUSAL: ["AUD", "usd"],
  DEXUSEU: ["EUR", "usd"],
  DEXUSNZ: ["NZD", "usd"],
  DEXUSUK: ["GBP", "usd"],
};

type Node = Record<string, unknown>;
const isNode = (x: unknown): x is Node => typeof x === "object" && x !== null && !Array.isArray(x);

function seriesOf(url: string): string {
  let id: string | null;
  try {
    id = new URL(url).searchParams.get("series_id");
  } catch {
    id = null;
  }
  if (!id) throw new FeedError(ID, `the URL names no series_id, and a FRED body does not say which series it holds`);
  if (!(id in FRED_SERIES)) throw new FeedError(ID, `unknown series "${id}"`);
  return id;
}

const fred = defineAdapter({
  bank: {
    id: ID,
    names: [
      {
        languageCode: "en",
        name: "Federal Reserve Bank of St. Louis (FRED), H.10 rates of the Federal Reserve Board",
        abbreviatedName: "FRED",
      },
    ],
    // H.10 is released weekly, on Mondays at 4:15 p.m. Eastern, with a daily figure for each business day.
    dailyUpdateTime: "16:15:00",
    bankCurrency: "USD",
    countryCode: [...US_DOLLAR_AREA],
    region: ["Americas"],
    timeZone: TIME_ZONE,
    website: "https://fred.stlouisfed.org",
    quoteType: "Indirect",
    publicationDays: [1, 2, 3, 4, 5],
    // The oldest H.10 daily series (e.g. DEXJPUS) start on 1971-01-04; DEXUSEU starts on 1999-01-04.
    coverageStart: "1971-01-04",
    maxRangeDays: 3653,
    sourceUrl: API,
    credential: {
      env: "EXRATES_FRED_API_KEY",
      description: "a FRED API key, free from https://fredaccount.stlouisfed.org/apikeys",
    },
  },

  async fetch(range, ctx) {
    const key = credentialFrom(fred, ctx);
    const { from, to } = range.kind === "range" ? range : { ...recentDays(TIME_ZONE, 14), to: undefined };
    const docs: FeedDocument[] = [];
    for (const [i, series] of Object.keys(FRED_SERIES).entries()) {
      if (i > 0) await pause(200); // FRED asks for restraint: a short pause between series
      const end = to ? `&observation_end=${to}` : "";
      const url = `${API}?series_id=${series}&api_key=${encodeURIComponent(key)}&file_type=json&observation_start=${from}${end}`;
      docs.push(await ctx.http.get(url, { accept: "application/json" }));
    }
    return docs;
  },

  parse(body, { url }) {
    const series = seriesOf(url);
    const [currency, direction] = FRED_SERIES[series]!;
    const json = parseJsonExact(ID, body);
    if (!isNode(json) || !Array.isArray(json.observations)) {
      const message = isNode(json) && typeof json.error_message === "string" ? `: ${json.error_message}` : "";
      throw new FeedError(ID, `not a FRED observations answer${message}`);
    }
    if (json.units !== undefined && json.units !== "lin")
      throw new FeedError(ID, `${series}: units ${JSON.stringify(json.units)} are not the levels ("lin") of the rates`);
    const rows = new AnswerRows(ID);
    for (const [i, obs] of (json.observations as unknown[]).entries()) {
      const date = isNode(obs) && typeof obs.date === "string" ? obs.date : "";
      const raw = isNode(obs) ? obs.value : undefined;
      if (raw === ".") continue; // no observation (holiday)
      rows.read(
        `observations[${i}]`,
        (): RateRecord => {
          const effectiveDate = requireDate(ID, isIsoDate(date) ? date : undefined, date);
          const value = requireDecimal(ID, raw, `${series} on ${date}`);
          if (!/[1-9]/.test(value)) rowProblem(ID, "bad-rate", `${series} on ${date}: a zero is no rate`);
          return direction === "foreign"
            ? { effectiveDate, currency, rate: value }
            : { effectiveDate, currency, rate: invert(value), derivation: "inverted" };
        },
        { effectiveDate: date, currency, rate: String(raw) },
      );
    }
    return rows.result();
  },
});

export default fred;
