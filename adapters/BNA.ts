// Banco Nacional de Angola: the reference rates of the kwanza, as JSON {success, genericResponse}. The currency
// list comes first (taxas/get/lista/moedas), then one call per currency for the range. The figure is the mid
// reference rate (tipocambio=M), AOA per 1 foreign unit (Direct). Query parameter names must be lower case (mixed
// case fails with "datainicio 'null' inválida").
// Left out: XDRUSD (a cross rate, USD per SDR, not a kwanza rate), XAU (its unit is not stated and is
// inconsistent), and VEF, whose values (about 1.79 AOA in May 2026, ~510 per USD) are those of the bolívar
// soberano (VES) under the code of the bolívar fuerte it replaced in 2018 at 100,000 to 1: the code does not
// say which bolívar a figure is in, so none is published.
import {
  FeedError,
  decodeText,
  defineAdapter,
  isIsoDate,
  jsonNumberText,
  parseJsonExact,
  readDecimal,
  recentDays,
  type FeedDocument,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "BNA";
const SERVICE = "https://www.bna.ao/service/rest/taxas/get";
const LIST_URL = `${SERVICE}/lista/moedas`;
const TIME_ZONE = "Africa/Luanda";
const CODE = /^[A-Z]{3}$/;
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
  const json = parseJsonExact(ID, decodeText(ID, body)) as BnaAnswer;
  if (typeof json !== "object" || json === null || Array.isArray(json) || !("genericResponse" in json)) {
    throw new FeedError(ID, "not a BNA answer: no genericResponse");
  }
  if (json.success !== true) throw new FeedError(ID, `the service reports success=${String(json.success)}`);
  if (!Array.isArray(json.genericResponse)) throw new FeedError(ID, "genericResponse is not an array");
  return json.genericResponse;
}

/** The currency codes of a lista/moedas answer, without the excluded ones. */
export function bnaCurrencies(body: Uint8Array): string[] {
  return answerOf(body)
    .map((m, i) => {
      const code =
        typeof (m as { codigoMoeda?: unknown })?.codigoMoeda === "string"
          ? (m as { codigoMoeda: string }).codigoMoeda.trim()
          : "";
      if (!/^[A-Z]{3,6}$/.test(code))
        throw new FeedError(ID, `currency list entry ${i}: codigoMoeda "${code}" is not a code`);
      return code;
    })
    .filter((code) => !BNA_EXCLUDED.has(code));
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

  async fetch(range, { http }) {
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 7);
    const list = await http.get(LIST_URL, { accept: "application/json" });
    const docs: FeedDocument[] = [list];
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

  parse(body, { url }) {
    const items = answerOf(body);
    // The currency list carries no rates.
    if (
      /\/lista\/moedas/.test(url) ||
      (items.length > 0 && items.every((m) => typeof m === "object" && m !== null && "idMoeda" in m && !("taxa" in m)))
    ) {
      bnaCurrencies(body);
      return [];
    }
    const records: RateRecord[] = [];
    (items as BnaRate[]).forEach((r, i) => {
      if (typeof r !== "object" || r === null || !("taxa" in r))
        throw new FeedError(ID, `genericResponse[${i}] is not a rate`);
      const code = typeof r.codigoMoeda === "string" ? r.codigoMoeda.trim() : "";
      if (BNA_EXCLUDED.has(code)) return;
      if (!CODE.test(code)) throw new FeedError(ID, `genericResponse[${i}]: codigoMoeda "${code}" is not ISO 4217`);
      if (String(r.tipoCambio).toUpperCase() !== "M")
        throw new FeedError(
          ID,
          `genericResponse[${i}] (${code}): tipoCambio "${String(r.tipoCambio)}" is not the mid rate M`,
        );
      const date = typeof r.data === "string" ? r.data.slice(0, 10) : "";
      if (!isIsoDate(date))
        throw new FeedError(ID, `genericResponse[${i}] (${code}): data "${String(r.data)}" is not a date`);
      const raw = jsonNumberText(r.taxa);
      if (raw === undefined || raw.trim() === "") return;
      const rate = readDecimal(raw);
      if (!rate) throw new FeedError(ID, `genericResponse[${i}] (${code} on ${date}): taxa "${raw}" is not a decimal`);
      if (!/[1-9]/.test(rate)) return; // a zero placeholder
      records.push({ effectiveDate: date, currency: code, rate });
    });
    return records;
  },
});

export default bna;
