// Bank of Israel: representative exchange rates from the FusionEdge SDMX API, as SDMX-CSV
// (https://edge.boi.gov.il/FusionEdgeServer/sdmx/v2/data/dataflow/BOI.STATISTICS/EXR/1.0/
// ?c%5BDATA_TYPE%5D=OF00&startperiod=&endperiod=&format=csv, YYYY-MM-DD).
// - The representative rate is selected with the bracketed key c[DATA_TYPE]=OF00; an answer with another
//   DATA_TYPE, or a COUNTER_CURRENCY other than ILS, is another dataset and refused whole.
// - ILS per 10^UNIT_MULT units of BASE_CURRENCY (Direct): JPY per 100 and LBP per 10 are kept as
//   unitMultiplier 2 and 1, the figures as published. An empty or NaN OBS_VALUE is no observation.
// - Published on business days at about 15:30 Jerusalem time (12:30 on Fridays and holiday eves).
// Read by the kit's SDMX-CSV reader: a bad line is held with its line number.
import { decodeText, defineAdapter, recentDays } from "../src/feed/kit.js";
import { readSdmxCsv } from "../src/feed/sdmx-csv.js";
const ID = "BOI";
const TIME_ZONE = "Asia/Jerusalem";
const ENDPOINT = "https://edge.boi.gov.il/FusionEdgeServer/sdmx/v2/data/dataflow/BOI.STATISTICS/EXR/1.0/";

const boi = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Bank of Israel", abbreviatedName: "BOI" },
      { languageCode: "he", name: "בנק ישראל", abbreviatedName: "בנק ישראל" },
    ],
    // Representative rates are published at about 15:30 (12:30 on Fridays and holiday eves).
    dailyUpdateTime: "15:30:00",
    bankCurrency: "ILS",
    // Israel, and the Palestinian territories where the shekel is the currency in use.
    countryCode: ["IL", "PS"],
    region: ["Asia"],
    timeZone: TIME_ZONE,
    website: "https://www.boi.org.il",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    // The new shekel since 4 September 1985 (how far back the API serves is not verified).
    coverageStart: "1985-09-04",
    maxRangeDays: 365,
    sourceUrl: `${ENDPOINT}?c%5BDATA_TYPE%5D=OF00&format=csv`,
  },

  async fetch(range, { http }) {
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 10);
    const url = `${ENDPOINT}?c%5BDATA_TYPE%5D=OF00&startperiod=${from}&endperiod=${to}&format=csv`;
    return [await http.get(url, { accept: "text/csv" })];
  },

  parse(body) {
    return readSdmxCsv(ID, decodeText(ID, body), {
      what: "a Bank of Israel SDMX-CSV answer",
      currency: "BASE_CURRENCY",
      unitMultiplier: "UNIT_MULT",
      expect: { DATA_TYPE: "OF00", COUNTER_CURRENCY: "ILS" },
    });
  },
});

export default boi;
