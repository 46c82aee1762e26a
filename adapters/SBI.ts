// Central Bank of Iceland (Seðlabanki Íslands): XML time series of the króna from
// xmltimeseries/Default.aspx?DagsFra=YYYY-MM-DD&DagsTil=YYYY-MM-DD&GroupID={9|7}&Type=xml, answered as
// <Group><TimeSeries ID><Name/><Description/><TimeSeriesData><Entry><Date/><Value/></Entry>…
// Group 9 holds the official reference rates (buying, middle and selling series for ten currencies
// and the SDR); group 7 the registered middle rates of 22 more currencies. ISK per 1 foreign unit
// (Direct), set at about 14:15 CET and published on the bank's site at about 16:00 Reykjavik time on
// working days. Dates are written month first (`3/24/2026 12:00:00 AM`). Series are known only by
// their numeric id: the map below takes the middle-rate ("miðgengi") series, and each mapped series'
// Icelandic description is checked to say so (a mapped id describing another rate means the ids were
// reassigned: the answer is refused). Unmapped series (legacy currencies, buying and selling rates)
// are ignored; every series of the answer is read. An empty Value is a day without a figure.
import {
  AnswerRows,
  FeedError,
  asArray,
  decodeText,
  defineAdapter,
  isoFromParts,
  parseXml,
  recentDays,
  requireDate,
  requireDecimal,
  type IsoDate,
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
function dateOf(raw: string): IsoDate | undefined {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(\s|$)/.exec(raw.trim());
  return m ? isoFromParts(m[3]!, m[1]!, m[2]!) : undefined;
}

/** An element's or attribute's text (the XML reader keeps every value as text); "" for anything else. */
const text = (v: unknown) => (typeof v === "string" ? v : "");

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
    const rows = new AnswerRows(ID);
    for (const series of asArray(group.TimeSeries as Node | Node[])) {
      const seriesId = text(series["@ID"]);
      const currency = SBI_SERIES[seriesId];
      if (!currency) continue;
      const description = text(series.Description);
      if (!/miðgengi/i.test(description))
        throw new FeedError(ID, `series ${seriesId} (${currency}) is "${description}", not a middle rate`);
      const data = series.TimeSeriesData;
      const entries = typeof data === "object" && data !== null ? asArray((data as Node).Entry as Node | Node[]) : [];
      for (const [i, entry] of entries.entries()) {
        const rawDate = text(entry.Date);
        const raw = text(entry.Value).trim();
        rows.read(
          `<TimeSeries ID="${seriesId}"> entry ${i + 1}`,
          () => {
            const date = requireDate(ID, dateOf(rawDate), rawDate);
            if (raw === "") return undefined; // no figure that day
            return { effectiveDate: date, currency, rate: requireDecimal(ID, raw, `${currency} on ${date}`) };
          },
          { effectiveDate: rawDate, currency, rate: raw },
        );
      }
    }
    return rows.result();
  },
});

export default sbi;
