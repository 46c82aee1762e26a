// National Bank of Cambodia: the daily exchange rates of the riel (KHR), an HTML page.
// Endpoint: https://www.nbc.gov.kh/english/economic_research/exchange_rate.php. A GET shows the newest
// day; an earlier date is asked for with a form POST (exdate=YYYY-MM-DD, the page's one-time CSRF token
// `tk`, view=View) in the session (cookie) of a GET of the same page. That GET is read only for the token:
// `fetch` marks it navigation (it shares its URL with the answer, so no URL pattern can tell them apart).
// Format: the day in the form's "Exchange Rate on : 2026-05-18"; USD is the headline "Official Exchange
// Rate : 4014 KHR / USD"; the other currencies are rows of the table.tbl-responsive, columns found by
// their labels (Symbol `AUD/KHR`, Unit, Average ...).
// Quote: KHR per `Unit` units (1, 100 or 1000; Direct) of the `Average` column, the unit kept as
// unitMultiplier. Posted on working days at about 16:30 Phnom Penh time. "There is no data available"
// marks a day without rates. SDR is the standard's abbreviation of XDR; CNH (the offshore yuan) is a
// market code, published as such and never mapped to CNY. A CloudFront WAF sometimes answers 403.
// A row whose symbol, unit or figure cannot be read is held; a page without its date, headline or a
// complete table with the Symbol/Unit/Average labels (an error page, a changed layout) is refused.
import * as cheerio from "../src/feed/cheerio.js";

import {
  AnswerRows,
  FeedError,
  addDays,
  decodeText,
  defineAdapter,
  isIsoDate,
  noPublication,
  perUnits,
  requireDate,
  requireDecimal,
  requireUnits,
  resolveCurrency,
  rowProblem,
  weekday,
  type FeedDocument,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "NBC";
const ENDPOINT = "https://www.nbc.gov.kh/english/economic_research/exchange_rate.php";

const nbc = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "National Bank of Cambodia", abbreviatedName: "NBC" },
      { languageCode: "km", name: "ធនាគារជាតិនៃកម្ពុជា", abbreviatedName: "ធ.ជ.ក" },
    ],
    // The official rate of the day is posted about 16:30 Phnom Penh time (not verified on the bank's site).
    dailyUpdateTime: "16:30:00",
    bankCurrency: "KHR",
    countryCode: ["KH"],
    region: ["Asia"],
    timeZone: "Asia/Phnom_Penh",
    website: "https://www.nbc.gov.kh",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    // Not verified: the first day the date form serves.
    coverageStart: "2010-01-04",
    // Friday's page already shows Monday's rates (set for the next business day): up to 4 days ahead
    // across a weekend and a holiday.
    maxDaysAhead: 4,
    maxRangeDays: 31,
    sourceUrl: ENDPOINT,
  },

  // "latest": the page as served. A range: per weekday, a GET for a fresh token and cookie, then the POST.
  async fetch(range, { http }) {
    const accept = "text/html";
    if (range.kind === "latest") return [await http.get(ENDPOINT, { accept })];
    const docs: FeedDocument[] = [];
    for (let day = range.from; day <= range.to; day = addDays(day, 1)) {
      if (weekday(day) > 5) continue;
      const session = http.session();
      const landing = await session.get(ENDPOINT, { accept });
      docs.push({ ...landing, role: "navigation" });
      const token = cheerio.load(decodeText(ID, landing.body))('input[name="tk"]').attr("value");
      if (!token) throw new FeedError(ID, "no CSRF token (tk) on the exchange-rate page");
      const form = `exdate=${day}&tk=${encodeURIComponent(token)}&view=View`;
      docs.push(await session.post(ENDPOINT, form, { accept, headers: { Referer: ENDPOINT } }));
    }
    return docs;
  },

  parse(body) {
    const text = decodeText(ID, body);
    if (text.trim() === "") throw new FeedError(ID, "empty body where the exchange-rate page was expected");
    if (/There is no data available/i.test(text)) return noPublication("There is no data available for the day asked");
    const $ = cheerio.load(text);
    const form = $("form#fm-ex").text().replace(/\s+/g, " ");
    const dated = /Exchange Rate on : (\d{4}-\d{2}-\d{2})/.exec(form);
    if (!dated)
      throw new FeedError(ID, 'not the NBC exchange-rate page: no "Exchange Rate on" date (an error or WAF page?)');
    const day = dated[1]!;
    const official = /Official Exchange Rate : ([\d.,]+) KHR \/ USD/.exec(form);
    if (!official) throw new FeedError(ID, `no "Official Exchange Rate ... KHR / USD" for ${day}`);
    const table = $("table.tbl-responsive").first();
    if (table.length === 0 || !/<\/table>/.test(text.slice(text.indexOf("tbl-responsive"))))
      throw new FeedError(ID, `no complete rates table for ${day}`);
    const rows = table.find("tr").toArray();
    const labels = $(rows[0])
      .children("td")
      .toArray()
      .map((td) => $(td).text().trim());
    const col = (label: string) => {
      const i = labels.indexOf(label);
      if (i < 0) throw new FeedError(ID, `no "${label}" column (columns: ${labels.join(", ")})`);
      return i;
    };
    const [symbolCol, unitCol, averageCol] = [col("Symbol"), col("Unit"), col("Average")];

    const answer = new AnswerRows(ID);
    // Every figure of the page is for its one date: a date that does not exist holds them all.
    const date = () => requireDate(ID, isIsoDate(day) ? day : undefined, day);
    answer.read(
      "Official Exchange Rate",
      () => ({ effectiveDate: date(), currency: "USD", rate: requireDecimal(ID, official[1], "USD official rate") }),
      { effectiveDate: day, currency: "USD", rate: official[1]! },
    );
    rows.slice(1).forEach((row, i) => {
      const cells = $(row)
        .children("td")
        .toArray()
        .map((td) => $(td).text().trim());
      const symbol = cells[symbolCol] ?? "";
      answer.read(
        `row ${i + 1}`,
        (): RateRecord => {
          if (cells.length !== labels.length)
            rowProblem(ID, "bad-row", `${cells.length} cells under ${labels.length} columns`);
          const code = /^([A-Z]{3})\/KHR$/.exec(symbol);
          if (!code) rowProblem(ID, "unknown-currency", `symbol "${symbol}" is not XXX/KHR`);
          const currency = resolveCurrency(ID, code[1]!);
          const units = requireUnits(ID, cells[unitCol], `${currency} Unit`);
          const average = requireDecimal(ID, cells[averageCol], `${currency} Average`);
          return { effectiveDate: date(), currency, ...perUnits(average, units) };
        },
        { effectiveDate: day, currency: symbol, rate: cells[averageCol] ?? "" },
      );
    });
    return answer.result();
  },
});

export default nbc;
