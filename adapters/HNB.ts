// Hrvatska narodna banka: the exchange rate list of the euro from the HNB API (tecajn-eur/v3),
// as a JSON array of string values with decimal commas ("1,569300"). 1 EUR = X foreign
// (Indirect); the figure taken is the middle rate `srednji_tecaj`, on its date of application
// `datum_primjene` (the list set on a working day applies from the next day).
// The HRK-era v2 API (tecajn/v2, kuna per `jedinica` units) is frozen and no longer called: its
// answers are kuna rates, not euro ones, so a v2 body is recognised and yields no records.
import {
  FeedError,
  addDays,
  decodeText,
  defineAdapter,
  isIsoDate,
  parseJsonExact,
  recentDays,
  requireDecimal,
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
    // The euro area in 2026, as for the ECB (Croatia since 1 January 2023).
    countryCode: [
      "AT",
      "BE",
      "BG",
      "CY",
      "DE",
      "EE",
      "ES",
      "FI",
      "FR",
      "GR",
      "HR",
      "IE",
      "IT",
      "LT",
      "LU",
      "LV",
      "MT",
      "NL",
      "PT",
      "SI",
      "SK",
    ],
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
    const json = parseJsonExact(ID, decodeText(ID, body));
    if (!Array.isArray(json)) throw new FeedError(ID, "not an HNB exchange rate list: not a JSON array");
    if (json.length > 0 && json.every(isV2Row)) return []; // the kuna-era v2 list: not euro rates
    const records: RateRecord[] = [];
    for (const [i, row] of json.entries()) {
      if (!isNode(row) || !("datum_primjene" in row) || !("srednji_tecaj" in row))
        throw new FeedError(ID, `row ${i} has no datum_primjene or srednji_tecaj`);
      const date = typeof row.datum_primjene === "string" ? row.datum_primjene : "";
      if (!isIsoDate(date))
        throw new FeedError(ID, `row ${i}: datum_primjene "${String(row.datum_primjene)}" is not YYYY-MM-DD`);
      const currency = typeof row.valuta === "string" ? row.valuta : "";
      if (!/^[A-Z]{3}$/.test(currency))
        throw new FeedError(ID, `row ${i}: valuta "${currency}" is not a currency code`);
      records.push({
        effectiveDate: date,
        currency,
        rate: requireDecimal(ID, row.srednji_tecaj, `${currency} on ${date} srednji_tecaj`, { decimalComma: true }),
      });
    }
    return records;
  },
});

export default hnb;
