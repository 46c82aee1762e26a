// Bank for International Settlements: the end-of-month US dollar exchange rates of about 180 economies
// (dataset WS_XRU), compiled from national sources. A statistical series, not a legally binding rate;
// a period source: one figure per currency and month.
// - Endpoint: GET https://stats.bis.org/api/v2/data/dataflow/BIS/WS_XRU/1.0/M...E?c[TIME_PERIOD]=ge:YYYY-MM+le:YYYY-MM
//   with Accept: application/vnd.sdmx.data+csv;version=1.0.0 (key FREQ.REF_AREA.CURRENCY.COLLECTION:
//   monthly, every area and currency, end of period). A range without observations answers 404.
// - Answer: SDMX-CSV, `DATAFLOW,FREQ,REF_AREA,CURRENCY,COLLECTION,TIME_PERIOD,OBS_VALUE,UNIT_MULT,...`,
//   one line per area and month (`2025-01`).
// - Quotes: national currency per 1 USD (Indirect), times 10^UNIT_MULT (applied exactly; 0 in practice).
// - Validity: the observation is the month's last day; it is the series' figure until the day before the
//   next month's last day (when the next observation takes over).
// - One line per *area*, so a currency repeats: EUR under every euro-area member and the euro area (XM),
//   XOF/XAF/XCD under each member of their unions, AUD under Australia and Kiribati, USD under the US and
//   Micronesia. Equal figures are folded to one. Different ones (Bulgaria's and Croatia's histories
//   restated in euros; Kiribati's AUD) keep the home area's figure (XM for EUR, WA for XOF, the area the
//   code names for the others: AU for AUD) and hold the others; without a home line, all are held.
// - Lines of the US dollar itself (the US, Micronesia: 1 per 1 USD) are the base, no rate: left out.
import { readCsv, csvColumns } from "../src/feed/csv.js";
import {
  AnswerRows,
  FeedError,
  HttpError,
  addDays,
  decodeText,
  defineAdapter,
  isoFromParts,
  multiply,
  readDecimal,
  requireCurrencyCode,
  rowProblem,
  todayIn,
  type FeedDocument,
  type IsoDate,
  type ParsedAnswer,
  type RateRecord,
} from "../src/feed/kit.js";
import { lastDayOfMonth, nextMonth } from "../src/feed/months.js";

