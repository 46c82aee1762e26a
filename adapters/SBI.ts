// Central Bank of Iceland (Seðlabanki Íslands): XML time series of the króna. Group 9 holds the
// official reference rates (buying, middle and selling series for ten currencies and the SDR);
// group 7 the registered middle rates of 22 more currencies. ISK per 1 foreign unit (Direct).
// Series are known only by their numeric id: the map below takes the middle-rate ("miðgengi")
// series, and each mapped series' Icelandic description is checked to say so. Unmapped series
// (legacy currencies, buying and selling rates) are ignored.
import {
  FeedError,
  asArray,
  decodeText,
  defineAdapter,
  isoFromParts,
  parseXml,
  readDecimal,
  recentDays,
  type IsoDate,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "SBI";
const ENDPOINT = "https://sedlabanki.is/xmltimeseries/Default.aspx";
const TIME_ZONE = "Atlantic/Reykjavik";

/** TimeSeries ID to ISO code: group 9 (official reference, middle) and group 7 (registered middle rates). */
export const SBI_SERIES: Readonly<Record<string, string>> = {
  "4055": "USD",
  "4061": "DKK",
  "4064": "EUR",
  "4085": "JPY",
  "4088": "CAD",
  "4091": "NOK",
  "4097": "XDR",
  "4103": "GBP",
  "4106": "CHF",
  "4109": "SEK",
  "29": "CNY",
  "31": "PLN",
  "35": "NGN",
  "36": "TWD",
  "37": "KRW",
  "38": "SRD",
  "39": "AUD",
  "40": "NZD",
  "41": "HKD",
  "42": "HUF",
  "43": "ILS",
  "44": "ZAR",
  "45": "SGD",
  "46": "MXN",
  "48": "TRY",
  "50": "INR",
  "52": "CZK",
  "53": "BRL",
  "74": "THB",
  "288": "JMD",
  "3503": "SAR",
  "19254": "KWD",
};

type Node = Record<string, unknown>;

const groupUrl = (from: IsoDate, to: IsoDate, group: 9 | 7) =>
  `${ENDPOINT}?DagsFra=${from}&DagsTil=${to}&GroupID=${group}&Type=xml`;

/** `3/24/2026 12:00:00 AM` (month first) to ISO. */
function dateOf(raw: unknown): IsoDate | undefined {
  const m = typeof raw === "string" ? /^(\d{1,2})\/(\d{1,2})\/(\d{4})(\s|$)/.exec(raw.trim()) : null;
  return m ? isoFromParts(m[3]!, m[1]!, m[2]!) : undefined;
}

const text = (v: unknown) => (typeof v === "string" ? v : v === undefined || v === null ? "" : String(v));

const sbi = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Bank of Iceland", abbreviatedName: "CBI" },
      { languageCode: "is", name: "Seðlabanki Íslands", abbreviatedName: "SÍ" },
    ],
    // Set at about 14:15 CET and published on the bank's site at about 16:00 local time.
    dailyUpdateTime: "16:00:00",
    bankCurrency: "ISK",
    countryCode: ["IS"],
    region: ["Europe"],
    timeZone: TIME_ZONE,
    website: "https://www.sedlabanki.is",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "1981-01-02",
    maxRangeDays: 365,
    sourceUrl: `${ENDPOINT}?GroupID=9&Type=xml`,
  },

  async fetch(range, { http }) {
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 10);
    const accept = "application/xml, text/xml";
    return [await http.get(groupUrl(from, to, 9), { accept }), await http.get(groupUrl(from, to, 7), { accept })];
  },

  parse(body) {
    const doc = parseXml(ID, decodeText(ID, body));
    const group = doc.Group as Node | undefined;
    if (!group || typeof group !== "object")
      throw new FeedError(ID, "not a Seðlabanki time-series answer: no Group root");
    const out: RateRecord[] = [];
    for (const series of asArray(group.TimeSeries as Node | Node[])) {
      const seriesId = text(series["@ID"]);
      const currency = SBI_SERIES[seriesId];
      if (!currency) continue;
      const description = text(series.Description);
      if (!/miðgengi/i.test(description))
        throw new FeedError(ID, `series ${seriesId} (${currency}) is "${description}", not a middle rate`);
      const data = series.TimeSeriesData;
      const entries = typeof data === "object" && data !== null ? asArray((data as Node).Entry as Node | Node[]) : [];
      for (const entry of entries) {
        const date = dateOf(entry.Date);
        if (!date)
          throw new FeedError(ID, `series ${seriesId} (${currency}): date "${text(entry.Date)}" is not M/D/YYYY`);
        const raw = text(entry.Value).trim();
        if (raw === "") continue; // no figure that day
        const rate = readDecimal(raw);
        if (rate === undefined || !/[1-9]/.test(rate))
          throw new FeedError(ID, `${currency} on ${date}: value "${raw}" is not a positive decimal`);
        out.push({ effectiveDate: date, currency, rate });
      }
    }
    return out;
  },
});

export default sbi;
