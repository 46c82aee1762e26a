// National Bank of the Republic of Belarus: official rates of the Belarusian rouble from the NBRB
// API (JSON). BYN per Cur_Scale units (Direct; powers of ten kept as unitMultiplier), set daily at
// about 12:00 Minsk time on working days.
// - rates?periodicity=0 is the day's list: [{Cur_ID, Date, Cur_Abbreviation, Cur_Scale, Cur_OfficialRate}].
// - rates/dynamics/{Cur_ID}?startDate=&endDate= is one currency's history, [{Cur_ID, Date,
//   Cur_OfficialRate}], without code or scale: both come from the table below, keyed by the NBRB's
//   internal Cur_ID, which the bank re-issues whenever a currency's scale or code changes (so an id's
//   scale is fixed). A list row whose code or scale disagrees with the table, or a dynamics row of an
//   id the table lacks, is held: its unit or currency cannot be established.
// The bank also dates the Friday rates for Saturday and Sunday; those weekend carry-overs are skipped
// (Monday to Friday only). A null Cur_OfficialRate is a day without a rate, skipped.
import {
  AnswerRows,
  FeedError,
  defineAdapter,
  isIsoDate,
  jsonNumberText,
  parseJsonExact,
  perUnits,
  requireCurrencyCode,
  requireDate,
  requireDecimal,
  requireUnits,
  rowProblem,
  weekday,
  type FeedDocument,
  type RowFields,
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

/** What a field said, as text (numbers with their digits); undefined when absent. */
const raw = (x: unknown) =>
  x === undefined || x === null ? undefined : typeof x === "string" ? x : (jsonNumberText(x) ?? JSON.stringify(x));

function entries(body: Uint8Array): Node[] {
  const json = parseJsonExact(ID, body);
  if (!Array.isArray(json)) throw new FeedError(ID, "not an NBRB rates answer: no array");
  if (json.some((r) => typeof r !== "object" || r === null || !("Cur_ID" in r) || !("Cur_OfficialRate" in r)))
    throw new FeedError(ID, "not an NBRB rates answer: an entry without Cur_ID and Cur_OfficialRate");
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
    const ids = entries(list.body)
      .map((r) => String(jsonNumberText(r.Cur_ID) ?? ""))
      .filter((id) => id in NBRB_CURRENCIES);
    const docs: FeedDocument[] = [list];
    for (const id of ids) {
      docs.push(await http.get(`${API}/rates/dynamics/${id}?startDate=${range.from}&endDate=${range.to}`, { accept }));
    }
    return docs;
  },

  parse(body) {
    const rows = new AnswerRows(ID);
    for (const [i, r] of entries(body).entries()) {
      const curId = String(jsonNumberText(r.Cur_ID) ?? "");
      const fields: RowFields = {
        effectiveDate: raw(r.Date),
        currency: raw(r.Cur_Abbreviation) ?? `Cur_ID ${curId}`,
        rate: raw(r.Cur_OfficialRate),
      };
      rows.read(
        `entry ${i + 1} (Cur_ID ${curId})`,
        () => {
          const rawDate = raw(r.Date) ?? "";
          const date = requireDate(ID, isIsoDate(rawDate.slice(0, 10)) ? rawDate.slice(0, 10) : undefined, rawDate);
          if (weekday(date) > 5) return undefined; // the Friday rate dated Saturday and Sunday
          if (r.Cur_OfficialRate === null) return undefined; // no rate set that day
          const known = NBRB_CURRENCIES[curId];
          let currency: string;
          let scale: string;
          if (r.Cur_Abbreviation !== undefined || r.Cur_Scale !== undefined) {
            // The day's list: code and scale are in the row; a known id must agree with the table.
            currency = requireCurrencyCode(ID, typeof r.Cur_Abbreviation === "string" ? r.Cur_Abbreviation : "");
            scale = requireUnits(ID, jsonNumberText(r.Cur_Scale), "Cur_Scale");
            if (known && known.currency !== currency)
              rowProblem(
                ID,
                "unknown-currency",
                `the list says ${currency}, the id table ${known.currency} for Cur_ID ${curId}`,
              );
            if (known && String(known.scale) !== scale)
              rowProblem(
                ID,
                "unknown-unit",
                `the list says ${scale} ${currency}, the id table ${known.scale} for Cur_ID ${curId}`,
              );
          } else {
            if (!known)
              rowProblem(ID, "unknown-currency", `Cur_ID ${curId} of a dynamics answer is not in the id table`);
            currency = known.currency;
            scale = String(known.scale);
          }
          const rate = requireDecimal(ID, jsonNumberText(r.Cur_OfficialRate), `${currency} Cur_OfficialRate`);
          return { effectiveDate: date, currency, ...perUnits(rate, scale) };
        },
        fields,
      );
    }
    return rows.result();
  },
});

export default nbrb;
