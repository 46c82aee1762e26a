// U.S. Treasury, Bureau of the Fiscal Service: the Treasury Reporting Rates of Exchange, the rates
// federal agencies must use to report foreign-currency amounts. A period source: one figure per
// currency for a quarter, amended mid-quarter when a currency moves sharply.
// - Endpoint: GET https://api.fiscaldata.treasury.gov/services/api/fiscal_service/v1/accounting/od/rates_of_exchange
//   ?fields=record_date,effective_date,country_currency_desc,exchange_rate&filter=record_date:gte:…,record_date:lte:…
//   &page[number]=N&page[size]=10000&sort=record_date, answering `{"data":[…],"meta":{"total-pages",…}}`;
//   every page is fetched.
// - Quotes: foreign units per 1 USD (Indirect), `exchange_rate` a decimal string ("1420.0", "0.87").
// - Validity: `record_date` is a quarter's end (03-31, 06-30...); the figure is in force from its
//   `effective_date` until the day before the next quarter's end, when the next table takes over. An
//   amendment is a row of the same record date with a later effective date: it starts its own period,
//   and the store ends the amended figure the day before (src/store/periods.ts).
// - Currencies are `Country-Currency` labels, not codes, and they drift ("Turkey-New Lira", "Cyprus-Euro").
//   They are read by the kit's name rules (src/feed/currency-names.ts), in order: the label as a name
//   ("Japan Yen": a territory and its unit; "New" dropped, the unit named as redenominated); the
//   territory's currency when the label's unit is what that currency is called ("Benin-Cfa Franc":
//   Benin's currency, the West African CFA Franc); the unit alone when it names one currency and the
//   territory names none ("Euro Zone-Euro"); then the few labels below no rule reaches. Anything else is
//   held with its reason (Bulgaria's "Lev New" after the lev's withdrawal carries the euro's figure).
// - The dollarised economies' rows (Ecuador, El Salvador, Panama, Palau...: 1 per 1 USD) are the base
//   itself, no rate: left out; such a row at another figure is held.
// - Each territory has its row, so a currency repeats (the CFA francs, the euro): the ingest gate folds
//   equal figures and holds a currency given two different ones.
import {
  AnswerRows,
  FeedError,
  RowProblem,
  addDays,
  currencyOf,
  defineAdapter,
  foldName,
  isIsoDate,
  jsonNumberText,
  parseJsonExact,
  requireDate,
  requireDecimal,
  resolveCurrencyName,
  rowProblem,
  todayIn,
  type CurrencyResolution,
  type FeedDocument,
  type IsoDate,
  type ParsedAnswer,
} from "../src/feed/kit.js";
import { currencyName } from "../src/feed/currency.js";

const ID = "UST";
const API = "https://api.fiscaldata.treasury.gov/services/api/fiscal_service/v1/accounting/od/rates_of_exchange";
const FIELDS = "record_date,effective_date,country_currency_desc,exchange_rate";
const BASE = "USD";
const PAGE_SIZE = 10000;

/** Labels (folded) no name rule reaches, each with why. */
export const UST_LABELS: Readonly<Record<string, string>> = {
  "china renminbi": "CNY", // renminbi is the yuan's other name (ISO 4217's "Yuan Renminbi")
  "congo cfa franc": "XAF", // "Congo" is two states; the CFA franc names the Republic of the Congo
  "cuba chavito": "CUC", // the popular name of the convertible peso
  "korea won": "KRW", // the Treasury's Korea is the Republic of Korea
  "lesotho maloti": "LSL", // maloti is the plural of loti
  // Economies using the US dollar, under their own words for it.
  "ecuador dolares": BASE,
  "el salvador dollar": BASE,
  "palau dollar": BASE,
  "panama dolares": BASE,
  "timor leste dili": BASE,
};

const pageUrl = (from: IsoDate, to: IsoDate, page: number) =>
  `${API}?fields=${FIELDS}&filter=record_date:gte:${from},record_date:lte:${to}` +
  `&page%5Bnumber%5D=${page}&page%5Bsize%5D=${PAGE_SIZE}&sort=record_date`;

/** The first quarter's end after `date`. */
function nextQuarterEnd(date: IsoDate): IsoDate {
  const year = Number(date.slice(0, 4));
  for (const end of ["03-31", "06-30", "09-30", "12-31"]) if (`${year}-${end}` > date) return `${year}-${end}`;
  return `${year + 1}-03-31`;
}

/** Words of a name, folded ("Cfa Franc" gives cfa, franc). */
const words = (text: string) => foldName(text).split(" ").filter(Boolean);

/** Letters and digits only ("Pa'Anga" and "Paʻanga" give paanga). */
const squashed = (text: string) => foldName(text).replace(/[^a-z0-9]/g, "");

/**
 * True when the unit is what the currency is called: every word of the unit begins a word of the
 * currency's English name or is begun by one ("Cfa Franc", "Marka" for "Convertible Mark"), or the
 * unit's letters stand in the name's ("Pa'Anga" in "Tongan Paʻanga").
 */
function unitNames(unit: string, code: string): boolean {
  const full = currencyName(code) ?? "";
  const name = words(full);
  const byWords = words(unit).every((u) => name.some((n) => n.startsWith(u) || (n.length >= 4 && u.startsWith(n))));
  return byWords || (squashed(unit).length >= 4 && squashed(full).includes(squashed(unit)));
}

const tryName = (label: string, date: IsoDate): CurrencyResolution | undefined => {
  try {
    return resolveCurrencyName(ID, label, { date });
  } catch (error) {
    if (error instanceof RowProblem) return undefined;
    throw error;
  }
};

