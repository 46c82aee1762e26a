// Banco de la República (Colombia): the Tasa Representativa del Mercado (TRM), COP per 1 USD
// (Direct), from the open-data mirror on datos.gov.co (Socrata SODA dataset 32sa-8pi3). Values are
// strings. One TRM row is in force from `vigenciadesde` to `vigenciahasta` (the rate computed on a
// Friday covers Saturday to Monday, longer around holidays); it is dated by `vigenciadesde` only,
// so effective dates run Tuesday to Saturday and a weekend is not repeated.
import {
  FeedError,
  decodeText,
  defineAdapter,
  isIsoDate,
  parseJsonExact,
  readDecimal,
  recentDays,
  type IsoDate,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "BANREP";
const DATASET = "https://www.datos.gov.co/resource/32sa-8pi3.json";
const TIME_ZONE = "America/Bogota";

type Node = Record<string, unknown>;

const rangeUrl = (from: IsoDate, to: IsoDate) =>
  `${DATASET}?$where=vigenciadesde%3E=%27${from}T00:00:00.000%27%20AND%20vigenciadesde%3C=%27${to}T00:00:00.000%27&$limit=50000&$order=vigenciadesde%20ASC`;

const banrep = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Bank of Colombia", abbreviatedName: "BanRep" },
      { languageCode: "es", name: "Banco de la República", abbreviatedName: "BanRep" },
    ],
    dailyUpdateTime: "18:00:00",
    bankCurrency: "COP",
    countryCode: ["CO"],
    region: ["Americas"],
    timeZone: TIME_ZONE,
    website: "https://www.banrep.gov.co",
    quoteType: "Direct",
    // Published Monday to Friday, each list dated the next day (Friday's is dated Saturday): the scheduler
    // runs on the publication days; stored effective dates run Tuesday to Saturday.
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "1991-11-27",
    maxRangeDays: 366,
    sourceUrl: DATASET,
  },

  async fetch(range, { http }) {
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 10);
    return [await http.get(rangeUrl(from, to), { accept: "application/json" })];
  },

  parse(body) {
    const json = parseJsonExact(ID, decodeText(ID, body));
    if (!Array.isArray(json)) {
      const message =
        typeof json === "object" && json !== null && typeof (json as Node).message === "string"
          ? `: ${(json as Node).message as string}`
          : "";
      throw new FeedError(ID, `not a TRM dataset answer: no array${message}`.slice(0, 200));
    }
    return (json as Node[]).map((row, i): RateRecord => {
      if (typeof row !== "object" || row === null) throw new FeedError(ID, `row ${i} is not an object`);
      const date = typeof row.vigenciadesde === "string" ? row.vigenciadesde.slice(0, 10) : "";
      if (!isIsoDate(date))
        throw new FeedError(ID, `row ${i}: vigenciadesde "${String(row.vigenciadesde)}" is not a date`);
      if (row.unidad !== "COP") throw new FeedError(ID, `TRM of ${date}: unidad "${String(row.unidad)}" is not COP`);
      const raw = typeof row.valor === "string" ? row.valor : "";
      const rate = readDecimal(raw);
      if (rate === undefined || !/[1-9]/.test(rate))
        throw new FeedError(ID, `TRM of ${date}: valor "${String(row.valor)}" is not a positive decimal`);
      return { effectiveDate: date, currency: "USD", rate };
    });
  },
});

export default banrep;
