// National Bank of the Republic of Belarus: official rates of the Belarusian rouble from the NBRB
// API (JSON). BYN per Cur_Scale units (Direct; powers of ten kept as unitMultiplier).
// rates?periodicity=0 is the day's list with code and scale. rates/dynamics/{Cur_ID} is one
// currency's history and carries neither code nor scale: both come from the table below, keyed by
// the NBRB's internal Cur_ID, which the bank re-issues whenever a currency's scale or code changes
// (so an id's scale is fixed). The day's list is checked against the table. The bank also dates
// the Friday rates for Saturday and Sunday; those weekend rows are dropped (Monday to Friday only).
import {
  FeedError,
  decodeText,
  defineAdapter,
  isIsoDate,
  jsonNumberText,
  parseJsonExact,
  perUnits,
  readDecimal,
  weekday,
  type FeedDocument,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "NBRB";
const API = "https://api.nbrb.by/exrates";
const TIME_ZONE = "Europe/Minsk";

/** Cur_ID to ISO code and scale (units per quote), as the API lists them since the 2016 redenomination. */
export const NBRB_CURRENCIES: Readonly<Record<string, { currency: string; scale: number }>> = {
  "440": { currency: "AUD", scale: 1 },
  "510": { currency: "AMD", scale: 1000 },
  "514": { currency: "BRL", scale: 10 },
  "449": { currency: "UAH", scale: 100 },
  "450": { currency: "DKK", scale: 10 },
  "513": { currency: "AED", scale: 10 },
  "431": { currency: "USD", scale: 1 },
  "512": { currency: "VND", scale: 100000 },
  "451": { currency: "EUR", scale: 1 },
  "452": { currency: "PLN", scale: 10 },
  "508": { currency: "JPY", scale: 100 },
  "511": { currency: "INR", scale: 100 },
  "461": { currency: "IRR", scale: 100000 },
  "453": { currency: "ISK", scale: 100 },
  "371": { currency: "CAD", scale: 1 },
  "462": { currency: "CNY", scale: 10 },
  "394": { currency: "KWD", scale: 1 },
  "454": { currency: "MDL", scale: 10 },
  "448": { currency: "NZD", scale: 1 },
  "455": { currency: "NOK", scale: 10 },
  "456": { currency: "RUB", scale: 100 },
  "457": { currency: "XDR", scale: 1 },
  "421": { currency: "SGD", scale: 1 },
  "458": { currency: "KGS", scale: 100 },
  "459": { currency: "KZT", scale: 1000 },
  "460": { currency: "TRY", scale: 10 },
  "429": { currency: "GBP", scale: 1 },
  "463": { currency: "CZK", scale: 100 },
  "464": { currency: "SEK", scale: 10 },
  "426": { currency: "CHF", scale: 1 },
};

type Node = Record<string, unknown>;

function rows(body: Uint8Array): Node[] {
  const json = parseJsonExact(ID, decodeText(ID, body));
  if (!Array.isArray(json)) throw new FeedError(ID, "not an NBRB rates answer: no array");
  if (json.some((r) => typeof r !== "object" || r === null))
    throw new FeedError(ID, "not an NBRB rates answer: an entry is not an object");
  return json as Node[];
}

const nbrb = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "National Bank of the Republic of Belarus", abbreviatedName: "NBRB" },
      { languageCode: "be", name: "Нацыянальны банк Рэспублікі Беларусь", abbreviatedName: "НБРБ" },
      { languageCode: "ru", name: "Национальный банк Республики Беларусь", abbreviatedName: "НБРБ" },
    ],
    dailyUpdateTime: "12:00:00",
    bankCurrency: "BYN",
    countryCode: ["BY"],
    region: ["Europe"],
    timeZone: TIME_ZONE,
    website: "https://www.nbrb.by",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    // The BYN and the current currency ids start with the redenomination of 1 July 2016.
    coverageStart: "2016-07-01",
    maxRangeDays: 365,
    sourceUrl: `${API}/rates?periodicity=0`,
  },

  async fetch(range, { http }) {
    const accept = "application/json";
    const list = await http.get(`${API}/rates?periodicity=0`, { accept });
    if (range.kind === "latest") return [list];
    const ids = rows(list.body)
      .map((r) => String(jsonNumberText(r.Cur_ID) ?? ""))
      .filter((id) => id in NBRB_CURRENCIES);
    const docs: FeedDocument[] = [list];
    for (const id of ids) {
      docs.push(await http.get(`${API}/rates/dynamics/${id}?startDate=${range.from}&endDate=${range.to}`, { accept }));
    }
    return docs;
  },

  parse(body) {
    const out: RateRecord[] = [];
    rows(body).forEach((r, i) => {
      const curId = String(jsonNumberText(r.Cur_ID) ?? "");
      const known = NBRB_CURRENCIES[curId];
      const where = `entry ${i} (Cur_ID ${curId})`;
      let currency: string;
      let scale: string;
      if (r.Cur_Abbreviation !== undefined || r.Cur_Scale !== undefined) {
        // The day's list: code and scale are in the row; a known id must agree with the table.
        currency = typeof r.Cur_Abbreviation === "string" ? r.Cur_Abbreviation : "";
        scale = String(jsonNumberText(r.Cur_Scale) ?? "");
        if (known && (known.currency !== currency || String(known.scale) !== scale)) {
          throw new FeedError(
            ID,
            `${where}: the list says ${scale} ${currency}, the id table ${known.scale} ${known.currency}`,
          );
        }
      } else {
        if (!known) throw new FeedError(ID, `${where}: unknown currency id in a dynamics answer`);
        currency = known.currency;
        scale = String(known.scale);
      }
      if (!/^[A-Z]{3}$/.test(currency)) throw new FeedError(ID, `${where}: "${currency}" is not a currency code`);
      if (!/^[1-9]\d*$/.test(scale)) throw new FeedError(ID, `${where}: scale "${scale}" is not a whole number`);
      const date = typeof r.Date === "string" ? r.Date.slice(0, 10) : "";
      if (!isIsoDate(date)) throw new FeedError(ID, `${where}: Date "${String(r.Date)}" is not a date`);
      if (weekday(date) > 5) return; // the Friday rate dated Saturday and Sunday
      if (r.Cur_OfficialRate === null) return; // no rate set that day
      const raw = jsonNumberText(r.Cur_OfficialRate);
      const rate = raw === undefined ? undefined : readDecimal(raw);
      if (!rate || !/[1-9]/.test(rate))
        throw new FeedError(ID, `${where}: Cur_OfficialRate "${String(raw)}" is not a positive decimal`);
      out.push({ effectiveDate: date, currency, ...perUnits(rate, scale) });
    });
    return out;
  },
});

export default nbrb;
