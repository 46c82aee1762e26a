// National Bank of the Kyrgyz Republic: official rates of the som, KGS per Nominal units (Direct).
// Live endpoints: https://www.nbkr.kg/XML/daily.xml (5 currencies, set every working day) and
// XML/weekly.xml (~40, set weekly), declared windows-1251, decimal commas:
// <CurrencyRates Date="DD.MM.YYYY"><Currency ISOCode="JPY"><Nominal>10</Nominal><Value>5,4969</Value>.
// History: one HTML page per currency (index1.jsp?item=1562&lang=ENG&valuta_id=<id>&beg_day=..&end_year=..),
// rows marked by the comments <!--date--> and <!--value-->, read with cheerio wherever they stand on the
// page; "-" or an empty value is a day without a figure. The page names the currency only by the
// bank's internal valuta_id and gives no nominal: both come from the table below (ids from the bank's
// currency selector; the nominals of the currencies still in weekly.xml - JPY, AMD, HUF, IRR, IDR 10,
// BYR 100 - match its <Nominal>; the others' could not be checked against any answer).
// The rates are set at about 14:00 Bishkek time. The server drops clients after ~20 TLS handshakes, so
// one session (one kept-alive connection) serves a whole fetch.
// A currency or row whose code, date, nominal or figure cannot be read is held (every row of a history
// page whose valuta_id the table does not know too); a document without CurrencyRates, or a page that is
// neither a rate history nor an NBKR page, is refused.
import { load } from "../src/feed/cheerio.js";

