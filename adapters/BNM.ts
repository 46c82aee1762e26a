// Bank Negara Malaysia: the Kuala Lumpur interbank exchange rates of the 09:00 session, from the BNM
// Open API (https://api.bnm.gov.my/public/exchange-rate, Accept application/vnd.BNM.API.v1+json).
// - Fetch: the latest is `?session=0900` (every currency, `data` an array, `rate` an object); a range
//   reads that list for the currencies, then `/{CUR}/year/{Y}/month/{M}?session=0900` per currency and
//   month (`data` an object, `rate` an array). The API throttles: one call a second.
// - Figures: `middle_rate`, MYR per `unit` units (Direct; unit 100 kept as unitMultiplier 2);
//   `meta.quote` "rm" says so (another quote refuses the answer). A null middle rate is a session
//   without one. SDR is the IMF's XDR.
// - The server writes numbers as binary doubles ("4.2199999999999998"): the bank's digits are
//   recovered exactly (rateFromFloatJson) and flagged "float-recovered", since they are not the text.
// - Published on business days after the 09:00 Kuala Lumpur session.
import { rateFromFloatJson } from "../src/feed/float-json.js";
import {
  AnswerRows,
  FeedError,
  asArray,
  defineAdapter,
  isIsoDate,
  jsonNumberText,
  parseJsonExact,
  pause,
  perUnits,
  requireCurrencyCode,
  requireDate,
  requireUnits,
  rowProblem,
  type FeedDocument,
  type IsoDate,
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
  const json = parseJsonExact(ID, body) as Node;
  if (typeof json !== "object" || json === null || !("data" in json))
    throw new FeedError(ID, "not a BNM Open API answer: no data");
  const meta = json.meta as Node | undefined;
  if (meta && meta.quote !== undefined && meta.quote !== "rm")
    throw new FeedError(ID, `rates quoted as ${JSON.stringify(meta.quote)}, not in ringgit per foreign unit`);
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
    // A listed entry without a code cannot be asked for; a list where none has one is not the list.
    const listed = answer(list.body).map((d) => (typeof d.currency_code === "string" ? d.currency_code : ""));
    const currencies = listed.filter((c) => /^[A-Z]{3}$/.test(c));
    if (listed.length > 0 && currencies.length === 0)
      throw new FeedError(ID, "the currency list holds no currency code");
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
    const rows = new AnswerRows(ID);
    answer(body).forEach((item, i) => {
      const code = typeof item.currency_code === "string" ? item.currency_code : String(item.currency_code);
      const unit = jsonNumberText(item.unit);
      asArray(item.rate as Node | Node[]).forEach((r, k) => {
        const source = `data[${i}].rate${Array.isArray(item.rate) ? `[${k}]` : ""}`;
        if (typeof r !== "object" || r === null)
          return rows.hold(source, "bad-row", `${code}: a rate is not an object`);
        const day = typeof r.date === "string" ? r.date : String(r.date);
        const raw = jsonNumberText(r.middle_rate);
        rows.read(
          source,
          () => {
            if (r.middle_rate === null || r.middle_rate === undefined) return undefined; // no middle rate that session
            const currency = requireCurrencyCode(ID, code === "SDR" ? "XDR" : code);
            const date = requireDate(ID, isIsoDate(day) ? day : undefined, day);
            const units = requireUnits(ID, unit, `${currency} unit`);
            const read = raw === undefined ? undefined : rateFromFloatJson(raw);
            if (!read || read.rate.startsWith("-") || !/[1-9]/.test(read.rate))
              rowProblem(
                ID,
                "bad-rate",
                `${currency} on ${date}: middle_rate "${String(raw)}" is not a positive number`,
              );
            const derivation = read.derivation ? { derivation: read.derivation } : {};
            return { effectiveDate: date, currency, ...derivation, ...perUnits(read.rate, units) };
          },
          { effectiveDate: day, currency: code, rate: raw },
        );
      });
    });
    return rows.result();
  },
});

export default bnm;
