// Deutsche Bundesbank, historical only: the official Frankfurt fixings of the Deutsche Mark
// (1948-06-21 to 1998-12-30), BBEX3 series D.<currency>.DEM.AA.AC.000, as SDMX-CSV (`;`, a BOM,
// CRLF, a blank line between series). DEM per N units of the foreign currency (Direct). BBK_UNIT_MULT
// is always 0: the batch size is written only in the free-text title (`/ 100 ATS = ... DEM`,
// `/ 1 000 ITL = ... DEM`). The unit is read from the title and must agree with the table of the
// known batch sizes below; the power of ten is kept as unitMultiplier. `.` means no value (holidays).
// Columns are found by their labels.
import { parse as parseCsv } from "csv-parse/sync";

import {
  FeedError,
  decodeText,
  defineAdapter,
  expectFeedText,
  isIsoDate,
  perUnits,
  readDecimal,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "BBK";
const ENDPOINT = "https://api.statistiken.bundesbank.de/rest/data/BBEX3/D..DEM.AA.AC.000";

/** The batch each currency was fixed per in Frankfurt (checked against every series title). */
export const BBK_UNITS: Readonly<Record<string, number>> = {
  ATS: 100,
  BEF: 100,
  CAD: 1,
  CHF: 100,
  DKK: 100,
  ESP: 100,
  FIM: 100,
  FRF: 100,
  GBP: 1,
  IEP: 1,
  ITL: 1000,
  JPY: 100,
  LUF: 100,
  NLG: 100,
  NOK: 100,
  PTE: 100,
  SEK: 100,
  USD: 1,
};

const COLUMNS = [
  "BBK_STD_CURRENCY",
  "BBK_ERX_PARTNER_CURRENCY",
  "TIME_PERIOD",
  "OBS_VALUE",
  "BBK_UNIT_MULT",
  "BBK_TITLE",
] as const;

/** The batch size written in a title such as `Devisenkurse der Frankfurter Börse / 1 000 ITL = ... DEM / Italien`. */
export function bbkTitleUnits(title: string, currency: string): number | undefined {
  const m = /\/\s*(\d{1,3}(?: \d{3})*)\s+([A-Z]{3})\s*=\s*\.\.\.\s*DEM\b/.exec(title);
  return m && m[2] === currency ? Number(m[1]!.replace(/ /g, "")) : undefined;
}

const bbk = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Deutsche Bundesbank", abbreviatedName: "Bundesbank" },
      { languageCode: "de", name: "Deutsche Bundesbank", abbreviatedName: "BBk" },
    ],
    // The official Frankfurt fixing (amtliche Devisenkursfeststellung) took place at about 13:00.
    dailyUpdateTime: "13:00:00",
    bankCurrency: "DEM",
    countryCode: ["DE"],
    region: ["Europe"],
    timeZone: "Europe/Berlin",
    website: "https://www.bundesbank.de",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "1948-06-21",
    maxRangeDays: 1827,
    sourceUrl: `${ENDPOINT}?format=sdmx_csv`,
    historicalOnly: true,
  },

  // Historical only: "latest" is the last month of fixings, December 1998.
  async fetch(range, { http }) {
    const { from, to } = range.kind === "latest" ? { from: "1998-12-01", to: "1998-12-31" } : range;
    return [
      await http.get(`${ENDPOINT}?format=sdmx_csv&startPeriod=${from}&endPeriod=${to}`, {
        accept: "application/vnd.sdmx.data+csv, text/csv",
      }),
    ];
  },

  parse(body) {
    const text = expectFeedText(ID, decodeText(ID, body), "SDMX-CSV");
    let rows: string[][];
    try {
      rows = parseCsv(text, { delimiter: ";", skip_empty_lines: true, relax_quotes: false }) as string[][];
    } catch (error) {
      throw new FeedError(ID, `malformed CSV (${(error as Error).message})`);
    }
    const header = rows[0] ?? [];
    const at = Object.fromEntries(COLUMNS.map((c) => [c, header.indexOf(c)])) as Record<
      (typeof COLUMNS)[number],
      number
    >;
    const missing = COLUMNS.filter((c) => at[c] < 0);
    if (missing.length > 0) throw new FeedError(ID, `not a BBEX3 SDMX-CSV answer: no column(s) ${missing.join(", ")}`);
    const records: RateRecord[] = [];
    for (const row of rows.slice(1)) {
      if (row.length !== header.length)
        throw new FeedError(ID, `a row of ${row.length} fields under ${header.length} columns (truncated?)`);
      const currency = row[at.BBK_STD_CURRENCY]!;
      const date = row[at.TIME_PERIOD]!;
      if (row[at.BBK_ERX_PARTNER_CURRENCY] !== "DEM")
        throw new FeedError(ID, `a ${currency} series against ${row[at.BBK_ERX_PARTNER_CURRENCY]}, not DEM`);
      if (!isIsoDate(date)) throw new FeedError(ID, `TIME_PERIOD "${date}" of ${currency} is not a date`);
      if (row[at.BBK_UNIT_MULT] !== "0")
        throw new FeedError(ID, `BBK_UNIT_MULT "${row[at.BBK_UNIT_MULT]}" of ${currency} is not 0`);
      const units = bbkTitleUnits(row[at.BBK_TITLE]!, currency);
      if (units === undefined)
        throw new FeedError(
          ID,
          `the title of ${currency} does not say "/ N ${currency} = ... DEM": "${row[at.BBK_TITLE]}"`,
        );
      const known = BBK_UNITS[currency];
      if (known === undefined) throw new FeedError(ID, `no known batch size for ${currency} (its title says ${units})`);
      if (known !== units)
        throw new FeedError(ID, `the title of ${currency} says ${units} units, the known batch is ${known}`);
      const raw = row[at.OBS_VALUE]!;
      if (raw === "." || raw === "") continue;
      const value = readDecimal(raw);
      if (!value) throw new FeedError(ID, `OBS_VALUE "${raw}" of ${currency} on ${date} is not a decimal`);
      records.push({ effectiveDate: date, currency, ...perUnits(value, units) });
    }
    return records;
  },
});

export default bbk;
