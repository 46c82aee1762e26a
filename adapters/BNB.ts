// Bulgarian National Bank: the exchange rates of the lev from the XML download of its rates page
// (https://www.bnb.bg/Statistics/StExternalSector/StExchangeRates/StERForeignCurrencies/index.htm).
// - Fetch: the latest is `?download=xml&search=&lang=BG`; a past day is the page's search for one date
//   (`downloadOper=true&group1=first&firstDays=DD&firstMonths=MM&firstYear=YYYY&search=true&type=XML`),
//   one call per weekday.
// - Answer: ROWSET/ROW, UTF-8 with a BOM. A ROW with GOLD 0 holds the column titles, not rates: its
//   RATE title must name the lev ("Лева (BGN)"), which proves RATE is BGN per RATIO units (Direct;
//   RATIO 10/100/1000/10000 kept as unitMultiplier). REVERSERATE (units per 1 BGN) is ignored. Every
//   title row met is checked, and the rows under each are read.
// - Gold (GOLD 2, code XAU) is priced per troy ounce, as its name says ("Злато (в трой унции)"), and
//   kept as published; a gold row that does not say so cannot be placed on a unit and is held.
// - Dates DD.MM.YYYY. Published every working day by 18:00 Sofia time, valid for that day. Bulgaria
//   adopted the euro on 2026-01-01: the lev rates end on 2025-12-31.
import {
  AnswerRows,
  FeedError,
  addDays,
  asArray,
  decodeText,
  defineAdapter,
  fromDayMonthYear,
  parseXml,
  perUnits,
  requireCurrencyCode,
  requireDate,
  requireDecimal,
  requireUnits,
  rowProblem,
  weekday,
  type FeedDocument,
} from "../src/feed/kit.js";

const ID = "BNB";
const PAGE = "https://www.bnb.bg/Statistics/StExternalSector/StExchangeRates/StERForeignCurrencies/index.htm";
const TIME_ZONE = "Europe/Sofia";

type Row = Record<string, unknown>;

const text = (value: unknown) =>
  typeof value === "string" ? value.trim() : value === undefined || value === null ? "" : JSON.stringify(value);

/** The row of column titles: its CURR_DATE is a title ("Date"), not a date. */
const isTitleRow = (row: Row) => text(row.CURR_DATE) !== "" && !/\d/.test(text(row.CURR_DATE));

/** A title row must say that RATE is in levs and name the CODE and RATIO columns: else the layout changed. */
function checkTitles(row: Row, at: number): void {
  if (!/\(BGN\)/.test(text(row.RATE)))
    throw new FeedError(ID, `ROW ${at}: the RATE column is titled "${text(row.RATE)}", not levs (BGN)`);
  if (text(row.CODE) === "" || text(row.RATIO) === "")
    throw new FeedError(ID, `ROW ${at}: the title row has no CODE or RATIO title`);
}

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
    coverageEnd: "2025-12-31",
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
    const all = asArray(rowset.ROW as Row[]);
    const first = all[0];
    if (!first || !isTitleRow(first)) throw new FeedError(ID, "the first ROW is not the row of column titles");
    const rows = new AnswerRows(ID);
    all.forEach((row, i) => {
      if (isTitleRow(row)) return checkTitles(row, i + 1);
      const [code, day, rawRate, rawRatio] = [text(row.CODE), text(row.CURR_DATE), text(row.RATE), text(row.RATIO)];
      rows.read(
        `ROW ${i + 1}`,
        () => {
          const currency = requireCurrencyCode(ID, code);
          const date = requireDate(ID, fromDayMonthYear(day), day);
          const rate = requireDecimal(ID, rawRate, `${currency} RATE`);
          const ratio = requireUnits(ID, rawRatio, `${currency} RATIO`);
          if (currency === "XAU" && !/трой унц|troy ounce/i.test(text(row.NAME_))) {
            rowProblem(ID, "unknown-unit", `gold is not priced per troy ounce here ("${text(row.NAME_)}")`);
          }
          return { effectiveDate: date, currency, ...perUnits(rate, ratio) };
        },
        { effectiveDate: day, currency: code, rate: rawRate },
      );
    });
    return rows.result();
  },
});

export default bnb;
