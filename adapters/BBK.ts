// Deutsche Bundesbank, historical only: the official Frankfurt fixings of the Deutsche Mark
// (1948-06-21 to 1998-12-30).
// - Endpoint: GET https://api.statistiken.bundesbank.de/rest/data/BBEX3/D..DEM.AA.AC.000?format=sdmx_csv
//   &startPeriod=YYYY-MM-DD&endPeriod=YYYY-MM-DD: the BBEX3 series D.<currency>.DEM.AA.AC.000 of every
//   currency fixed in Frankfurt.
// - SDMX-CSV with `;` as delimiter, a BOM, CRLF line ends and a blank line between series; columns are found
//   by their labels (BBK_STD_CURRENCY, BBK_ERX_PARTNER_CURRENCY, TIME_PERIOD, OBS_VALUE, BBK_UNIT_MULT,
//   BBK_TITLE...). `.` in OBS_VALUE means no fixing that day (holidays, weekends): skipped.
// - DEM per N units of the foreign currency (Direct). BBK_UNIT_MULT is always 0: the batch size is written
//   only in the free-text title (`/ 100 ATS = ... DEM`, `/ 1 000 ITL = ... DEM`). The unit is read from the
//   title and must agree with the table of the known Frankfurt batch sizes below; the power of ten is kept
//   as unitMultiplier. A row whose batch cannot be established that way is held.
// - The official fixing (amtliche Devisenkursfeststellung) took place at about 13:00 Frankfurt time on
//   weekdays; "latest" is the last month of fixings, December 1998.
import {
  decodeText,
  defineAdapter,
  expectFeedText,
  FeedError,
  perUnits,
  type HeldRow,
  type RateRecord,
} from "../src/feed/kit.js";
import { readSdmxCsv } from "../src/feed/sdmx-csv.js";

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

/** What an SDMX-CSV OBS_VALUE of BBEX3 holds on a day without a fixing. */
const NO_FIXING = ".";

/** Every batch size the series titles of an answer give, per currency. */
function titleBatches(text: string): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  for (const m of text.matchAll(/\/\s*(\d{1,3}(?: \d{3})*)\s+([A-Z]{3})\s*=\s*\.\.\.\s*DEM\b/g)) {
    const set = out.get(m[2]!) ?? new Set<number>();
    set.add(Number(m[1]!.replace(/ /g, "")));
    out.set(m[2]!, set);
  }
  return out;
}

/** Why the batch of a currency cannot be established, or its batch. */
function batchOf(currency: string, titles: Map<string, Set<number>>): number | string {
  const said = [...(titles.get(currency) ?? [])];
  const known = BBK_UNITS[currency];
  if (said.length === 0) return `no series title says "/ N ${currency} = ... DEM"`;
  if (said.length > 1) return `the titles of ${currency} give several batches (${said.join(", ")})`;
  if (known === undefined) return `no known batch size for ${currency} (its title says ${said[0]})`;
  if (known !== said[0]) return `the title of ${currency} says ${said[0]} units, the known batch is ${known}`;
  return known;
}

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
    coverageEnd: "1998-12-31",
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
    // A body cut short ends in a line with fewer fields than the header (the title cut, a figure perhaps too).
    const lines = text.split(/\r?\n/).filter((line) => line.trim() !== "");
    const width = lines[0]!.split(";").length;
    if (lines.length > 1 && lines.at(-1)!.split(";").length < width) {
      throw new FeedError(ID, `truncated: the last line has fewer than the header's ${width} fields`);
    }
    if (!lines[0]!.split(";").includes("BBK_TITLE"))
      throw new FeedError(ID, "not a BBEX3 SDMX-CSV answer: no BBK_TITLE column");
    const answer = readSdmxCsv(ID, text, {
      what: "a BBEX3 SDMX-CSV answer",
      currency: "BBK_STD_CURRENCY",
      unitMultiplier: "BBK_UNIT_MULT",
      expect: { BBK_ERX_PARTNER_CURRENCY: "DEM" },
      // `.` is the day without a fixing, not a figure.
      noObservation: [NO_FIXING],
    });
    const titles = titleBatches(text);
    const records: RateRecord[] = [];
    const held: HeldRow[] = [...answer.held];
    for (const r of answer.records) {
      const batch = batchOf(r.currency, titles);
      const source = `BBEX3.D.${r.currency}.DEM.AA.AC.000 ${r.effectiveDate}`;
      const fields = { effectiveDate: r.effectiveDate, currency: r.currency, rate: r.rate };
      if (r.unitMultiplier !== undefined) {
        held.push({
          ...fields,
          kind: "unknown-unit",
          reason: `BBK_UNIT_MULT ${r.unitMultiplier} beside the batch of the title`,
          source,
        });
      } else if (typeof batch === "string") {
        held.push({ ...fields, kind: "unknown-unit", reason: batch, source });
      } else {
        records.push({ effectiveDate: r.effectiveDate, currency: r.currency, ...perUnits(r.rate, batch) });
      }
    }
    return { records, held };
  },
});

export default bbk;
