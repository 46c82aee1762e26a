// Central Bank of the Republic of China (Taiwan): the daily rates of Taiwan's main trading partners' currencies
// against the US DOLLAR (file BP01D01 of the bank's statistics API), as JSON served as text/plain; one call answers
// the whole history since 1993 and the file is refreshed about monthly. The daily figures are the 16:00 Taiwan-time
// interbank spot rates.
// The pivot of every column is the US dollar, so the documents' base currency is USD (baseCurrency; quoteType
// Indirect: foreign units per 1 USD), the New Taiwan dollar (labelled NTD, the bank's own currency) being one of
// the quoted currencies. The direction is read from
// each column label: "日圓JPY/USD" is JPY per USD (as published), "英鎊USD/GBP" is USD per GBP (the GBP, AUD and
// EUR columns), inverted to 10 significant digits and flagged. `-` marks a missing value. DEM, FRF and NLG
// columns end in 2001.
import {
  FeedError,
  decodeText,
  defineAdapter,
  invert,
  isoFromParts,
  parseJsonExact,
  readDecimal,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "CBC";
const ENDPOINT = "https://cpx.cbc.gov.tw/API/DataAPI/Get?FileName=BP01D01";
const RELABEL: Readonly<Record<string, string>> = { NTD: "TWD" };

interface Column {
  currency: string;
  /** The column gives USD per unit of `currency`. */
  usdPerUnit: boolean;
}

function columnOf(label: unknown, i: number): Column {
  const m = typeof label === "string" ? /([A-Z]{3})\s*\/\s*([A-Z]{3})/.exec(label) : null;
  if (!m) throw new FeedError(ID, `column ${i + 1}: label "${String(label)}" names no currency pair`);
  const [, top, bottom] = m as unknown as [string, string, string];
  if (bottom === "USD" && top !== "USD") return { currency: RELABEL[top] ?? top, usdPerUnit: false };
  if (top === "USD" && bottom !== "USD") return { currency: RELABEL[bottom] ?? bottom, usdPerUnit: true };
  throw new FeedError(ID, `column ${i + 1}: label "${String(label)}" is not a rate against the US dollar`);
}

const cbc = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Bank of the Republic of China (Taiwan)", abbreviatedName: "CBC" },
      { languageCode: "zh", name: "中華民國中央銀行", abbreviatedName: "央行" },
    ],
    dailyUpdateTime: "16:00:00",
    bankCurrency: "TWD",
    baseCurrency: "USD",
    countryCode: ["TW"],
    region: ["Asia"],
    timeZone: "Asia/Taipei",
    website: "https://www.cbc.gov.tw",
    quoteType: "Indirect",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "1993-01-05",
    maxRangeDays: 3660,
    sourceUrl: ENDPOINT,
  },

  // No date parameters: the whole history, stored (idempotently) as a whole.
  async fetch(_range, { http }) {
    return [await http.get(ENDPOINT, { accept: "application/json, text/plain" })];
  },

  parse(body) {
    const json = parseJsonExact(ID, decodeText(ID, body)) as {
      data?: { dataSets?: unknown; structure?: { Table1?: unknown } };
    };
    const sets = json?.data?.dataSets;
    const labels = json?.data?.structure?.Table1;
    if (typeof json !== "object" || json === null || !Array.isArray(sets) || !Array.isArray(labels)) {
      throw new FeedError(ID, "not a CBC DataAPI answer: no data.dataSets and data.structure.Table1");
    }
    const columns = labels.map((l, i) => columnOf((l as { data?: unknown })?.data, i));
    const records: RateRecord[] = [];
    sets.forEach((row, r) => {
      if (!Array.isArray(row) || row.length !== columns.length + 1)
        throw new FeedError(ID, `row ${r} does not have a date and ${columns.length} values`);
      const m = typeof row[0] === "string" ? /^(\d{4})(\d{2})(\d{2})$/.exec(row[0]) : null;
      const date = m ? isoFromParts(m[1]!, m[2]!, m[3]!) : undefined;
      if (!date) throw new FeedError(ID, `row ${r}: date "${String(row[0])}" is not YYYYMMDD`);
      columns.forEach((col, c) => {
        const raw = row[c + 1];
        if (typeof raw !== "string")
          throw new FeedError(ID, `${col.currency} on ${date}: value ${String(raw)} is not text`);
        if (["-", "", "..."].includes(raw.trim())) return; // no rate that day
        const value = readDecimal(raw);
        if (!value) throw new FeedError(ID, `${col.currency} on ${date}: "${raw}" is not a decimal`);
        if (!/[1-9]/.test(value)) return;
        records.push(
          col.usdPerUnit
            ? { effectiveDate: date, currency: col.currency, rate: invert(value), derivation: "inverted" }
            : { effectiveDate: date, currency: col.currency, rate: value },
        );
      });
    });
    return records;
  },
});

export default cbc;
