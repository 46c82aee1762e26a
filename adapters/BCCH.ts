// Central Bank of Chile: daily exchange rates from the BDE web service (SieteRestWS, JSON), one call
// per series. CLP per 1 unit (Direct); USD is the "dólar observado" (F073.TCO.PRE.Z.D). Observations
// whose statusCode is not "OK" (weekends and holidays, value "NaN") are skipped. Dates DD-MM-YYYY.
// The service needs a registered user and password as query parameters: one credential holding
// "user:password" (split at the first colon, so the e-mail user name cannot contain one).
import {
  FeedError,
  asArray,
  credentialFrom,
  decodeText,
  defineAdapter,
  fromDayMonthYear,
  parseJsonExact,
  readDecimal,
  recentDays,
  type BankAdapter,
  type FeedDocument,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "BCCH";
const ENDPOINT = "https://si3.bcentral.cl/SieteRestWS/SieteRestWS.ashx";
const TIME_ZONE = "America/Santiago";

/** BDE series id to the currency it prices in pesos. */
export const BCCH_SERIES: Readonly<Record<string, string>> = {
  "F073.TCO.PRE.Z.D": "USD",
  "F072.CLP.EUR.N.O.D": "EUR",
  "F072.CLP.GBP.N.O.D": "GBP",
  "F072.CLP.JPY.N.O.D": "JPY",
  "F072.CLP.CAD.N.O.D": "CAD",
  "F072.CLP.AUD.N.O.D": "AUD",
  "F072.CLP.CNY.N.O.D": "CNY",
  "F072.CLP.BRL.N.O.D": "BRL",
};

interface Obs {
  indexDateString?: unknown;
  value?: unknown;
  statusCode?: unknown;
}

const bcch: BankAdapter = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Bank of Chile", abbreviatedName: "BCCh" },
      { languageCode: "es", name: "Banco Central de Chile", abbreviatedName: "BCCh" },
    ],
    dailyUpdateTime: "13:00:00",
    bankCurrency: "CLP",
    countryCode: ["CL"],
    region: ["Americas"],
    timeZone: TIME_ZONE,
    website: "https://www.bcentral.cl",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "1984-01-02",
    maxRangeDays: 366,
    sourceUrl: ENDPOINT,
    credential: {
      env: "EXRATES_BCCH_API_KEY",
      description:
        "user:password of a registered account of the BDE web service (si3.bcentral.cl), user and password joined by a colon",
    },
  },

  async fetch(range, ctx) {
    const secret = credentialFrom(bcch, ctx);
    const colon = secret.indexOf(":");
    if (colon <= 0 || colon === secret.length - 1)
      throw new FeedError(ID, "needs EXRATES_BCCH_API_KEY in the form user:password");
    const user = encodeURIComponent(secret.slice(0, colon));
    const pass = encodeURIComponent(secret.slice(colon + 1));
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 10);
    const docs: FeedDocument[] = [];
    for (const series of Object.keys(BCCH_SERIES)) {
      const url = `${ENDPOINT}?user=${user}&pass=${pass}&function=GetSeries&timeseries=${series}&firstdate=${from}&lastdate=${to}`;
      docs.push(await ctx.http.get(url, { accept: "application/json" }));
    }
    return docs;
  },

  parse(body) {
    const json = parseJsonExact(ID, decodeText(ID, body)) as {
      Codigo?: unknown;
      Descripcion?: unknown;
      Series?: { seriesId?: unknown; Obs?: unknown };
    } | null;
    if (typeof json !== "object" || json === null || !("Codigo" in json))
      throw new FeedError(ID, "not a BDE answer: no Codigo");
    if (String(json.Codigo) !== "0")
      throw new FeedError(
        ID,
        `the service refused the request: ${String(json.Codigo)} ${String(json.Descripcion ?? "")}`.trim(),
      );
    const id = String(json.Series?.seriesId ?? "");
    const currency = BCCH_SERIES[id];
    if (!currency) throw new FeedError(ID, `unknown series "${id}"`);
    const records: RateRecord[] = [];
    for (const obs of asArray(json.Series!.Obs as Obs[])) {
      if (obs.statusCode !== "OK") continue;
      const date = typeof obs.indexDateString === "string" ? fromDayMonthYear(obs.indexDateString) : undefined;
      if (!date) throw new FeedError(ID, `${id}: indexDateString "${String(obs.indexDateString)}" is not DD-MM-YYYY`);
      const rate = typeof obs.value === "string" ? readDecimal(obs.value, { thousands: "," }) : undefined;
      if (rate === undefined)
        throw new FeedError(ID, `${id} on ${date}: value "${String(obs.value)}" is not a decimal`);
      records.push({ effectiveDate: date, currency, rate });
    }
    return records;
  },
});

export default bcch;
