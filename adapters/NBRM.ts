// National Bank of the Republic of North Macedonia: the exchange rate list (курсна листа) from the
// KLServiceNOV JSON service: GetExchangeRate?StartDate=DD.MM.YYYY&EndDate=DD.MM.YYYY&format=json, at
// most 90 days per call, answered as one JSON array of rows. The official figure is `sreden` (middle
// rate), MKD per `nomin` units (Direct; 100 JPY kept as unitMultiplier 2). Fields are Macedonian
// (oznaka = code, datum = date of validity, datum_f = date the list was formed; names in nazivMak,
// nazivAng, nazivAl). The list is valid every calendar day: a weekend day carries the list formed on
// the Friday, and the bank publishes it as that day's rate, so every row is taken. A MKD row, if
// any, is the denar against itself and is skipped. The list is formed about noon Skopje time.
import {
  AnswerRows,
  FeedError,
  defineAdapter,
  isIsoDate,
  jsonNumberText,
  parseJsonExact,
  perUnits,
  recentDays,
  requireCurrencyCode,
  requireDate,
  requireDecimal,
  requireUnits,
  type IsoDate,
} from "../src/feed/kit.js";

const ID = "NBRM";
const ENDPOINT = "https://www.nbrm.mk/KLServiceNOV/GetExchangeRate";
const TIME_ZONE = "Europe/Skopje";

type Node = Record<string, unknown>;

/** What a field said, as text (numbers with their digits); undefined when absent. */
const raw = (x: unknown) =>
  x === undefined || x === null ? undefined : typeof x === "string" ? x : (jsonNumberText(x) ?? JSON.stringify(x));

const ddmmyyyy = (date: IsoDate) => `${date.slice(8, 10)}.${date.slice(5, 7)}.${date.slice(0, 4)}`;

const nbrm = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "National Bank of the Republic of North Macedonia", abbreviatedName: "NBRNM" },
      { languageCode: "mk", name: "Народна банка на Република Северна Македонија", abbreviatedName: "НБРСМ" },
    ],
    dailyUpdateTime: "12:00:00",
    bankCurrency: "MKD",
    countryCode: ["MK"],
    region: ["Europe"],
    timeZone: TIME_ZONE,
    website: "https://www.nbrm.mk",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5, 6, 7],
    coverageStart: "2000-01-01",
    maxRangeDays: 90,
    sourceUrl: `${ENDPOINT}?format=json`,
  },

  async fetch(range, { http }) {
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 7);
    return [
      await http.get(`${ENDPOINT}?StartDate=${ddmmyyyy(from)}&EndDate=${ddmmyyyy(to)}&format=json`, {
        accept: "application/json",
      }),
    ];
  },

  parse(body) {
    const json = parseJsonExact(ID, body);
    if (!Array.isArray(json)) throw new FeedError(ID, "not an NBRM exchange-rate answer: no array");
    const rows = new AnswerRows(ID);
    for (const [i, row] of (json as unknown[]).entries()) {
      if (typeof row !== "object" || row === null || !("oznaka" in row) || !("datum" in row))
        throw new FeedError(ID, `not an NBRM exchange-rate answer: entry ${i + 1} has no oznaka and datum`);
      const r = row as Node;
      rows.read(
        `entry ${i + 1}`,
        () => {
          const currency = requireCurrencyCode(ID, typeof r.oznaka === "string" ? r.oznaka : "");
          if (currency === "MKD") return undefined; // the denar itself
          const rawDate = raw(r.datum) ?? "";
          const date = requireDate(ID, isIsoDate(rawDate.slice(0, 10)) ? rawDate.slice(0, 10) : undefined, rawDate);
          const rate = requireDecimal(ID, jsonNumberText(r.sreden), `${currency} sreden`);
          const nomin = requireUnits(ID, jsonNumberText(r.nomin), `${currency} nomin`);
          return { effectiveDate: date, currency, ...perUnits(rate, nomin) };
        },
        { effectiveDate: raw(r.datum), currency: raw(r.oznaka), rate: raw(r.sreden) },
      );
    }
    return rows.result();
  },
});

export default nbrm;