import {
  AnswerRows,
  FeedError,
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
  type FeedDocument,
  type ParsedAnswer,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "NBKR";
const SITE = "https://www.nbkr.kg";

/** valuta_id of the history page to the ISO code and the nominal its figures are per. */
export const NBKR_VALUTA: Readonly<Record<string, { iso: string; nominal: number }>> = {
  15: { iso: "USD", nominal: 1 },
  56: { iso: "AUD", nominal: 1 },
  16: { iso: "ATS", nominal: 1 },
  82: { iso: "AZN", nominal: 1 },
  37: { iso: "AZM", nominal: 1000 },
  17: { iso: "GBP", nominal: 1 },
  38: { iso: "AMD", nominal: 10 },
  99: { iso: "AFN", nominal: 1 },
  39: { iso: "BYR", nominal: 100 },
  18: { iso: "BEF", nominal: 10 },
  100: { iso: "BGN", nominal: 1 },
  101: { iso: "BRL", nominal: 1 },
  51: { iso: "HUF", nominal: 10 },
  25: { iso: "KRW", nominal: 1 },
  102: { iso: "GEL", nominal: 1 },
  19: { iso: "DKK", nominal: 1 },
  103: { iso: "AED", nominal: 1 },
  20: { iso: "EUR", nominal: 1 },
  21: { iso: "INR", nominal: 1 },
  104: { iso: "IRR", nominal: 10 },
  22: { iso: "ITL", nominal: 100 },
  40: { iso: "KZT", nominal: 1 },
  23: { iso: "CAD", nominal: 1 },
  24: { iso: "CNY", nominal: 1 },
  50: { iso: "KWD", nominal: 1 },
  41: { iso: "LVL", nominal: 1 },
  42: { iso: "LTL", nominal: 1 },
  105: { iso: "MYR", nominal: 1 },
  43: { iso: "MDL", nominal: 1 },
  106: { iso: "MNT", nominal: 1 },
  26: { iso: "DEM", nominal: 1 },
  27: { iso: "NLG", nominal: 1 },
  57: { iso: "TRY", nominal: 1 },
  53: { iso: "NZD", nominal: 1 },
  107: { iso: "TWD", nominal: 1 },
  108: { iso: "TMT", nominal: 1 },
  28: { iso: "NOK", nominal: 1 },
  55: { iso: "PKR", nominal: 1 },
  109: { iso: "PLN", nominal: 1 },
  29: { iso: "PTE", nominal: 1 },
  44: { iso: "RUB", nominal: 1 },
  98: { iso: "RUR", nominal: 1000 },
  30: { iso: "XDR", nominal: 1 },
  86: { iso: "SGD", nominal: 1 },
  45: { iso: "TJS", nominal: 1 },
  49: { iso: "TJR", nominal: 100 },
  31: { iso: "TRL", nominal: 1000 },
  46: { iso: "UZS", nominal: 1 },
  47: { iso: "UAH", nominal: 1 },
  32: { iso: "FIM", nominal: 1 },
  33: { iso: "FRF", nominal: 1 },
  52: { iso: "CZK", nominal: 1 },
  34: { iso: "SEK", nominal: 1 },
  35: { iso: "CHF", nominal: 1 },
  48: { iso: "EEK", nominal: 1 },
  36: { iso: "JPY", nominal: 10 },
  139: { iso: "SAR", nominal: 1 },
  160: { iso: "BYN", nominal: 1 },
  180: { iso: "OMR", nominal: 1 },
  182: { iso: "HKD", nominal: 1 },
  184: { iso: "IDR", nominal: 10 },
};

type Node = Record<string, unknown>;

const text = (v: unknown) =>
  typeof v === "string" ? v.trim() : v === undefined || v === null ? "" : JSON.stringify(v);

function parseXmlRates(xml: string): ParsedAnswer {
  const root = parseXml(ID, xml).CurrencyRates as Node | undefined;
  if (!root) throw new FeedError(ID, "not an NBKR rates document: no CurrencyRates");
  const day = text(root["@Date"]);
  const rows = new AnswerRows(ID);
  asArray(root.Currency as Node[]).forEach((c) => {
    const code = text(c["@ISOCode"]);
    rows.read(
      `<Currency ISOCode="${code}">`,
      (): RateRecord => {
        const date = requireDate(ID, fromDayMonthYear(day), day);
        const currency = requireCurrencyCode(ID, code);
        const value = requireDecimal(ID, c.Value, `${code} Value`, { decimalComma: true });
        const nominal = requireUnits(ID, text(c.Nominal), `${code} Nominal`);
        return { effectiveDate: date, currency, ...perUnits(value, nominal) };
      },
      { effectiveDate: day, currency: code, rate: text(c.Value) },
    );
  });
  return rows.result();
}

function parseHistory(html: string, url: string): ParsedAnswer {
  const id = /[?&]valuta_id=(\d+)/.exec(url)?.[1];
  if (!id) throw new FeedError(ID, `a history page without valuta_id in its URL (${url})`);
  const valuta = NBKR_VALUTA[id];
  const $ = load(html);
  const rows = new AnswerRows(ID);
  let marked = 0;
  $("tr").each((_i, tr) => {
    const cells = $(tr).children("td").toArray();
    const find = (name: string) => cells.find((td) => ($(td).html() ?? "").trim().startsWith(`<!--${name}-->`));
    const dateCell = find("date");
    const valueCell = find("value");
    if (!dateCell && !valueCell) return; // a row of the page's layout
    marked++;
    const day = dateCell ? $(dateCell).text().trim() : "";
    const raw = valueCell ? $(valueCell).text().trim() : "";
    if (dateCell && valueCell && (raw === "" || raw === "-")) return; // no figure that day
    rows.read(
      `row ${marked}`,
      (): RateRecord => {
        if (!dateCell || !valueCell) rowProblem(ID, "bad-row", "a row with a date or a value but not both");
        if (!valuta) rowProblem(ID, "unknown-currency", `valuta_id ${id} is not a currency this adapter knows`);
        const date = requireDate(ID, fromDayMonthYear(day), day);
        const value = requireDecimal(ID, raw, `${valuta.iso} on ${date}`, { decimalComma: true });
        return { effectiveDate: date, currency: valuta.iso, ...perUnits(value, valuta.nominal) };
      },
      { effectiveDate: day, currency: valuta?.iso ?? `valuta_id ${id}`, rate: raw },
    );
  });
  // A page without any marked row is the bank's page for a period without rates, or not its page at all.
  if (marked === 0 && !/nbkr/i.test(html)) {
    throw new FeedError(ID, "neither a rate history nor an NBKR page (an error or WAF page?)");
  }
  return rows.result();
}

const nbkr = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "National Bank of the Kyrgyz Republic", abbreviatedName: "NBKR" },
      { languageCode: "ky", name: "Кыргыз Республикасынын Улуттук банкы", abbreviatedName: "КРУБ" },
      { languageCode: "ru", name: "Национальный банк Кыргызской Республики", abbreviatedName: "НБКР" },
    ],
    dailyUpdateTime: "14:00:00",
    bankCurrency: "KGS",
    countryCode: ["KG"],
    region: ["Asia"],
    timeZone: "Asia/Bishkek",
    website: "https://www.nbkr.kg",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "1999-01-01",
    maxRangeDays: 365,
    sourceUrl: `${SITE}/XML/daily.xml`,
  },

  // One session (one kept-alive connection): the server drops clients after ~20 TLS handshakes.
  async fetch(range, { http }) {
    const session = http.session();
    if (range.kind === "latest") {
      const accept = "application/xml, text/xml";
      return [
        await session.get(`${SITE}/XML/daily.xml`, { accept }),
        await session.get(`${SITE}/XML/weekly.xml`, { accept }),
      ];
    }
    const [fy, fm, fd] = range.from.split("-");
    const [ty, tm, td] = range.to.split("-");
    const docs: FeedDocument[] = [];
    for (const id of Object.keys(NBKR_VALUTA)) {
      const url = `${SITE}/index1.jsp?item=1562&lang=ENG&valuta_id=${id}&beg_day=${fd}&beg_month=${fm}&beg_year=${fy}&end_day=${td}&end_month=${tm}&end_year=${ty}`;
      docs.push(await session.get(url, { accept: "text/html" }));
    }
    return docs;
  },

  parse(body, { url }) {
    if (body.length === 0) throw new FeedError(ID, "empty body");
    const head = Buffer.from(body.subarray(0, 200)).toString("latin1").trimStart();
    if (head.startsWith("<?xml") || head.startsWith("<CurrencyRates")) {
      const declared = /encoding="([^"]+)"/i.exec(head)?.[1] ?? "utf-8";
      return parseXmlRates(decodeText(ID, body, declared));
    }
    const html = decodeText(ID, body);
    if (html.trim() === "") throw new FeedError(ID, "empty body");
    return parseHistory(html, url);
  },
});

export default nbkr;
