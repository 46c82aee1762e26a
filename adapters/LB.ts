// Bank of Lithuania (Lietuvos bankas): the official exchange rates of the litas, as XML, one call per day.
// Until 31 December 2014 (tp=LT) each FxRate holds two CcyAmt blocks: an LTL amount and the foreign amount it buys
// (1, 10, 100 … units, kept as unitMultiplier), so LTL per N foreign units (Direct). The litas was replaced by the
// euro on 1 January 2015, from when the same service (tp=EU) gives 1 EUR = X foreign: a different base currency,
// which this LTL source does not mix in; it is a historical-only source.
import {
  FeedError,
  addDays,
  asArray,
  decodeText,
  defineAdapter,
  isIsoDate,
  parseXml,
  perUnits,
  requireDecimal,
  weekday,
  type FeedDocument,
  type IsoDate,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "LB";
const ENDPOINT = "https://www.lb.lt/webservices/FxRates/FxRates.asmx/getFxRates";
const LAST_LITAS_DAY = "2014-12-31";
const CODE = /^[A-Z]{3}$/;

type Node = Record<string, unknown>;

const lb = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Bank of Lithuania", abbreviatedName: "LB" },
      { languageCode: "lt", name: "Lietuvos bankas", abbreviatedName: "LB" },
    ],
    dailyUpdateTime: "16:00:00",
    bankCurrency: "LTL",
    countryCode: ["LT"],
    region: ["Europe"],
    timeZone: "Europe/Vilnius",
    website: "https://www.lb.lt",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "1993-06-25",
    maxRangeDays: 31,
    sourceUrl: `${ENDPOINT}?tp=LT`,
    historicalOnly: true,
  },

  // One call per weekday; nothing after the litas' last day.
  async fetch(range, { http }) {
    const { from, to } = range.kind === "range" ? range : { from: "2014-12-29", to: LAST_LITAS_DAY };
    const last = to < LAST_LITAS_DAY ? to : LAST_LITAS_DAY;
    const docs: FeedDocument[] = [];
    for (let day: IsoDate = from; day <= last; day = addDays(day, 1)) {
      if (weekday(day) > 5) continue;
      docs.push(await http.get(`${ENDPOINT}?dt=${day}&tp=LT`, { accept: "application/xml, text/xml" }));
    }
    return docs;
  },

  parse(body) {
    const doc = parseXml(ID, decodeText(ID, body));
    const root = doc.FxRates as Node | string | undefined;
    if (root === undefined) throw new FeedError(ID, "not a getFxRates answer: no FxRates root");
    if (typeof root !== "object") return []; // <FxRates/>: no rates that day
    if (root.OprlErr !== undefined)
      throw new FeedError(ID, `the service reports an error: ${JSON.stringify(root.OprlErr).slice(0, 200)}`);
    return asArray(root.FxRate as Node[]).map((fx, i): RateRecord => {
      const type = String(fx.Tp ?? "");
      if (type !== "LT")
        throw new FeedError(
          ID,
          `FxRate ${i}: type "${type}" is not the litas table LT (euro-based rates are not litas rates)`,
        );
      const date = String(fx.Dt ?? "");
      if (!isIsoDate(date)) throw new FeedError(ID, `FxRate ${i}: Dt "${date}" is not a date`);
      const amounts = asArray(fx.CcyAmt as Node[]);
      if (amounts.length !== 2 || amounts[0]!.Ccy !== "LTL")
        throw new FeedError(ID, `FxRate ${i} of ${date}: expected an LTL amount and a foreign amount`);
      const currency = String(amounts[1]!.Ccy ?? "");
      if (!CODE.test(currency) || currency === "LTL")
        throw new FeedError(ID, `FxRate ${i} of ${date}: Ccy "${currency}" is not a foreign currency code`);
      const litas = requireDecimal(ID, amounts[0]!.Amt, `${currency} of ${date} LTL amount`);
      const units = requireDecimal(ID, amounts[1]!.Amt, `${currency} of ${date} amount`);
      if (!/^[1-9]\d*$/.test(units))
        throw new FeedError(ID, `${currency} of ${date}: amount "${units}" is not a whole number of units`);
      return { effectiveDate: date, currency, ...perUnits(litas, units) };
    });
  },
});

export default lb;
