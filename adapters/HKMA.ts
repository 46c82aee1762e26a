// Hong Kong Monetary Authority: end-of-day exchange rates of the HKD from the Monthly Statistical
// Bulletin. Endpoint: GET https://api.hkma.gov.hk/public/market-data-and-statistics/
// monthly-statistical-bulletin/er-ir/er-eeri-daily?choose=end_of_day&from=&to=&pagesize=100&offset=N
// &sortby=end_of_day&sortorder=desc, paged by 100 rows (a short page is the last).
// Format: JSON {header:{success,err_code,err_msg}, result:{datasize, records:[{end_of_day, usd, gbp, ...}]}},
// one lower-case field per currency named by its ISO code, except `special_drawing_rights` (XDR); the
// neeri_* fields are effective-exchange-rate indices, not rates. dem/nlg/bef/frf/itl are null since the
// euro, like any currency without a figure that day.
// Quote: HKD per 1 foreign unit (Direct). The server writes its numbers as binary doubles
// ("7.8245000000000005"): the digits the HKMA set are recovered exactly and flagged "float-recovered".
// The data follow the monthly bulletin, about a month behind: "latest" looks back 75 days.
// Each figure is read on its own: an unknown field, a date that does not exist or a figure that is not
// a positive number is held; an API error or an answer without header/records is refused.
import { rateFromFloatJson } from "../src/feed/float-json.js";
import {
  AnswerRows,
  FeedError,
  defineAdapter,
  isIsoDate,
  jsonNumberText,
  parseJsonExact,
  recentDays,
  requireDate,
  resolveCurrency,
  rowProblem,
  type FeedDocument,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "HKMA";
const ENDPOINT =
  "https://api.hkma.gov.hk/public/market-data-and-statistics/monthly-statistical-bulletin/er-ir/er-eeri-daily";
const TIME_ZONE = "Asia/Hong_Kong";
const PAGE_SIZE = 100;

type Node = Record<string, unknown>;

const pageUrl = (from: string, to: string, offset: number) =>
  `${ENDPOINT}?choose=end_of_day&from=${from}&to=${to}&pagesize=${PAGE_SIZE}&offset=${offset}&sortby=end_of_day&sortorder=desc`;

function records(body: Uint8Array): Node[] {
  const json = parseJsonExact(ID, body) as Node;
  const header = json?.header as Node | undefined;
  const result = json?.result as Node | undefined;
  if (typeof json !== "object" || json === null || !header || typeof header !== "object") {
    throw new FeedError(ID, "not an HKMA API answer: no header");
  }
  if (header.success !== true)
    throw new FeedError(ID, `the API reports an error: ${String(header.err_code)} ${String(header.err_msg)}`);
  if (!result || !Array.isArray(result.records))
    throw new FeedError(ID, "not an HKMA API answer: no result.records array");
  return result.records as Node[];
}

/** A currency field: its ISO code in lower case, or the currency's English name in snake case. */
function hkmaCurrency(field: string, date: string): string {
  const label = /^[a-z]{3}$/.test(field) ? field.toUpperCase() : field.replace(/_/g, " ");
  return resolveCurrency(ID, label, { date });
}

const hkma = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Hong Kong Monetary Authority", abbreviatedName: "HKMA" },
      { languageCode: "zh", name: "香港金融管理局", abbreviatedName: "金管局" },
    ],
    // End-of-day figures; the API only serves them once the monthly bulletin is out.
    dailyUpdateTime: "17:00:00",
    bankCurrency: "HKD",
    countryCode: ["HK"],
    region: ["Asia"],
    timeZone: TIME_ZONE,
    website: "https://www.hkma.gov.hk",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "1981-01-02",
    maxRangeDays: 366,
    sourceUrl: `${ENDPOINT}?choose=end_of_day`,
  },

  async fetch(range, { http }) {
    // The bulletin runs about a month behind: "latest" looks back 75 days and keeps the newest.
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 75);
    const docs: FeedDocument[] = [];
    for (let offset = 0; ; offset += PAGE_SIZE) {
      const doc = await http.get(pageUrl(from, to, offset), { accept: "application/json" });
      docs.push(doc);
      if (records(doc.body).length < PAGE_SIZE) return docs;
    }
  },

  parse(body) {
    const rows = new AnswerRows(ID);
    records(body).forEach((row, i) => {
      if (typeof row !== "object" || row === null) return rows.hold(`records[${i}]`, "bad-row", "not an object");
      const date = typeof row.end_of_day === "string" ? row.end_of_day : String(row.end_of_day);
      for (const [field, value] of Object.entries(row)) {
        if (field === "end_of_day" || field.startsWith("neeri_")) continue;
        if (value === null) continue; // no figure for that currency (legacy currencies after 1998)
        const text = jsonNumberText(value);
        const shown = text ?? JSON.stringify(value);
        rows.read(
          `records[${i}].${field}`,
          (): RateRecord => {
            const effectiveDate = requireDate(ID, isIsoDate(date) ? date : undefined, date);
            const currency = hkmaCurrency(field, effectiveDate);
            const read = text === undefined ? undefined : rateFromFloatJson(text);
            if (!read || read.rate.startsWith("-") || !/[1-9]/.test(read.rate))
              rowProblem(ID, "bad-rate", `${currency} of ${date}: "${shown}" is not a positive number`);
            return { effectiveDate, currency, ...read };
          },
          { effectiveDate: date, currency: field, rate: shown },
        );
      }
    });
    return rows.result();
  },
});

export default hkma;
