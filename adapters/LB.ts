// Bank of Lithuania (Lietuvos bankas): the official exchange rates of the litas, one call per day.
// Endpoint: GET https://www.lb.lt/webservices/FxRates/FxRates.asmx/getFxRates?dt=YYYY-MM-DD&tp=LT.
// Format: XML <FxRates><FxRate><Tp>LT</Tp><Dt>date</Dt><CcyAmt>(LTL amount)</CcyAmt><CcyAmt>(foreign
// amount)</CcyAmt></FxRate>...; an empty <FxRates/> on a day without rates; <OprlErr> on an error.
// Quote: LTL per N foreign units (Direct), N = 1, 10, 100 ... the foreign amount, kept as unitMultiplier.
// Rates were set on working days, in the afternoon. The litas was replaced by the euro on 1 January 2015,
// from when the same service (tp=EU) gives 1 EUR = X foreign: a different base currency, which this LTL
// source does not mix in; it is a historical-only source.
// A rate whose date, code, amounts or unit cannot be read is held; an answer with no litas (LT) rate at
// all (a euro table, another service) is refused.
import {
  AnswerRows,
  FeedError,
  addDays,
  asArray,
  decodeText,
  defineAdapter,
  isIsoDate,
  noPublication,
  parseXml,
  perUnits,
  requireCurrencyCode,
  requireDate,
  requireDecimal,
  requireUnits,
  rowProblem,
  weekday,
  type FeedDocument,
  type IsoDate,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "LB";
const ENDPOINT = "https://www.lb.lt/webservices/FxRates/FxRates.asmx/getFxRates";
const LAST_LITAS_DAY = "2014-12-31";

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
    coverageEnd: "2014-12-31",
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
    if (typeof root !== "object") return noPublication("an empty <FxRates/>: no rates that day");
    if (root.OprlErr !== undefined)
      throw new FeedError(ID, `the service reports an error: ${JSON.stringify(root.OprlErr).slice(0, 200)}`);
    const rates = asArray(root.FxRate as Node[]);
    const typeOf = (fx: Node) => (typeof fx.Tp === "string" ? fx.Tp : "");
    if (rates.length > 0 && !rates.some((fx) => typeOf(fx) === "LT"))
      throw new FeedError(
        ID,
        `type "${typeOf(rates[0]!)}" is not the litas table LT (euro-based rates are not litas rates)`,
      );
    const rows = new AnswerRows(ID);
    rates.forEach((fx, i) => {
      const date = typeof fx.Dt === "string" ? fx.Dt : "";
      const amounts = asArray(fx.CcyAmt as Node[]);
      const text = (x: unknown) => (typeof x === "string" ? x : "");
      const currency = text(amounts[1]?.Ccy);
      rows.read(
        `FxRate ${i + 1}`,
        (): RateRecord => {
          if (typeOf(fx) !== "LT") rowProblem(ID, "bad-row", `type "${typeOf(fx)}" is not the litas table LT`);
          if (amounts.length !== 2 || amounts[0]!.Ccy !== "LTL")
            rowProblem(ID, "bad-row", "expected an LTL amount and a foreign amount");
          const effectiveDate = requireDate(ID, isIsoDate(date) ? date : undefined, date);
          const code = requireCurrencyCode(ID, currency);
          const litas = requireDecimal(ID, amounts[0]!.Amt, `${currency} of ${date} LTL amount`);
          const units = requireUnits(ID, amounts[1]!.Amt, `${currency} of ${date} amount`);
          return { effectiveDate, currency: code, ...perUnits(litas, units) };
        },
        { effectiveDate: date, currency, rate: text(amounts[0]?.Amt) },
      );
    });
    return rows.result();
  },
});

export default lb;
