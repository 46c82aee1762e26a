// Banco de la República (Colombia): the Tasa Representativa del Mercado (TRM), COP per 1 USD (Direct).
// - Endpoint: the open-data mirror on datos.gov.co, Socrata SODA dataset 32sa-8pi3
//   (https://www.datos.gov.co/resource/32sa-8pi3.json), asked with a SoQL window on `vigenciadesde`
//   (`$where=vigenciadesde>='…' AND vigenciadesde<='…'`, `$limit=50000`, `$order=vigenciadesde ASC`).
//   A bad query answers a JSON object `{ code, error, message }` instead of the array.
// - The answer is a JSON array of rows with string fields: `valor` (the TRM, dot decimal), `unidad`
//   ("COP"), `vigenciadesde` and `vigenciahasta` (timestamps).
// - One TRM is in force from `vigenciadesde` to `vigenciahasta` (the rate computed on a Friday covers
//   Saturday to Monday, longer around holidays); it is dated by `vigenciadesde` only, so effective dates run
//   Tuesday to Saturday and a weekend is not repeated.
// - Computed and published on weekdays around 18:00 Bogotá time, dated the next day.
import {
  FeedError,
  readRows,
  requireDate,
  rowProblem,
  defineAdapter,
  isIsoDate,
  parseJsonExact,
  readDecimal,
  recentDays,
  type IsoDate,
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
    const json = parseJsonExact(ID, body);
    if (!Array.isArray(json)) {
      const message =
        typeof json === "object" && json !== null && typeof (json as Node).message === "string"
          ? `: ${(json as Node).message as string}`
          : "";
      throw new FeedError(ID, `not a TRM dataset answer: no array${message}`.slice(0, 200));
    }
    const items: unknown[] = json;
    const objects = items.filter((row): row is Node => typeof row === "object" && row !== null);
    const head = objects[0];
    if (head && !("valor" in head && "vigenciadesde" in head)) {
      throw new FeedError(ID, `the layout changed: rows have ${Object.keys(head).join(", ")}`);
    }
    if (head && objects.every((row) => row.unidad !== "COP")) {
      throw new FeedError(ID, `not the TRM in COP: unidad "${String(head.unidad)}"`);
    }
    return readRows(
      ID,
      items,
      (_row, i) => `row ${i}`,
      (item) => {
        if (typeof item !== "object" || item === null) rowProblem(ID, "bad-row", "not an object");
        const row = item as Node;
        const rawDate = String(row.vigenciadesde);
        const day = rawDate.slice(0, 10);
        const date = requireDate(ID, isIsoDate(day) ? day : undefined, rawDate);
        const raw = typeof row.valor === "string" ? row.valor : String(row.valor);
        if (row.unidad !== "COP") {
          rowProblem(ID, "bad-row", `unidad "${String(row.unidad)}" is not COP`, { effectiveDate: rawDate, rate: raw });
        }
        const rate = readDecimal(raw);
        if (rate === undefined || !/[1-9]/.test(rate)) {
          rowProblem(ID, "bad-rate", `valor "${raw}" is not a positive decimal`, { effectiveDate: rawDate, rate: raw });
        }
        return { effectiveDate: date, currency: "USD", rate };
      },
    );
  },
});

export default banrep;
