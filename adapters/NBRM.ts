// National Bank of the Republic of North Macedonia: the exchange rate list (курсна листа) from the
// KLServiceNOV JSON service, 90 days per call. The official figure is `sreden` (middle rate), MKD per
// `nomin` units (Direct). Fields are Macedonian (oznaka = code, datum = date of validity, datum_f =
// date the list was formed). The list is valid every calendar day: a weekend day carries the list
// formed on the Friday, and the bank publishes it as that day's rate. A MKD row, if any, is dropped.
import {
  FeedError,
  decodeText,
  defineAdapter,
  isIsoDate,
  jsonNumberText,
  parseJsonExact,
  perUnits,
  readDecimal,
  recentDays,
  type IsoDate,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "NBRM";
const ENDPOINT = "https://www.nbrm.mk/KLServiceNOV/GetExchangeRate";
const TIME_ZONE = "Europe/Skopje";

type Node = Record<string, unknown>;

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
    const json = parseJsonExact(ID, decodeText(ID, body));
    if (!Array.isArray(json)) throw new FeedError(ID, "not an NBRM exchange-rate answer: no array");
    const out: RateRecord[] = [];
    (json as Node[]).forEach((row, i) => {
      if (typeof row !== "object" || row === null) throw new FeedError(ID, `entry ${i} is not an object`);
      const currency = typeof row.oznaka === "string" ? row.oznaka.trim() : "";
      if (!/^[A-Z]{3}$/.test(currency))
        throw new FeedError(ID, `entry ${i}: oznaka "${String(row.oznaka)}" is not a currency code`);
      if (currency === "MKD") return;
      const date = typeof row.datum === "string" ? row.datum.slice(0, 10) : "";
      if (!isIsoDate(date)) throw new FeedError(ID, `${currency}: datum "${String(row.datum)}" is not a date`);
      const raw = jsonNumberText(row.sreden);
      const rate = raw === undefined ? undefined : readDecimal(raw);
      if (!rate || !/[1-9]/.test(rate))
        throw new FeedError(ID, `${currency} on ${date}: sreden "${String(raw)}" is not a positive decimal`);
      const nomin = jsonNumberText(row.nomin);
      if (!nomin || !/^[1-9]\d*$/.test(nomin))
        throw new FeedError(ID, `${currency} on ${date}: nomin "${String(nomin)}" is not a whole number`);
      out.push({ effectiveDate: date, currency, ...perUnits(rate, nomin) });
    });
    return out;
  },
});

export default nbrm;
