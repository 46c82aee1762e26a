// Board of Governors of the Federal Reserve System: the H.10 daily noon buying rates in New York.
// Endpoint: the keyless Data Download Program, GET /datadownload/Output.aspx?rel=H10&series=<package id>
// with lastobs=N or from=MM/DD/YYYY&to=MM/DD/YYYY, filetype=csv, label=include, layout=seriescolumn.
// Format: CSV, one column per series, five label rows (Series Description, Unit, Multiplier, Currency,
// Unique Identifier) then a "Time Period" row of series ids, then one row per day (YYYY-MM-DD).
// Quote: declared Indirect (foreign units per 1 USD, as most series are: unit "Currency:_Per_USD", the
// foreign code in the Currency row). The EUR, GBP, AUD and NZD series are USD per 1 unit (unit
// "Currency:_Per_EUR", Currency row "USD") and are inverted exactly to 10 significant digits
// (derivation "inverted"). "ND" marks a day without a rate (a US holiday). The release comes out on
// Mondays at 16:15 New York time with a rate per business day of the week before.
// Only daily series (".B." ids) are rates of a day: monthly averages (".M.") read as no records, and
// index series (unit "Index:...", the dollar indexes of the same package) are not rates.
// Quirks met: a daily series whose Multiplier is not 1 cannot be trusted (the monthly GBP series says
// 0.00999999978 while its figures, 1.6404 in 2000-01, are plain USD per pound), so its figures are held
// as of unknown unit, like those of any series whose unit is neither "per USD" nor "USD per X".
// A missing label row refuses the answer (not a DDP download, or its layout changed).
import {
  AnswerRows,
  decodeText,
  US_DOLLAR_AREA,
  defineAdapter,
  FeedError,
  invert,
  isIsoDate,
  requireDate,
  requireDecimal,
  rowProblem,
  type RateRecord,
} from "../src/feed/kit.js";
import { readCsv } from "../src/feed/csv.js";

const ID = "FRB";
const DDP = "https://www.federalreserve.gov/datadownload/Output.aspx";
/** The DDP package of every H.10 daily series. */
const H10_DAILY = "60f32914ab61dfab590e0e470153e3ae";
const MISSING = new Set(["ND", "NA", ""]);

const mmddyyyy = (date: string) => `${date.slice(5, 7)}/${date.slice(8, 10)}/${date.slice(0, 4)}`;

interface Column {
  index: number;
  id: string;
  currency: string;
  inverted: boolean;
  /** Why the series' figures cannot be taken (their unit is not established), when so. */
  unknownUnit?: string;
}

const frb = defineAdapter({
  bank: {
    id: ID,
    names: [{ languageCode: "en", name: "Board of Governors of the Federal Reserve System", abbreviatedName: "FRB" }],
    // The H.10 release is published weekly, on Mondays at 4:15 p.m. Eastern, with a rate per business day.
    dailyUpdateTime: "16:15:00",
    bankCurrency: "USD",
    countryCode: [...US_DOLLAR_AREA],
    region: ["Americas"],
    timeZone: "America/New_York",
    website: "https://www.federalreserve.gov",
    quoteType: "Indirect",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "1971-01-04",
    maxRangeDays: 366,
    sourceUrl: `${DDP}?rel=H10&series=${H10_DAILY}&filetype=csv&label=include&layout=seriescolumn`,
  },

  async fetch(range, { http }) {
    const window =
      range.kind === "range"
        ? `lastobs=&from=${mmddyyyy(range.from)}&to=${mmddyyyy(range.to)}`
        : "lastobs=10&from=&to=";
    const url = `${DDP}?rel=H10&series=${H10_DAILY}&${window}&filetype=csv&label=include&layout=seriescolumn`;
    return [await http.get(url, { accept: "text/csv" })];
  },

  parse(body) {
    const rows = readCsv(ID, decodeText(ID, body), { relaxColumnCount: true, what: "a DDP CSV download" });
    const labelled = (label: string) => {
      const row = rows.find((r) => r[0] === label);
      if (!row) throw new FeedError(ID, `not a DDP download: no "${label}" row`);
      return row;
    };
    const units = labelled("Unit:");
    const multipliers = labelled("Multiplier:");
    const currencies = labelled("Currency:");
    const ids = labelled("Time Period");
    const start = rows.indexOf(ids) + 1;
    const columns: Column[] = [];
    for (let c = 1; c < ids.length; c++) {
      const id = ids[c] ?? "";
      if (!/\.B\./.test(id)) continue; // not a daily series (monthly .M., annual .A.)
      const unitLabel = units[c] ?? "";
      if (/^Index\b/i.test(unitLabel)) continue; // a dollar index, not a rate
      const unit = /^Currency:_Per_([A-Z]{3})$/.exec(unitLabel);
      const listed = currencies[c] ?? "";
      const column: Column = { index: c, id, currency: listed, inverted: false };
      if (!unit) column.unknownUnit = `${id}: unit "${unitLabel}" is not a currency per currency`;
      else if (unit[1] !== "USD") {
        column.currency = unit[1]!;
        column.inverted = true;
        if (listed !== "USD") column.unknownUnit = `${id}: ${listed} per ${unit[1]} is not a dollar price`;
      }
      if ((multipliers[c] ?? "") !== "1") column.unknownUnit ??= `${id}: Multiplier "${multipliers[c]}" is not 1`;
      columns.push(column);
    }
    const answer = new AnswerRows(ID);
    if (columns.length === 0) return answer.result();
    for (let r = start; r < rows.length; r++) {
      const row = rows[r]!;
      const date = row[0] ?? "";
      const line = `row ${r + 1}`;
      if (row.length !== ids.length) {
        answer.hold(line, "bad-row", `${row.length} fields for ${ids.length} columns`, { effectiveDate: date });
        continue;
      }
      for (const col of columns) {
        const raw = row[col.index] ?? "";
        if (MISSING.has(raw)) continue; // no rate that day
        answer.read(
          `${line} ${col.id}`,
          (): RateRecord => {
            const effectiveDate = requireDate(ID, isIsoDate(date) ? date : undefined, date);
            if (col.unknownUnit) rowProblem(ID, "unknown-unit", col.unknownUnit);
            const rate = requireDecimal(ID, raw, `${col.id} on ${date}`);
            return col.inverted
              ? { effectiveDate, currency: col.currency, rate: invert(rate), derivation: "inverted" }
              : { effectiveDate, currency: col.currency, rate };
          },
          { effectiveDate: date, currency: col.currency, rate: raw },
        );
      }
    }
    return answer.result();
  },
});

export default frb;
