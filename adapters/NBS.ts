// National Bank of Serbia: the official middle exchange rate of the dinar, as the XML download of an
// exchange rate list from webappcenter.nbs.rs (ExchangeRate/Download?ExchangeRateListID={GUID}
// &ExchangeRateListTypeName=srednjiKurs&Format=xml). The list is set at about 08:00 Belgrade time on
// working days: <Exchange_Rates_List><header><Date>DD.MM.YYYY</Date><Type>…</Type></header><Item>…
// with Currency, Unit and Middle_Rate. `Middle_Rate` is RSD per `Unit` units (Direct; 100 kept as
// unitMultiplier 2). The bank also publishes lists of buying and selling rates for foreign exchange
// and for cash (header Type "FOREIGN EXCHANGE" / "FOREIGN CASH", or devize / efektiva): those are not
// the official middle rate and are read as no records; any other list type means the format changed.
// The list to download is named by a GUID found on an HTML page (CurrentMiddleRate for the current
// list, IndexByDate?Date=DD.MM.YYYY for the list in force on a day; one session carries the cookies):
// those pages are navigation, recorded but never parsed. Old lists (2015) still carry the legacy
// euro-area currencies (DEM, FRF...), which are ISO 4217 historical codes and are taken as given.
import { load } from "../src/feed/cheerio.js";

import {
  AnswerRows,
  FeedError,
  addDays,
  asArray,
  decodeText,
  defineAdapter,
  fromDayMonthYear,
  looksLikeHtml,
  parseXml,
  perUnits,
  requireCurrencyCode,
  requireDate,
  requireDecimal,
  requireUnits,
  weekday,
  type FeedDocument,
  type HttpClient,
} from "../src/feed/kit.js";

const ID = "NBS";
const APP = "https://webappcenter.nbs.rs/ExchangeRateWebApp/ExchangeRate";
const TIME_ZONE = "Europe/Belgrade";
const GUID = /ExchangeRateListID=([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/i;

type Node = Record<string, unknown>;
const textOf = (v: unknown) => (typeof v === "string" ? v : "");

/** The one exchange rate list a page links to; undefined when it shows none (no list that day). */
export function listIdOf(html: string): string | undefined {
  const $ = load(html);
  const ids = new Set<string>();
  $("a[href]").each((_i, a) => {
    const m = GUID.exec($(a).attr("href") ?? "");
    if (m) ids.add(m[1]!.toLowerCase());
  });
  if (ids.size > 1) throw new FeedError(ID, `the page links to ${ids.size} different exchange rate lists`);
  return [...ids][0];
}

/** Fetches a page that names the list (kept as a navigation answer), and the list's id on it. */
async function page(http: HttpClient, url: string, docs: FeedDocument[]): Promise<string | undefined> {
  const doc = await http.get(url, { accept: "text/html" });
  docs.push({ ...doc, role: "navigation" });
  const html = decodeText(ID, doc.body);
  if (html.trim() === "") throw new FeedError(ID, `empty page at ${url}`);
  // The bank's own pages link within its application; a WAF or error page served with 200 does not.
  if (!html.includes("ExchangeRateWebApp"))
    throw new FeedError(ID, `not the exchange rate application's page at ${url} (an error or WAF page?)`);
  return listIdOf(html);
}

const download = (id: string) =>
  `${APP}/Download?ExchangeRateListID=${id}&ExchangeRateListTypeName=srednjiKurs&Format=xml`;
const ddmmyyyy = (date: string) => `${date.slice(8, 10)}.${date.slice(5, 7)}.${date.slice(0, 4)}`;

const nbs = defineAdapter({
  navigation: /\/ExchangeRate\/(CurrentMiddleRate|IndexByDate)/,
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "National Bank of Serbia", abbreviatedName: "NBS" },
      { languageCode: "sr", name: "Народна банка Србије", abbreviatedName: "НБС" },
    ],
    dailyUpdateTime: "08:00:00",
    bankCurrency: "RSD",
    countryCode: ["RS"],
    region: ["Europe"],
    timeZone: TIME_ZONE,
    website: "https://www.nbs.rs",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "2002-01-01",
    maxRangeDays: 31,
    sourceUrl: `${APP}/CurrentMiddleRate`,
  },

  async fetch(range, { http }) {
    const session = http.session();
    const accept = "application/xml, text/xml";
    const docs: FeedDocument[] = [];
    if (range.kind === "latest") {
      const id = await page(session, `${APP}/CurrentMiddleRate`, docs);
      if (!id) throw new FeedError(ID, "the current middle rate page links to no list");
      docs.push(await session.get(download(id), { accept }));
      return docs;
    }
    const seen = new Set<string>();
    for (let day = range.from; day <= range.to; day = addDays(day, 1)) {
      if (weekday(day) > 5) continue;
      const id = await page(
        session,
        `${APP}/IndexByDate?isSearchExecuted=true&Date=${ddmmyyyy(day)}&ExchangeRateListTypeID=3`,
        docs,
      );
      if (!id || seen.has(id)) continue; // a holiday shows no list, or the list in force
      seen.add(id);
      docs.push(await session.get(download(id), { accept }));
    }
    return docs;
  },

  parse(body) {
    const text = decodeText(ID, body);
    if (looksLikeHtml(text)) throw new FeedError(ID, "an HTML page where an exchange rate list (XML) was expected");
    const root = parseXml(ID, text).Exchange_Rates_List as Node | undefined;
    const header = root?.header as Node | undefined;
    if (!root || !header) throw new FeedError(ID, "not an NBS exchange rate list: no Exchange_Rates_List header");
    const type = textOf(header.Type);
    const rows = new AnswerRows(ID);
    if (/FOREIGN (EXCHANGE|CASH)|devize|efektiva/i.test(type) && !/MIDDLE|srednji/i.test(type)) return rows.result(); // buying/selling lists
    if (!/MIDDLE|srednji/i.test(type)) throw new FeedError(ID, `unknown exchange rate list type "${type}"`);
    const rawDate = textOf(header.Date);
    for (const [i, item] of asArray((root.Item ?? root.item) as Node[]).entries()) {
      const code = textOf(item.Currency);
      rows.read(
        `Item ${i + 1} (${code})`,
        () => {
          const date = requireDate(ID, fromDayMonthYear(rawDate), rawDate);
          const currency = requireCurrencyCode(ID, code);
          const middle = requireDecimal(ID, item.Middle_Rate, `${code} Middle_Rate`);
          const unit = requireUnits(ID, item.Unit, `${code} Unit`);
          return { effectiveDate: date, currency, ...perUnits(middle, unit) };
        },
        {
          effectiveDate: rawDate,
          currency: code,
          rate: typeof item.Middle_Rate === "string" ? item.Middle_Rate : undefined,
        },
      );
    }
    return rows.result();
  },
});

export default nbs;
