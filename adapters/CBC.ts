// Central Bank of the Republic of China (Taiwan): the daily rates of the currencies of Taiwan's main
// trading partners against the US dollar, file BP01D01 of the bank's statistics API.
// - Endpoint: GET https://cpx.cbc.gov.tw/API/DataAPI/Get?FileName=BP01D01, no date parameters: one JSON
//   answer (served as text/plain) with the whole history since 1993-01-05, refreshed about monthly.
//   `data.structure.Table1` labels the columns (`{"data":"日圓JPY/USD"}`), `data.dataSets` holds one row per
//   day: `["19930105","25.405","125.25",...]`, the date as YYYYMMDD then one value per column, as text.
// - The figures are the 16:00 Taiwan-time interbank spot rates. Every column pivots on the US dollar, so
//   the documents' base currency is USD (quoteType Indirect: foreign units per 1 USD), the New Taiwan
//   dollar (labelled NTD, stored as TWD) being one of the quoted currencies.
// - Direction per column label: "日圓JPY/USD" is JPY per USD (kept as published); "英鎊USD/GBP" is USD per
//   GBP (the GBP, AUD and EUR columns): inverted to 10 significant digits and flagged.
// - `-` (or an empty value) marks a day without a figure (EUR before 1999; DEM, FRF and NLG after 2001): skipped.
// Each value is one row: a value that is not a number holds that date and currency; a row whose date is
// not a real YYYYMMDD or whose length does not match the labels holds the whole row. A label naming no
// pair against the US dollar means the layout changed: the answer is refused whole.
import {
  AnswerRows,
  FeedError,
  defineAdapter,
  invert,
  isoFromParts,
  parseJsonExact,
  requireDecimal,
  rowProblem,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "CBC";
const ENDPOINT = "https://cpx.cbc.gov.tw/API/DataAPI/Get?FileName=BP01D01";
const RELABEL: Readonly<Record<string, string>> = { NTD: "TWD" };

interface Column {
  /** The column's label as the answer gives it, for naming where a held value stood. */
  label: string;
  currency: string;
  /** The column gives USD per unit of `currency`. */
  usdPerUnit: boolean;
}

function columnOf(label: unknown, i: number): Column {
  const text = typeof label === "string" ? label.trim() : "";
  const m = /([A-Z]{3})\s*\/\s*([A-Z]{3})/.exec(text);
  if (!m) throw new FeedError(ID, `column ${i + 1}: label "${text}" names no currency pair`);
  const [, top, bottom] = m as unknown as [string, string, string];
  if (bottom === "USD" && top !== "USD") return { label: text, currency: RELABEL[top] ?? top, usdPerUnit: false };
  if (top === "USD" && bottom !== "USD") return { label: text, currency: RELABEL[bottom] ?? bottom, usdPerUnit: true };
  throw new FeedError(ID, `column ${i + 1}: label "${text}" is not a rate against the US dollar`);
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
    const json = parseJsonExact(ID, body) as {
      data?: { dataSets?: unknown; structure?: { Table1?: unknown } };
    };
    const sets = json?.data?.dataSets;
    const labels = json?.data?.structure?.Table1;
    if (typeof json !== "object" || json === null || !Array.isArray(sets) || !Array.isArray(labels)) {
      throw new FeedError(ID, "not a CBC DataAPI answer: no data.dataSets and data.structure.Table1");
    }
    const columns = labels.map((l, i) => columnOf((l as { data?: unknown })?.data, i));
    const rows = new AnswerRows(ID);
    sets.forEach((row, r) => {
      const cells: unknown[] = Array.isArray(row) ? row : [];
      const raw = typeof cells[0] === "string" ? cells[0] : "";
      const where = `dataSets[${r}]`;
      if (cells.length !== columns.length + 1) {
        const reason = `${cells.length} fields, not a date and ${columns.length} values`;
        return rows.hold(where, "bad-row", reason, { effectiveDate: raw });
      }
      const m = /^(\d{4})(\d{2})(\d{2})$/.exec(raw);
      const effectiveDate = m ? isoFromParts(m[1]!, m[2]!, m[3]!) : undefined;
      if (effectiveDate === undefined) {
        return rows.hold(where, "bad-date", `"${raw}" is not a real YYYYMMDD date`, { effectiveDate: raw });
      }
      columns.forEach((col, c) => {
        const cell = cells[c + 1];
        const text = typeof cell === "string" ? cell.trim() : "";
        if (text === "-" || text === "" || text === "...") return; // no figure that day
        rows.read(
          `${where} "${col.label}"`,
          (): RateRecord => {
            const value = requireDecimal(ID, cell, col.label);
            if (!/[1-9]/.test(value)) rowProblem(ID, "bad-rate", `${col.label}: a zero rate`);
            return col.usdPerUnit
              ? { effectiveDate, currency: col.currency, rate: invert(value), derivation: "inverted" }
              : { effectiveDate, currency: col.currency, rate: value };
          },
          { effectiveDate: raw, currency: col.currency, rate: text },
        );
      });
    });
    return rows.result();
  },
});

export default cbc;
