// Bulgarian National Bank: the exchange rates of the lev from the XML download of its rates page
// (ROWSET/ROW, UTF-8 with a BOM). The first ROW holds the column titles, not rates: its RATE title
// must name the lev ("Лева (BGN)" / "... (BGN)"), which proves RATE is BGN per RATIO units (Direct;
// RATIO 10/100/1000/10000 kept as unitMultiplier). REVERSERATE (units per 1 BGN) is ignored. The
// gold row (GOLD 2, code XAU) is priced per troy ounce, as its name says, and kept as published.
// Bulgaria adopted the euro on 2026-01-01: the lev rates end on 2025-12-31.
import {
  FeedError,
  addDays,
  asArray,
  decodeText,
  defineAdapter,
  fromDayMonthYear,
  parseXml,
  perUnits,
  requireDecimal,
  weekday,
  type FeedDocument,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "BNB";
const PAGE = "https://www.bnb.bg/Statistics/StExternalSector/StExchangeRates/StERForeignCurrencies/index.htm";
const TIME_ZONE = "Europe/Sofia";
const CODE = /^[A-Z]{3}$/;

type Row = Record<string, unknown>;

const text = (value: unknown) =>
  typeof value === "string" ? value.trim() : value === undefined || value === null ? "" : String(value);

const bnb = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Bulgarian National Bank", abbreviatedName: "BNB" },
      { languageCode: "bg", name: "Българска народна банка", abbreviatedName: "БНБ" },
    ],
    // "every working day ... by 18:00 Bulgarian time, valid for the same working day" (BNB, 16 June 2016).
    dailyUpdateTime: "18:00:00",
    bankCurrency: "BGN",
    countryCode: ["BG"],
    region: ["Europe"],
    timeZone: TIME_ZONE,
    website: "https://www.bnb.bg",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "1999-01-04",
    // The lev fixings ended with 2025 (the euro replaced the lev on 2026-01-01): the history is loaded by
    // backfill, and a daily run would only ever find nothing new.
    historicalOnly: true,
    maxRangeDays: 31,
    sourceUrl: `${PAGE}?download=xml&search=&lang=BG`,
  },

  // Latest: the page's XML download. A range: the same page's search for one date, as XML, per weekday.
  async fetch(range, { http }) {
    const accept = "text/xml, application/xml";
    if (range.kind === "latest") return [await http.get(`${PAGE}?download=xml&search=&lang=BG`, { accept })];
    const docs: FeedDocument[] = [];
    for (let day = range.from; day <= range.to; day = addDays(day, 1)) {
      if (weekday(day) > 5) continue;
      const [y, m, d] = day.split("-");
      docs.push(
        await http.get(
          `${PAGE}?downloadOper=true&group1=first&firstDays=${d}&firstMonths=${m}&firstYear=${y}&search=true&type=XML`,
          { accept },
        ),
      );
    }
    return docs;
  },

  parse(body) {
    const doc = parseXml(ID, decodeText(ID, body));
    const rowset = doc.ROWSET as { ROW?: unknown } | undefined;
    if (typeof rowset !== "object" || rowset === null) throw new FeedError(ID, "not a BNB rates download: no ROWSET");
    const rows = asArray(rowset.ROW as Row[]);
    const header = rows[0];
    if (!header || fromDayMonthYear(text(header.CURR_DATE)))
      throw new FeedError(ID, "the first ROW is not the row of column titles");
    if (!/\(BGN\)/.test(text(header.RATE)))
      throw new FeedError(ID, `the RATE column is titled "${text(header.RATE)}", not levs (BGN)`);
    if (text(header.CODE) === "" || text(header.RATIO) === "")
      throw new FeedError(ID, "the title row has no CODE or RATIO title");
    return rows.slice(1).map((row, i): RateRecord => {
      const code = text(row.CODE);
      if (!CODE.test(code)) throw new FeedError(ID, `row ${i + 1}: CODE "${code}" is not a currency code`);
      const date = fromDayMonthYear(text(row.CURR_DATE));
      if (!date) throw new FeedError(ID, `${code}: CURR_DATE "${text(row.CURR_DATE)}" is not DD.MM.YYYY`);
      const rate = requireDecimal(ID, text(row.RATE), `${code} RATE`);
      const ratio = requireDecimal(ID, text(row.RATIO), `${code} RATIO`);
      if (!/^[1-9]\d*$/.test(ratio)) throw new FeedError(ID, `${code}: RATIO "${ratio}" is not a whole number`);
      if (code === "XAU" && !/трой унц|troy ounce/i.test(text(row.NAME_))) {
        throw new FeedError(ID, `gold is not priced per troy ounce here ("${text(row.NAME_)}")`);
      }
      return { effectiveDate: date, currency: code, ...perUnits(rate, ratio) };
    });
  },
});

export default bnb;
