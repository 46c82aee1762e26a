// National Bank of Georgia: official lari rates from the NBG gateway API, one call per day.
// Endpoint: GET https://nbg.gov.ge/gw/api/ct/monetarypolicy/currencies/?date=YYYY-MM-DD.
// Format: JSON [{date, currencies:[{code, quantity, rate, rateFormated, name, validFromDate...}]}]; `rate`
// is a JSON number, `rateFormated` the bank's own four-decimal text (taken when present; both must be
// the same figure); [] for a date without a set.
// Quote: GEL per `quantity` units (Direct; 10, 100, 1000, 10000 kept as unitMultiplier). The answer holds
// the rate set IN FORCE on the requested date, dated by its own `date` (= validFromDate): the set fixed
// on a working day at about 17:00 Tbilisi time is valid from the next day, so the set fixed on Friday is
// dated Saturday and is still the one in force on Sunday and Monday. Effective dates therefore run
// Tuesday to Saturday, and asking for a Monday returns Saturday's set again (the same records).
// A currency whose code, quantity or figure cannot be read, or whose rate and rateFormated differ, is
// held (every currency of a set whose date does not exist too); an answer that is not an array of sets
// with currencies is refused.
import {
  AnswerRows,
  FeedError,
  addDays,
  asArray,
  defineAdapter,
  isIsoDate,
  jsonNumberText,
  parseJsonExact,
  perUnits,
  readDecimal,
  requireCurrencyCode,
  requireDate,
  requireDecimal,
  requireUnits,
  rowProblem,
  todayIn,
  weekday,
  type FeedDocument,
  type IsoDate,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "NBG";
const API = "https://nbg.gov.ge/gw/api/ct/monetarypolicy/currencies/";
const TIME_ZONE = "Asia/Tbilisi";

type Node = Record<string, unknown>;

const trimZeros = (d: string) => (d.includes(".") ? d.replace(/\.?0+$/, "") : d);

const dayUrl = (date: IsoDate) => `${API}?date=${date}`;

const nbg = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "National Bank of Georgia", abbreviatedName: "NBG" },
      { languageCode: "ka", name: "საქართველოს ეროვნული ბანკი", abbreviatedName: "სებ" },
    ],
    // The sets carry a creation time of about 17:00 on the working day before they take effect.
    dailyUpdateTime: "17:00:00",
    bankCurrency: "GEL",
    countryCode: ["GE"],
    region: ["Asia"],
    timeZone: TIME_ZONE,
    website: "https://nbg.gov.ge",
    quoteType: "Direct",
    // Published Monday to Friday, each list dated the next day (Friday's is dated Saturday): the scheduler
    // runs on the publication days; stored effective dates run Tuesday to Saturday.
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "2000-01-01",
    maxRangeDays: 31,
    sourceUrl: API,
  },

  async fetch(range, { http }) {
    const accept = "application/json";
    // Latest: today's set and tomorrow's, which is fixed in the late afternoon.
    const today = todayIn(TIME_ZONE);
    const days: IsoDate[] = [];
    if (range.kind === "latest") days.push(today, addDays(today, 1));
    else for (let d = range.from; d <= range.to; d = addDays(d, 1)) if (weekday(d) !== 7) days.push(d);
    const docs: FeedDocument[] = [];
    for (const day of days) docs.push(await http.get(dayUrl(day), { accept }));
    return docs;
  },

  parse(body) {
    const json = parseJsonExact(ID, body);
    if (!Array.isArray(json)) throw new FeedError(ID, "not an NBG currencies answer: no array");
    const rows = new AnswerRows(ID);
    for (const set of json as Node[]) {
      if (typeof set !== "object" || set === null || !Array.isArray(set.currencies))
        throw new FeedError(ID, "not an NBG currencies answer: a set without currencies");
      const date = typeof set.date === "string" ? set.date.slice(0, 10) : "";
      asArray(set.currencies as Node[]).forEach((c, i) => {
        const code = typeof c?.code === "string" ? c.code : "";
        if (c?.rate === null) return; // no rate for that currency
        const raw = jsonNumberText(c?.rate);
        rows.read(
          `set of ${date} currencies[${i}]`,
          (): RateRecord => {
            if (typeof c !== "object" || c === null) rowProblem(ID, "bad-row", "not an object");
            const effectiveDate = requireDate(ID, isIsoDate(date) ? date : undefined, String(set.date));
            const currency = requireCurrencyCode(ID, code);
            const value = requireDecimal(ID, raw, `rate of ${code}`);
            if (!/[1-9]/.test(value)) rowProblem(ID, "bad-rate", `${code}: a zero is no rate`);
            // rateFormated is the bank's own rendering (four decimals); it must be the same figure.
            const formatted = typeof c.rateFormated === "string" ? readDecimal(c.rateFormated) : undefined;
            if (typeof c.rateFormated === "string" && (!formatted || trimZeros(formatted) !== trimZeros(value)))
              rowProblem(ID, "conflict", `${code}: rate ${value} and rateFormated "${c.rateFormated}" differ`);
            const quantity = requireUnits(ID, jsonNumberText(c.quantity) ?? String(c.quantity), `${code} quantity`);
            return { effectiveDate, currency, ...perUnits(formatted ?? value, quantity) };
          },
          { effectiveDate: date, currency: code, rate: raw ?? "" },
        );
      });
    }
    return rows.result();
  },
});

export default nbg;
