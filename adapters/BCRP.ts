// Banco Central de Reserva del Perú: the US dollar in soles, from the BCRPData series API.
// - Endpoint: GET https://estadisticas.bcrp.gob.pe/estadisticas/series/api/PD04639PD-PD04640PD/json/FROM/TO/ing
//   (FROM and TO as YYYY-MM-DD; one call may span the whole history): series PD04639PD and PD04640PD,
//   "TC Sistema bancario SBS (S/ por US$)" Compra and Venta, the weighted average buying and selling rates
//   of the banking system as the SBS (the banking supervisor) compiles them for each business day.
// - Official figure: Peru publishes no single official mid. The SBS pair is the one the country's rules
//   point to (SUNAT, the tax authority, takes the SBS close of the business day before for each day);
//   the interbank series (PD04637PD/PD04638PD) are market averages and are not read. We publish the exact
//   mean of the SBS Compra and Venta, flagged `mean` (the text itself when both are equal).
//   docs/DECISIONS.md ("BCRP") has the reasoning.
// - PEN per 1 USD (Direct), written with up to 3 decimals (the series' `dec`), trailing zeros dropped by the
//   bank ("3.36"). The euro pair (PD04647PD/PD04648PD) is left out: it is not the SBS's compilation and is
//   known to carry the dollar's figure on some days.
// - Answer: JSON served as `text/html; charset=UTF-8`, laid out one token per line. `config.series` names
//   the series in the order asked; each of `periods` has `name` (`DD.Mmm.YY`) and `values` (strings) in
//   that order. With /ing the months are English except September (`Set`); with /esp Spanish (`Ene`, `Abr`,
//   `Ago`, `Dic`): both are read. `"n.d."` in every slot is a day without data (holidays, and the one to
//   three newest business days, which the database fills late): skipped.
// - Publication: a day's figure is not in the database at 06:00 Lima the next morning; other pollers find
//   it during that business day. dailyUpdateTime 11:00 Lima is an estimate; the latest fetch asks for the
//   last ten days, so a late figure is taken by the next run.
// - The site sits behind the Imperva CDN, which sets cookies: the call is made in a session.
// A period whose date or figures cannot be read, or with only one side given, is held; an answer whose
// series are not the SBS dollar pair, or without `config.series` and `periods`, is refused whole.
import {
  AnswerRows,
  noPublication,
  FeedError,
  defineAdapter,
  isoFromParts,
  jsonNumberText,
  mean,
  parseJsonExact,
  recentDays,
  requireDate,
  requireDecimal,
  rowProblem,
  type RateRecord,
} from "../src/feed/kit.js";
import { monthNumber } from "../src/feed/month-names.js";

const ID = "BCRP";
const TIME_ZONE = "America/Lima";
const API = "https://estadisticas.bcrp.gob.pe/estadisticas/series/api";
/** The SBS dollar pair, buying then selling. */
const SERIES = "PD04639PD-PD04640PD";
/** English, Spanish and Peruvian Spanish month abbreviations (es-PE spells September `set`). */
const MONTHS = ["en", "es", "es-PE"];
const NO_DATA = "n.d.";

type Side = "buy" | "sell";

/** Which side of the SBS dollar pair a series is, from its name; undefined for any other series. */
function sideOf(name: string): Side | undefined {
  if (!/\bSBS\b/i.test(name) || !/S\/\s*por\s*US\$/i.test(name)) return undefined;
  if (/-\s*Compra\s*$/i.test(name)) return "buy";
  if (/-\s*Venta\s*$/i.test(name)) return "sell";
  return undefined;
}

/** `01.Set.26` (or `01.Sep.26`, `01.Ene.26`) to ISO; two-digit years from 1950 to 2049. */
function periodDate(name: string): string | undefined {
  const m = /^(\d{1,2})\.(\p{L}{3,4})\.(\d{2})$/u.exec(name.trim());
  const month = m ? monthNumber(m[2]!, MONTHS) : undefined;
  if (!m || month === undefined) return undefined;
  const yy = Number(m[3]);
  return isoFromParts(yy >= 50 ? 1900 + yy : 2000 + yy, month, m[1]!);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The column of the buying and of the selling series, or a FeedError when the answer is not that pair. */
function seriesColumns(config: unknown): Record<Side, number> {
  const series = isObject(config) ? config.series : undefined;
  if (!Array.isArray(series)) throw new FeedError(ID, "not a BCRPData series answer: no config.series");
  const names = series.map((s) => (isObject(s) && typeof s.name === "string" ? s.name : ""));
  const buy = names.findIndex((n) => sideOf(n) === "buy");
  const sell = names.findIndex((n) => sideOf(n) === "sell");
  const other = names.find((n) => sideOf(n) === undefined);
  if (other !== undefined || buy < 0 || sell < 0 || names.length !== 2) {
    throw new FeedError(
      ID,
      `not the SBS dollar pair (Compra and Venta, S/ por US$): the series are ${names.map((n) => `"${n}"`).join(", ") || "none"}`,
    );
  }
  return { buy, sell };
}

const bcrp = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Reserve Bank of Peru", abbreviatedName: "BCRP" },
      { languageCode: "es", name: "Banco Central de Reserva del Perú", abbreviatedName: "BCRP" },
    ],
    // An estimate (see the header): the figure of a business day is filled in the next day.
    dailyUpdateTime: "11:00:00",
    bankCurrency: "PEN",
    countryCode: ["PE"],
    region: ["Americas"],
    timeZone: TIME_ZONE,
    website: "https://www.bcrp.gob.pe",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "1997-01-02",
    maxRangeDays: 3653,
    sourceUrl: `${API}/${SERIES}/json`,
  },

  async fetch(range, { http }) {
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 10);
    const session = http.session(); // Imperva's cookies
    return [await session.get(`${API}/${SERIES}/json/${from}/${to}/ing`, { accept: "application/json, text/html" })];
  },

  parse(body) {
    const json = parseJsonExact(ID, body);
    if (!isObject(json) || !Array.isArray(json.periods))
      throw new FeedError(ID, "not a BCRPData series answer: no periods array");
    const at = seriesColumns(json.config);
    const rows = new AnswerRows(ID);
    json.periods.forEach((entry: unknown, i) => {
      const period = isObject(entry) ? entry : {};
      const name = typeof period.name === "string" ? period.name : "";
      const values = Array.isArray(period.values) ? period.values.map((v) => jsonNumberText(v) ?? "") : [];
      const buy = (values[at.buy] ?? "").trim();
      const sell = (values[at.sell] ?? "").trim();
      rows.read(
        `periods[${i}] "${name}"`,
        (): RateRecord | undefined => {
          if (buy === NO_DATA && sell === NO_DATA) return undefined; // no figure that day
          const effectiveDate = requireDate(ID, periodDate(name), name);
          if (buy === NO_DATA || sell === NO_DATA)
            rowProblem(ID, "bad-rate", `only one side of the pair is given (Compra "${buy}", Venta "${sell}")`);
          const b = requireDecimal(ID, buy, "Compra");
          const s = requireDecimal(ID, sell, "Venta");
          return b === s
            ? { effectiveDate, currency: "USD", rate: b }
            : { effectiveDate, currency: "USD", rate: mean(b, s), derivation: "mean" };
        },
        { effectiveDate: name, currency: "USD", rate: `${buy} / ${sell}` },
      );
    });
    const answer = rows.result();
    return answer.records.length + answer.held.length > 0
      ? answer
      : noPublication("no period of the range asked carries a figure");
  },
});

export default bcrp;