/** A `Country-Currency` label's currency on a date, by the rules of the module comment; else a RowProblem. */
export function ustCurrency(label: string, date: IsoDate): CurrencyResolution {
  const alias = UST_LABELS[foldName(label)];
  if (alias) return { currency: alias };
  const cut = label.lastIndexOf("-");
  if (cut <= 0) rowProblem(ID, "unknown-currency", `"${label}" is not a Country-Currency label`, { currency: label });
  const territory = label.slice(0, cut).trim();
  const unit = label
    .slice(cut + 1)
    .replace(/\bnew\b/i, "")
    .trim();
  const whole = tryName(`${territory} ${unit}`, date);
  if (whole) return whole;
  const ofTerritory = tryName(territory, date);
  if (ofTerritory && unitNames(unit, ofTerritory.currency)) return ofTerritory;
  const ofUnit = tryName(unit, date);
  if (ofUnit && !ofTerritory) return ofUnit;
  const why = ofTerritory
    ? `${territory}'s currency on ${date} is ${ofTerritory.currency}, not called "${unit}"`
    : `neither "${territory}" nor "${unit}" names one currency on ${date}`;
  return rowProblem(ID, "unknown-currency", `label "${label}": ${why}`, { currency: label });
}

interface UstRow {
  record_date?: unknown;
  effective_date?: unknown;
  country_currency_desc?: unknown;
  exchange_rate?: unknown;
}

const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");

/** The body's rows and page count; anything but the API's shape refuses the answer. */
function pageOf(body: Uint8Array): { rows: UstRow[]; pages: number } {
  const doc = parseJsonExact(ID, body) as { data?: unknown; meta?: Record<string, unknown> } | null;
  if (typeof doc !== "object" || doc === null || !Array.isArray(doc.data) || typeof doc.meta !== "object") {
    throw new FeedError(ID, "not a Treasury rates_of_exchange answer: no data array and meta");
  }
  const pages = Number(jsonNumberText(doc.meta?.["total-pages"]) ?? "1");
  return { rows: doc.data as UstRow[], pages: Number.isInteger(pages) && pages > 0 ? pages : 1 };
}

function parsePage(body: Uint8Array): ParsedAnswer {
  const { rows: data } = pageOf(body);
  const rows = new AnswerRows(ID);
  data.forEach((entry, i) => {
    if (typeof entry !== "object" || entry === null || !("country_currency_desc" in entry)) {
      throw new FeedError(ID, `not a Treasury rates_of_exchange answer: data[${i}] has no country_currency_desc`);
    }
    const [recordDate, effective, label, rate] = [
      text(entry.record_date),
      text(entry.effective_date),
      text(entry.country_currency_desc),
      text(entry.exchange_rate),
    ];
    rows.read(
      `data[${i}] (${label})`,
      () => {
        const record = requireDate(ID, isIsoDate(recordDate) ? recordDate : undefined, recordDate);
        const from = requireDate(ID, isIsoDate(effective) ? effective : undefined, effective);
        const validTo = addDays(nextQuarterEnd(record), -1);
        if (from < record || from > validTo) {
          rowProblem(ID, "bad-date", `effective date ${from} is outside the quarter of record date ${record}`);
        }
        const figure = requireDecimal(ID, rate, "exchange_rate");
        const currency = currencyOf(ustCurrency(label, from));
        if (currency !== BASE) return { effectiveDate: from, validTo, currency, rate: figure };
        if (Number(figure) !== 1) rowProblem(ID, "bad-row", `a US dollar label at ${figure}, not 1 per 1 USD`);
        return undefined;
      },
      { effectiveDate: effective, currency: label, rate },
    );
  });
  if (data.length === 0) throw new FeedError(ID, "a Treasury rates_of_exchange answer without rates");
  return rows.result();
}

const ust = defineAdapter({
  bank: {
    id: ID,
    names: [{ languageCode: "en", name: "U.S. Treasury, Bureau of the Fiscal Service", abbreviatedName: "Treasury" }],
    dailyUpdateTime: "13:00:00",
    bankCurrency: BASE,
    countryCode: ["US"],
    region: ["Americas"],
    timeZone: "America/New_York",
    website: "https://fiscaldata.treasury.gov/datasets/treasury-reporting-rates-exchange/",
    quoteType: "Indirect",
    // Each quarter's table (record date: the quarter's end) comes out in the first working days after the
    // quarter ends: the daemon looks on the first five and expects that quarter end stored. An amendment
    // during the quarter is taken at the next run (the fetch reaches back over the whole quarter before).
    publicationDays: [1, 2, 3, 4, 5],
    cadence: { days: { kind: "afterQuarterEnd", count: 5 }, covers: "previousQuarterEnd" },
    coverageStart: "2001-03-31",
    maxRangeDays: 366,
    sourceUrl: API,
    supportedFrequencies: ["Quarterly"],
  },

  async fetch(range, { http }) {
    // The record dates whose figures can be in force in the range: from the quarter end before it.
    const today = todayIn("America/New_York");
    const { from, to } = range.kind === "range" ? range : { from: addDays(today, -100), to: today };
    const since = addDays(from, -92);
    const docs: FeedDocument[] = [];
    for (let page = 1, pages = 1; page <= pages; page++) {
      const doc = await http.get(pageUrl(since, to, page), { accept: "application/json" });
      pages = Math.min(pageOf(doc.body).pages, 100);
      docs.push(doc);
    }
    return docs;
  },

  parse(body) {
    return parsePage(body);
  },
});

export default ust;
