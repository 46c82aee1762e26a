// Hrvatska narodna banka: the exchange rate list of the euro.
// Endpoint: GET https://api.hnb.hr/tecajn-eur/v3?datum-primjene-od=YYYY-MM-DD&datum-primjene-do=YYYY-MM-DD.
// Format: a JSON array, one object per currency and list, every value a string, decimals with a comma
// ("1,569300"): broj_tecajnice, datum_primjene, valuta (ISO code), kupovni/srednji/prodajni_tecaj.
// Quote: 1 EUR = X foreign (Indirect); the figure taken is the middle rate `srednji_tecaj`, on its date
// of application `datum_primjene`. The list is set on working days in the afternoon, once the ECB's
// reference rates are out, and applies from the next day (Friday's list is dated Saturday).
// The HRK-era v2 API (tecajn/v2, kuna per `jedinica` units) is frozen and no longer called: its answers
// are kuna rates, not euro ones, so a v2 body is recognised and yields no records.
// A row whose date, code or middle rate cannot be read is held; an array none of whose rows carries
// datum_primjene and srednji_tecaj is not this list and is refused.
import {
  AnswerRows,
  FeedError,
  addDays,
  EURO_AREA,
  defineAdapter,
  isIsoDate,
  parseJsonExact,
  recentDays,
  requireCurrencyCode,
  requireDate,
  requireDecimal,
  rowProblem,
  todayIn,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "HNB";
const TIME_ZONE = "Europe/Zagreb";
const API = "https://api.hnb.hr/tecajn-eur/v3";

type Node = Record<string, unknown>;
const isNode = (x: unknown): x is Node => typeof x === "object" && x !== null && !Array.isArray(x);

/** A row of the frozen kuna-era v2 API. */
const isV2Row = (row: unknown) =>
  isNode(row) &&
  typeof row.datum === "string" &&
  isIsoDate(row.datum) &&
  row.datum < "2023-01-01" &&
  "jedinica" in row &&
  !("datum_primjene" in row);

const hnb = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Croatian National Bank", abbreviatedName: "CNB" },
      { languageCode: "hr", name: "Hrvatska narodna banka", abbreviatedName: "HNB" },
    ],
    // The list is set in the afternoon, once the ECB reference rates are out, and applies from the next day.
    dailyUpdateTime: "16:00:00",
    bankCurrency: "EUR",
    countryCode: [...EURO_AREA],
    region: ["Europe"],
    timeZone: TIME_ZONE,
    website: "https://www.hnb.hr",
    quoteType: "Indirect",
    // Published Monday to Friday, each list dated the next day (Friday's is dated Saturday): the scheduler
    // runs on the publication days; stored effective dates run Tuesday to Saturday.
    publicationDays: [1, 2, 3, 4, 5],
    // The euro list exists from the changeover, 1 January 2023.
    coverageStart: "2023-01-01",
    maxRangeDays: 90,
    sourceUrl: API,
  },

  async fetch(range, { http }) {
    // Today's list applies from tomorrow: the latest window reaches tomorrow.
    const { from, to } =
      range.kind === "range" ? range : { from: recentDays(TIME_ZONE, 10).from, to: addDays(todayIn(TIME_ZONE), 1) };
    return [await http.get(`${API}?datum-primjene-od=${from}&datum-primjene-do=${to}`, { accept: "application/json" })];
  },

  parse(body) {
    const json = parseJsonExact(ID, body);
    if (!Array.isArray(json)) throw new FeedError(ID, "not an HNB exchange rate list: not a JSON array");
    if (json.length > 0 && json.every(isV2Row)) return []; // the kuna-era v2 list: not euro rates
    const isListRow = (row: unknown) => isNode(row) && "datum_primjene" in row && "srednji_tecaj" in row;
    if (json.length > 0 && !json.some(isListRow))
      throw new FeedError(ID, "not an HNB euro exchange rate list: no row has datum_primjene and srednji_tecaj");
    const rows = new AnswerRows(ID);
    for (const [i, row] of json.entries()) {
      const node: Node = isNode(row) ? row : {};
      const text = (x: unknown) => (typeof x === "string" ? x : (JSON.stringify(x) ?? ""));
      const date = text(node.datum_primjene);
      const currency = text(node.valuta);
      rows.read(
        `row ${i + 1}`,
        (): RateRecord => {
          if (!isListRow(row)) rowProblem(ID, "bad-row", "no datum_primjene or srednji_tecaj");
          return {
            effectiveDate: requireDate(ID, isIsoDate(date) ? date : undefined, date),
            currency: requireCurrencyCode(ID, currency),
            rate: requireDecimal(ID, node.srednji_tecaj, `${currency} on ${date} srednji_tecaj`, {
              decimalComma: true,
            }),
          };
        },
        { effectiveDate: date, currency, rate: text(node.srednji_tecaj) },
      );
    }
    return rows.result();
  },
});

export default hnb;