const ID = "BIS";
const DATA = "https://stats.bis.org/api/v2/data/dataflow/BIS/WS_XRU/1.0/M...E";
const DATAFLOW = /^BIS:WS_XRU\(/;
const BASE = "USD";
/** The area whose line is a shared currency's own figure, when the code does not name it. */
const HOME_AREA: Readonly<Record<string, string>> = { EUR: "XM", XOF: "WA" };
const COLUMNS = [
  "DATAFLOW",
  "FREQ",
  "REF_AREA",
  "CURRENCY",
  "COLLECTION",
  "TIME_PERIOD",
  "OBS_VALUE",
  "UNIT_MULT",
] as const;
const NO_OBSERVATION = new Set(["", "NaN", "NA"]);

const rangeUrl = (from: string, to: string) =>
  `${DATA}?c%5BTIME_PERIOD%5D=ge:${from.slice(0, 7)}%2Ble:${to.slice(0, 7)}`;

/** A month's observation: effective on its last day, valid until the day before the next month's last day. */
function periodOf(month: string): { effectiveDate: IsoDate; validTo: IsoDate } {
  const m = /^(\d{4})-(\d{2})$/.exec(month);
  if (!m || !isoFromParts(m[1]!, m[2]!, 1)) rowProblem(ID, "bad-date", `TIME_PERIOD "${month}" is not a month`);
  const [year, mon] = [Number(m[1]), Number(m[2])];
  return { effectiveDate: lastDayOfMonth(year, mon), validTo: addDays(lastDayOfMonth(...nextMonth(year, mon)), -1) };
}

/** OBS_VALUE times 10^UNIT_MULT, exactly; flagged when the multiplier changed the figure. */
function figureOf(value: string, unitMult: string): Pick<RateRecord, "rate" | "derivation"> {
  const rate = readDecimal(value);
  if (rate === undefined) rowProblem(ID, "bad-rate", `OBS_VALUE "${value}" is not a decimal`);
  if (!/^-?\d{1,2}$/.test(unitMult)) rowProblem(ID, "unknown-unit", `UNIT_MULT "${unitMult}" is not a power of ten`);
  const power = Number(unitMult);
  if (power === 0) return { rate };
  const factor = power > 0 ? `1${"0".repeat(power)}` : `0.${"0".repeat(-power - 1)}1`;
  return { rate: multiply(rate, factor), derivation: "unit-normalised" };
}

interface AreaFigure {
  record: RateRecord;
  area: string;
  source: string;
}

/** One figure per currency and month: equal figures folded, different ones resolved by the home area or held. */
function foldAreas(figures: AreaFigure[], rows: AnswerRows): void {
  const byKey = new Map<string, AreaFigure[]>();
  for (const f of figures) {
    const key = `${f.record.effectiveDate} ${f.record.currency}`;
    const list = byKey.get(key);
    if (list) list.push(f);
    else byKey.set(key, [f]);
  }
  for (const list of byKey.values()) {
    const first = list[0]!;
    const { currency } = first.record;
    if (list.every((f) => f.record.rate === first.record.rate)) {
      rows.records.push(first.record);
      continue;
    }
    const homeArea = HOME_AREA[currency] ?? currency.slice(0, 2);
    const home = list.find((f) => f.area === homeArea);
    if (home) rows.records.push(home.record);
    for (const f of list) {
      if (home && f.record.rate === home.record.rate) continue;
      const reason = home
        ? `${f.area}'s ${currency} figure ${f.record.rate} differs from ${homeArea}'s ${home.record.rate}, the currency's own line`
        : `${list.length} areas give ${currency} different figures and none is its home area (${homeArea})`;
      rows.hold(f.source, "conflict", reason, {
        effectiveDate: f.record.effectiveDate,
        currency,
        rate: f.record.rate,
      });
    }
  }
}

function parseAnswer(text: string): ParsedAnswer {
  const [header, ...lines] = readCsv(ID, text.replace(/^\uFEFF/, ""), { what: "a BIS SDMX-CSV answer" });
  const at = csvColumns(ID, header ?? [], COLUMNS, "a BIS WS_XRU SDMX-CSV answer");
  const rows = new AnswerRows(ID);
  const figures: AreaFigure[] = [];
  lines.forEach((line, i) => {
    const [dataflow, freq, collection] = [line[at.DATAFLOW], line[at.FREQ], line[at.COLLECTION]];
    if (!DATAFLOW.test(dataflow ?? "") || freq !== "M" || collection !== "E") {
      throw new FeedError(
        ID,
        `line ${i + 2} is not WS_XRU's monthly end-of-period series (${dataflow} ${freq} ${collection})`,
      );
    }
    const value = line[at.OBS_VALUE] ?? "";
    if (NO_OBSERVATION.has(value) || line[at.CURRENCY] === BASE) return;
    const area = line[at.REF_AREA] ?? "";
    const source = `line ${i + 2} (${area})`;
    const [month, code] = [line[at.TIME_PERIOD] ?? "", line[at.CURRENCY] ?? ""];
    rows.read(
      source,
      () => {
        const record = {
          ...periodOf(month),
          currency: requireCurrencyCode(ID, code),
          ...figureOf(value, line[at.UNIT_MULT] ?? ""),
        };
        if (record.derivation === undefined) delete record.derivation;
        figures.push({ record, area, source });
        return undefined;
      },
      { effectiveDate: month, currency: code, rate: value },
    );
  });
  if (lines.length === 0) throw new FeedError(ID, "a BIS answer without observations");
  foldAreas(figures, rows);
  return rows.result();
}

const bis = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Bank for International Settlements", abbreviatedName: "BIS" },
      { languageCode: "fr", name: "Banque des Règlements Internationaux", abbreviatedName: "BRI" },
      { languageCode: "de", name: "Bank für Internationalen Zahlungsausgleich", abbreviatedName: "BIZ" },
    ],
    dailyUpdateTime: "12:00:00",
    bankCurrency: "CHF",
    baseCurrency: BASE,
    countryCode: ["CH"],
    region: ["Europe"],
    timeZone: "Europe/Zurich",
    website: "https://data.bis.org/topics/XRU",
    quoteType: "Indirect",
    // Late months and revisions arrive over the following weeks: the daemon looks once a week (Wednesday)
    // and expects the month before's end-of-month observation stored.
    publicationDays: [3],
    cadence: { days: { kind: "weekly" }, covers: "previousMonthEnd" },
    coverageStart: "1900-01-31",
    maxRangeDays: 366,
    sourceUrl: DATA,
    supportedFrequencies: ["Monthly"],
  },

  async fetch(range, { http }) {
    // The latest: the last three months, for the series that come late.
    const today = todayIn("Europe/Zurich");
    const { from, to } = range.kind === "range" ? range : { from: addDays(today, -92), to: today };
    try {
      return [await http.get(rangeUrl(from, to), { accept: "application/vnd.sdmx.data+csv;version=1.0.0" })];
    } catch (error) {
      // No observation in the range (a month not compiled yet): nothing, not an error.
      if (error instanceof HttpError && error.status === 404) return [] as FeedDocument[];
      throw error;
    }
  },

  parse(body) {
    return parseAnswer(decodeText(ID, body));
  },
});

export default bis;
