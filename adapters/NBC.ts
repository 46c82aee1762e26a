// National Bank of Cambodia: the daily exchange rates of the riel (KHR), an HTML page. A date is asked
// for with a form POST (exdate=YYYY-MM-DD, the page's one-time CSRF token `tk`, view=View) in the
// session (cookie) of a GET of the same page; the GET alone shows the newest day. USD is the headline
// "Official Exchange Rate : 4014 KHR / USD"; the other currencies are the `Average` column of the
// table, KHR per `Unit` units (1, 100 or 1000; Direct), the unit kept as unitMultiplier. Columns are
// found by their labels. SDR is written XDR; CNH (the offshore yuan) is not an ISO 4217 code and is
// left out. "There is no data available" marks a day without rates. A CloudFront WAF sometimes
// answers 403, which the HTTP client reports as an error.
import * as cheerio from "cheerio";

import {
  FeedError,
  addDays,
  decodeText,
  defineAdapter,
  isIsoDate,
  perUnits,
  requireDecimal,
  weekday,
  type FeedDocument,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "NBC";
const ENDPOINT = "https://www.nbc.gov.kh/english/economic_research/exchange_rate.php";
const LEFT_OUT = new Set(["CNH"]);
const RENAMED: Readonly<Record<string, string>> = { SDR: "XDR" };

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
      docs.push(landing);
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
    if (/There is no data available/i.test(text)) return [];
    const $ = cheerio.load(text);
    const form = $("form#fm-ex").text().replace(/\s+/g, " ");
    const dated = /Exchange Rate on : (\d{4}-\d{2}-\d{2})/.exec(form);
    if (!dated)
      throw new FeedError(ID, 'not the NBC exchange-rate page: no "Exchange Rate on" date (an error or WAF page?)');
    const date = dated[1]!;
    if (!isIsoDate(date)) throw new FeedError(ID, `"Exchange Rate on" date "${date}" is not a real date`);
    const official = /Official Exchange Rate : ([\d.,]+) KHR \/ USD/.exec(form);
    if (!official) throw new FeedError(ID, `no "Official Exchange Rate ... KHR / USD" for ${date}`);
    const records: RateRecord[] = [
      { effectiveDate: date, currency: "USD", rate: requireDecimal(ID, official[1], `USD official rate on ${date}`) },
    ];

    const table = $("table.tbl-responsive").first();
    if (table.length === 0 || !/<\/table>/.test(text.slice(text.indexOf("tbl-responsive"))))
      throw new FeedError(ID, `no complete rates table for ${date}`);
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
    for (const row of rows.slice(1)) {
      const cells = $(row)
        .children("td")
        .toArray()
        .map((td) => $(td).text().trim());
      if (cells.length !== labels.length)
        throw new FeedError(ID, `a row of ${cells.length} cells under ${labels.length} columns on ${date}`);
      const symbol = /^([A-Z]{3})\/KHR$/.exec(cells[symbolCol]!);
      if (!symbol) throw new FeedError(ID, `symbol "${cells[symbolCol]}" on ${date} is not XXX/KHR`);
      if (LEFT_OUT.has(symbol[1]!)) continue;
      const currency = RENAMED[symbol[1]!] ?? symbol[1]!;
      const units = cells[unitCol]!;
      if (!/^[1-9]\d*$/.test(units))
        throw new FeedError(ID, `${currency} on ${date}: Unit "${units}" is not a whole number`);
      const average = requireDecimal(ID, cells[averageCol], `${currency} Average on ${date}`);
      records.push({ effectiveDate: date, currency, ...perUnits(average, units) });
    }
    return records;
  },
});

export default nbc;
