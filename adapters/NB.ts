// Norges Bank: daily exchange rates of the krone from the Norges Bank data API.
// Endpoint: GET https://data.norges-bank.no/api/data/EXR/B..NOK.SP?format=csvdata&startPeriod=YYYY-MM-DD
// &endPeriod=YYYY-MM-DD (business-day frequency B, every base currency, quote NOK, spot).
// Format: SDMX-CSV, columns found by name: FREQ, BASE_CUR, QUOTE_CUR, UNIT_MULT, TIME_PERIOD, OBS_VALUE...
// Quote: NOK per 10^UNIT_MULT units of BASE_CUR (Direct): UNIT_MULT 2 (per 100) is kept as unitMultiplier 2,
// the figure as published. Published on Norwegian business days at about 16:00 Oslo time; an empty
// OBS_VALUE is a day without a figure.
// The indices I44 and TWI share the BASE_CUR column (three characters, no currency): skipped on purpose;
// XDR is kept. Read by the kit's SDMX-CSV reader: a line whose date, figure, code or unit cannot be taken
// is held; a missing column, a malformed CSV or a line quoted against another currency than NOK (another
// dataset) refuses the answer.
import { decodeText, defineAdapter, recentDays } from "../src/feed/kit.js";
import { readSdmxCsv } from "../src/feed/sdmx-csv.js";

const ID = "NB";
const TIME_ZONE = "Europe/Oslo";
const ENDPOINT = "https://data.norges-bank.no/api/data/EXR/B..NOK.SP";
/** Index series of the BASE_CUR column: not currencies. */
const INDICES: ReadonlySet<string> = new Set(["I44", "TWI"]);
const nb = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Norges Bank", abbreviatedName: "NB" },
      { languageCode: "no", name: "Norges Bank", abbreviatedName: "NB" },
    ],
    // The daily rates are published at about 16:00 Oslo time.
    dailyUpdateTime: "16:00:00",
    bankCurrency: "NOK",
    // Norway with Svalbard and Jan Mayen and Bouvet Island.
    countryCode: ["NO", "SJ", "BV"],
    region: ["Europe"],
    timeZone: TIME_ZONE,
    website: "https://www.norges-bank.no",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    // The bank's exchange rate pages go back to 1960 (not verified against the API).
    coverageStart: "1960-01-04",
    maxRangeDays: 365,
    sourceUrl: `${ENDPOINT}?format=csvdata`,
  },

  async fetch(range, { http }) {
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 10);
    return [await http.get(`${ENDPOINT}?format=csvdata&startPeriod=${from}&endPeriod=${to}`, { accept: "text/csv" })];
  },

  parse(body) {
    return readSdmxCsv(ID, decodeText(ID, body), {
      what: "a Norges Bank SDMX-CSV answer",
      currency: "BASE_CUR",
      unitMultiplier: "UNIT_MULT",
      select: { FREQ: "B" },
      expect: { QUOTE_CUR: "NOK" },
      skip: INDICES,
    });
  },
});

export default nb;
