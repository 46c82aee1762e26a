// European Central Bank: euro foreign exchange reference rates from the ECB Data Portal, as SDMX-CSV.
// 1 EUR = X foreign (Indirect). Columns are found by name: the live answer has ~30, recordings 4.
// Read by the kit's SDMX-CSV reader (streamed: a 26-year history is 200k rows).
import { EURO_AREA, TARGET2_CLOSINGS, decodeText, defineAdapter, recentDays } from "../src/feed/kit.js";
import { readSdmxCsv } from "../src/feed/sdmx-csv.js";

const ID = "ECB";
const ENDPOINT = "https://data-api.ecb.europa.eu/service/data/EXR/D..EUR.SP00.A";
const TIME_ZONE = "Europe/Berlin";

const ecb = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "European Central Bank", abbreviatedName: "ECB" },
      { languageCode: "de", name: "Europäische Zentralbank", abbreviatedName: "EZB" },
      { languageCode: "fr", name: "Banque centrale européenne", abbreviatedName: "BCE" },
    ],
    dailyUpdateTime: "16:00:00",
    bankCurrency: "EUR",
    countryCode: [...EURO_AREA],
    region: ["Europe"],
    timeZone: TIME_ZONE,
    website: "https://www.ecb.europa.eu",
    quoteType: "Indirect",
    publicationDays: [1, 2, 3, 4, 5],
    // No reference rates on TARGET2's closing days, whatever Frankfurt's holidays.
    calendar: { holidays: false, closings: TARGET2_CLOSINGS },
    coverageStart: "1999-01-04",
    maxRangeDays: 365,
    sourceUrl: `${ENDPOINT}?format=csvdata`,
  },

  async fetch(range, { http }) {
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 10);
    const url = `${ENDPOINT}?format=csvdata&startPeriod=${from}&endPeriod=${to}`;
    return [await http.get(url, { accept: "text/csv" })];
  },

  // Streams the rows (papaparse's step): a 26-year history is 200k rows, and rows that die young
  // cost the garbage collector far less than one array of them all.
  parse(body) {
    // Only the daily series (FREQ D); the dataset also has monthly and annual averages.
    return readSdmxCsv(ID, decodeText(ID, body), {
      what: "an ECB SDMX-CSV answer",
      currency: "CURRENCY",
      select: { FREQ: "D" },
    });
  },
});

export default ecb;
