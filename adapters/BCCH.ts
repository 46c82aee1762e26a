// Central Bank of Chile: daily exchange rates from the BDE web service (SieteRestWS), one call per series.
// - Endpoint: GET https://si3.bcentral.cl/SieteRestWS/SieteRestWS.ashx?user=…&pass=…&function=GetSeries
//   &timeseries=<series id>&firstdate=YYYY-MM-DD&lastdate=YYYY-MM-DD. The service needs a registered user
//   and password as query parameters: one credential holding "user:password" (split at the first colon, so
//   the e-mail user name cannot contain one).
// - The answer is JSON `{ Codigo, Descripcion, Series: { seriesId, Obs: [{ indexDateString, value,
//   statusCode }] } }`. Codigo 0 is success; anything else (-5 "Invalid username or password") is a refusal.
//   Dates are DD-MM-YYYY; values are strings with comma thousands separators ("1,001.50").
// - Observations whose statusCode is not "OK" (weekends and holidays, value "NaN", status "ND") are days
//   without a figure: skipped.
// - CLP per 1 unit (Direct); USD is the "dólar observado" (F073.TCO.PRE.Z.D), the other series
//   (F072.CLP.<code>.N.O.D) are the peso's rates against the currencies below.
// - The observed dollar is published around 13:00 Santiago time on banking days.
import {
  AnswerRows,
  FeedError,
  asArray,
  credentialFrom,
  defineAdapter,
  fromDayMonthYear,
  parseJsonExact,
  recentDays,
  requireDate,
  requireDecimal,
  rowProblem,
  type BankAdapter,
  type FeedDocument,
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
    const json = parseJsonExact(ID, body) as {
      Codigo?: unknown;
      Descripcion?: unknown;
      Series?: { seriesId?: unknown; Obs?: unknown };
    } | null;
    if (typeof json !== "object" || json === null || !("Codigo" in json))
      throw new FeedError(ID, "not a BDE answer: no Codigo");
    if (String(json.Codigo) !== "0")
      throw new FeedError(
        ID,
        `the service refused the request: ${String(json.Codigo)} ${typeof json.Descripcion === "string" ? json.Descripcion : ""}`.trim(),
      );
    const series = json.Series;
    if (typeof series !== "object" || series === null || !("seriesId" in series)) {
      throw new FeedError(ID, "the layout changed: no Series.seriesId");
    }
    const id = typeof series.seriesId === "string" ? series.seriesId : JSON.stringify(series.seriesId);
    const currency = BCCH_SERIES[id];
    const rows = new AnswerRows(ID);
    asArray(series.Obs as unknown[]).forEach((item, i) => {
      const obs = (typeof item === "object" && item !== null ? item : {}) as Obs;
      if (obs.statusCode !== "OK") return; // a day without a figure
      const day = String(obs.indexDateString);
      const raw = typeof obs.value === "string" ? obs.value : String(obs.value);
      rows.read(
        `${id} Obs[${i}]`,
        () => {
          if (!currency) rowProblem(ID, "unknown-currency", `series "${id}" is not one of the series asked for`);
          const date = requireDate(ID, fromDayMonthYear(day), day);
          return { effectiveDate: date, currency, rate: requireDecimal(ID, raw, `${id} value`, { thousands: "," }) };
        },
        { effectiveDate: day, currency: id, rate: raw },
      );
    });
    return rows.result();
  },
});

export default bcch;
