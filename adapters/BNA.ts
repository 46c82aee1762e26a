// Banco Nacional de Angola: the reference rates of the kwanza from the bank's REST service
// (https://www.bna.ao/service/rest/taxas/get), as JSON {success, genericResponse}.
// - Fetch: the currency list first (lista/moedas: idMoeda, designacaoMoeda, codigoMoeda), then one
//   call per listed currency: evolucao/taxa/intervalo?datafim=&datainicio=&moeda=&tipocambio=M
//   (YYYY-MM-DD dates). Parameter names must be lower case: mixed case fails with
//   "datainicio 'null' inválida". The list is read only to build the calls (navigation).
// - Figures: `taxa` is the mid reference rate (tipocambio M), AOA per 1 foreign unit (Direct), a JSON
//   number kept with its digits; `data` is YYYY-MM-DD. A 0 or empty taxa is a day without a figure.
// - Left out on purpose: XDRUSD (a cross rate, USD per SDR, not a kwanza rate), XAU (its unit is not
//   stated and is inconsistent), and VEF, whose values (about 1.79 AOA in May 2026, ~510 per USD) are
//   those of the bolívar soberano (VES) under the code of the bolívar fuerte it replaced in 2018 at
//   100,000 to 1: the code does not say which bolívar a figure is in, so none is published.
// - Published on business days, checked from 16:00 Luanda time.
import {
  AnswerRows,
  FeedError,
  defineAdapter,
  isIsoDate,
  jsonNumberText,
  noPublication,
  parseJsonExact,
  recentDays,
  requireCurrencyCode,
  requireDate,
  requireDecimal,
  type FeedDocument,
} from "../src/feed/kit.js";

const ID = "BNA";
const SERVICE = "https://www.bna.ao/service/rest/taxas/get";
const LIST_URL = `${SERVICE}/lista/moedas`;
const TIME_ZONE = "Africa/Luanda";
export const BNA_EXCLUDED = new Set(["AOA", "XDRUSD", "XAU", "VEF"]);

interface BnaAnswer {
  success?: unknown;
  genericResponse?: unknown;
}
interface BnaRate {
  taxa?: unknown;
  tipoCambio?: unknown;
  data?: unknown;
  codigoMoeda?: unknown;
}

function answerOf(body: Uint8Array): unknown[] {
  const json = parseJsonExact(ID, body) as BnaAnswer;
  if (typeof json !== "object" || json === null || Array.isArray(json) || !("genericResponse" in json)) {
    throw new FeedError(ID, "not a BNA answer: no genericResponse");
  }
  if (json.success !== true) throw new FeedError(ID, `the service reports success=${String(json.success)}`);
  if (!Array.isArray(json.genericResponse)) throw new FeedError(ID, "genericResponse is not an array");
  return json.genericResponse;
}

/**
 * The currency codes of a lista/moedas answer, without the excluded ones. An entry without a code is
 * not asked for; a list where no entry has one is not the list.
 */
export function bnaCurrencies(body: Uint8Array): string[] {
  const codes = answerOf(body).map((m) => {
    const code = (m as { codigoMoeda?: unknown } | null)?.codigoMoeda;
    return typeof code === "string" ? code.trim() : "";
  });
  const valid = codes.filter((code) => /^[A-Z]{3,6}$/.test(code));
  if (codes.length > 0 && valid.length === 0)
    throw new FeedError(ID, "not the currency list: no entry has a codigoMoeda code");
  return valid.filter((code) => !BNA_EXCLUDED.has(code));
}

const bna = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "National Bank of Angola", abbreviatedName: "BNA" },
      { languageCode: "pt", name: "Banco Nacional de Angola", abbreviatedName: "BNA" },
    ],
    dailyUpdateTime: "16:00:00",
    bankCurrency: "AOA",
    countryCode: ["AO"],
    region: ["Africa"],
    timeZone: TIME_ZONE,
    website: "https://www.bna.ao",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "2000-01-03",
    maxRangeDays: 90,
    sourceUrl: LIST_URL,
  },

  navigation: /\/taxas\/get\/lista\/moedas$/,

  async fetch(range, { http }) {
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 7);
    const list = await http.get(LIST_URL, { accept: "application/json" });
    const docs: FeedDocument[] = [{ ...list, role: "navigation" }];
    for (const code of bnaCurrencies(list.body)) {
      docs.push(
        await http.get(
          `${SERVICE}/evolucao/taxa/intervalo?datafim=${to}&datainicio=${from}&moeda=${code}&tipocambio=M`,
          { accept: "application/json" },
        ),
      );
    }
    return docs;
  },

  parse(body) {
    const items = answerOf(body);
    if (items.length === 0) return noPublication("an empty genericResponse: no rates for the currency and days asked");
    // A currency list where rates were expected: not this answer.
    if (items.length > 0 && items.every((m) => typeof m === "object" && m !== null && "idMoeda" in m && !("taxa" in m)))
      throw new FeedError(ID, "the currency list where rates were expected");
    const rows = new AnswerRows(ID);
    const leftOut = new Set<string>();
    (items as BnaRate[]).forEach((r, i) => {
      if (typeof r !== "object" || r === null || !("taxa" in r)) {
        return rows.hold(`genericResponse[${i}]`, "bad-row", `not a rate: ${JSON.stringify(r).slice(0, 80)}`);
      }
      const code = typeof r.codigoMoeda === "string" ? r.codigoMoeda.trim() : "";
      if (BNA_EXCLUDED.has(code)) return void leftOut.add(code);
      // A rate of another type (the buying or selling rate) means the answer is not the mid series asked.
      if (String(r.tipoCambio).toUpperCase() !== "M")
        throw new FeedError(
          ID,
          `genericResponse[${i}] (${code}): tipoCambio "${String(r.tipoCambio)}" is not the mid rate M`,
        );
      const raw = jsonNumberText(r.taxa);
      const day = typeof r.data === "string" ? r.data : String(r.data);
      rows.read(
        `genericResponse[${i}]`,
        () => {
          if (raw === undefined || raw.trim() === "") return undefined; // no figure that day
          const currency = requireCurrencyCode(ID, code);
          const date = requireDate(ID, isIsoDate(day.slice(0, 10)) ? day.slice(0, 10) : undefined, day);
          const rate = requireDecimal(ID, raw, `${currency} taxa on ${date}`);
          if (!/[1-9]/.test(rate)) return undefined; // a zero placeholder
          return { effectiveDate: date, currency, rate };
        },
        { effectiveDate: day, currency: code, rate: raw },
      );
    });
    const answer = rows.result();
    if (answer.records.length + answer.held.length === 0 && leftOut.size > 0)
      throw new FeedError(ID, `every figure is for ${[...leftOut].join(", ")}, which exrates leaves out`);
    return answer;
  },
});

export default bna;
