// Bank Negara Malaysia: Kuala Lumpur interbank exchange rates of the 09:00 session from the BNM
// Open API (JSON). The official figure is `middle_rate`, MYR per `unit` units (Direct; unit 100 is
// kept as unitMultiplier 2). The server writes numbers as binary doubles ("4.2199999999999998"):
// the bank's digits are recovered exactly by rateFromFloatJson and flagged "float-recovered", since
// they are not the body's text. The latest answer lists every
// currency (`data` an array, `rate` an object); a currency-month answer has `data` an object and
// `rate` an array. SDR is the IMF's XDR.
import { rateFromFloatJson } from "../src/feed/float-json.js";
import {
  FeedError,
  asArray,
  decodeText,
  defineAdapter,
  isIsoDate,
  jsonNumberText,
  parseJsonExact,
  perUnits,
  type FeedDocument,
  type IsoDate,
  type RateRecord,
  pause,
} from "../src/feed/kit.js";

const ID = "BNM";
const API = "https://api.bnm.gov.my/public/exchange-rate";
const ACCEPT = "application/vnd.BNM.API.v1+json";
const SESSION = "0900";
const TIME_ZONE = "Asia/Kuala_Lumpur";

type Node = Record<string, unknown>;

const monthUrl = (currency: string, year: number, month: number) =>
  `${API}/${currency}/year/${year}/month/${month}?session=${SESSION}`;
/** The (year, month) pairs an inclusive range touches. */
function months(from: IsoDate, to: IsoDate): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let y = Number(from.slice(0, 4));
  let m = Number(from.slice(5, 7));
  const endY = Number(to.slice(0, 4));
  const endM = Number(to.slice(5, 7));
  while (y < endY || (y === endY && m <= endM)) {
    out.push([y, m]);
    if (++m > 12) [y, m] = [y + 1, 1];
  }
  return out;
}

function answer(body: Uint8Array): Node[] {
  const json = parseJsonExact(ID, decodeText(ID, body)) as Node;
  if (typeof json !== "object" || json === null || !("data" in json))
    throw new FeedError(ID, "not a BNM Open API answer: no data");
  const meta = json.meta as Node | undefined;
  if (meta && meta.quote !== undefined && meta.quote !== "rm")
    throw new FeedError(ID, `rates quoted as "${String(meta.quote)}", not in ringgit per foreign unit`);
  const data = asArray(json.data as Node | Node[]);
  if (data.some((d) => typeof d !== "object" || d === null))
    throw new FeedError(ID, "not a BNM exchange-rate answer: data holds non-objects");
  return data;
}

const bnm = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Bank of Malaysia", abbreviatedName: "BNM" },
      { languageCode: "ms", name: "Bank Negara Malaysia", abbreviatedName: "BNM" },
    ],
    // The 09:00 session snapshot of the Kuala Lumpur interbank market.
    dailyUpdateTime: "09:00:00",
    bankCurrency: "MYR",
    countryCode: ["MY"],
    region: ["Asia"],
    timeZone: TIME_ZONE,
    website: "https://www.bnm.gov.my",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "2014-01-02",
    maxRangeDays: 31,
    sourceUrl: `${API}?session=${SESSION}`,
  },

  async fetch(range, { http }) {
    const list = await http.get(`${API}?session=${SESSION}`, { accept: ACCEPT });
    if (range.kind === "latest") return [list];
    const currencies = answer(list.body).map((d) => String(d.currency_code ?? ""));
    if (currencies.some((c) => !/^[A-Z]{3}$/.test(c)))
      throw new FeedError(ID, "the currency list holds a malformed currency code");
    const docs: FeedDocument[] = [list];
    for (const currency of currencies) {
      for (const [year, month] of months(range.from, range.to)) {
        await pause(1000); // the API throttles: one call a second
        docs.push(await http.get(monthUrl(currency, year, month), { accept: ACCEPT }));
      }
    }
    return docs;
  },

  parse(body) {
    const out: RateRecord[] = [];
    for (const item of answer(body)) {
      const code = typeof item.currency_code === "string" ? item.currency_code : "";
      const currency = code === "SDR" ? "XDR" : code;
      if (!/^[A-Z]{3}$/.test(currency)) throw new FeedError(ID, `currency_code "${code}" is not a currency code`);
      const unit = jsonNumberText(item.unit);
      if (!unit || !/^[1-9]\d*$/.test(unit))
        throw new FeedError(ID, `${currency}: unit "${String(unit)}" is not a whole number`);
      const rates = asArray(item.rate as Node | Node[]);
      for (const r of rates) {
        if (typeof r !== "object" || r === null) throw new FeedError(ID, `${currency}: a rate is not an object`);
        const date = typeof r.date === "string" ? r.date : "";
        if (!isIsoDate(date)) throw new FeedError(ID, `${currency}: date "${String(r.date)}" is not a date`);
        if (r.middle_rate === null || r.middle_rate === undefined) continue; // no middle rate that session
        const raw = jsonNumberText(r.middle_rate);
        const read = raw === undefined ? undefined : rateFromFloatJson(raw);
        if (!read || read.rate.startsWith("-") || !/[1-9]/.test(read.rate))
          throw new FeedError(ID, `${currency} on ${date}: middle_rate "${String(raw)}" is not a positive number`);
        const derivation = read.derivation ? { derivation: read.derivation } : {};
        out.push({ effectiveDate: date, currency, ...derivation, ...perUnits(read.rate, unit) });
      }
    }
    return out;
  },
});

export default bnm;
