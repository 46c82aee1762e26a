// Bank of England: daily spot exchange rates against sterling from the Bank's Statistical Interactive
// Database (https://www.bankofengland.co.uk/boeapps/database/_iadb-fromshowcolumns.asp), as a pivoted
// CSV: `csv.x=yes&SeriesCodes=<codes>&UsingCodes=Y&CSVF=TN&Datefrom=17/Mar/2026&Dateto=18/Mar/2026`.
// - Answer: a DATE column (`17 Mar 2026`), then one column per series code (the codes below, each the
//   spot rate of one currency against sterling). Foreign units per 1 GBP (Indirect), as published. An
//   empty cell is a day without a value; a column of a series we do not know has figures no currency
//   can be given to, and they are held.
// - The rates are observed by the Bank's foreign exchange desk at about 16:00 London time, business
//   days. XUDLUSS starts in 1975, most other series later (the euro in 1999).
import {
  AnswerRows,
  decodeText,
  defineAdapter,
  recentDays,
  requireDecimal,
  rowProblem,
  type IsoDate,
} from "../src/feed/kit.js";
import { csvColumns, readCsv } from "../src/feed/csv.js";
import { fromDayMonthName } from "../src/feed/month-names.js";

const ID = "BOE";
const TIME_ZONE = "Europe/London";
const ENDPOINT = "https://www.bankofengland.co.uk/boeapps/database/_iadb-fromshowcolumns.asp";

/** Series code (spot rate against sterling) -> ISO code. */
export const BOE_SERIES: Readonly<Record<string, string>> = {
  XUDLUSS: "USD",
  XUDLERS: "EUR",
  XUDLJYS: "JPY",
  XUDLCDS: "CAD",
  XUDLSFS: "CHF",
  XUDLADS: "AUD",
  XUDLNDS: "NZD",
  XUDLNKS: "NOK",
  XUDLSKS: "SEK",
  XUDLDKS: "DKK",
  XUDLHDS: "HKD",
  XUDLSGS: "SGD",
  XUDLSRS: "SAR",
  XUDLZRS: "ZAR",
  XUDLTWS: "TWD",
  XUDLBK25: "CZK",
  XUDLBK33: "HUF",
  XUDLBK47: "PLN",
  XUDLBK78: "ILS",
  XUDLBK83: "MYR",
  XUDLBK87: "THB",
  XUDLBK89: "CNY",
  XUDLBK93: "KRW",
  XUDLBK95: "TRY",
  XUDLBK97: "INR",
  XUDLZOS4: "RON",
};

const shortMonth = new Intl.DateTimeFormat("en", { month: "short", timeZone: "UTC" });
/** 2026-03-17 -> 17/Mar/2026, the database's query syntax. */
const queryDate = (date: IsoDate) =>
  `${date.slice(8, 10)}/${shortMonth.format(new Date(`${date}T00:00:00Z`))}/${date.slice(0, 4)}`;

const boe = defineAdapter({
  bank: {
    id: ID,
    names: [{ languageCode: "en", name: "Bank of England", abbreviatedName: "BoE" }],
    // The rates are observed by the Bank's foreign exchange desk at about 4 pm London time.
    dailyUpdateTime: "16:00:00",
    bankCurrency: "GBP",
    // The United Kingdom, the Crown Dependencies and South Georgia use sterling.
    countryCode: ["GB", "GG", "IM", "JE", "GS"],
    region: ["Europe"],
    timeZone: TIME_ZONE,
    website: "https://www.bankofengland.co.uk",
    quoteType: "Indirect",
    publicationDays: [1, 2, 3, 4, 5],
    // XUDLUSS starts in 1975; most other series later (the euro in 1999).
    coverageStart: "1975-01-02",
    maxRangeDays: 365,
    sourceUrl: ENDPOINT,
  },

  async fetch(range, { http }) {
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 10);
    const url =
      `${ENDPOINT}?csv.x=yes&SeriesCodes=${Object.keys(BOE_SERIES).join(",")}&UsingCodes=Y&CSVF=TN` +
      `&Datefrom=${queryDate(from)}&Dateto=${queryDate(to)}`;
    return [await http.get(url, { accept: "text/csv, application/csv" })];
  },

  parse(body) {
    const [header = [], ...lines] = readCsv(ID, decodeText(ID, body));
    const at = csvColumns(ID, header, ["DATE"], "a Bank of England database CSV");
    const rows = new AnswerRows(ID);
    lines.forEach((line, i) => {
      const day = line[at.DATE] ?? "";
      const date = fromDayMonthName(day);
      if (!date)
        return rows.hold(`line ${i + 2}`, "bad-date", `DATE "${day}" is not a real date`, { effectiveDate: day });
      header.forEach((code, c) => {
        const raw = line[c] ?? "";
        if (c === at.DATE || raw === "") return; // no value that day
        rows.read(
          `line ${i + 2} ${code}`,
          () => {
            const currency = BOE_SERIES[code];
            if (!currency) rowProblem(ID, "unknown-currency", `series "${code}" is not one of the known spot rates`);
            return { effectiveDate: date, currency, rate: requireDecimal(ID, raw, `${code} on ${date}`) };
          },
          { effectiveDate: day, currency: code, rate: raw },
        );
      });
    });
    return rows.result();
  },
});

export default boe;
