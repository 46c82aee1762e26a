// National Bank of Serbia: the official middle exchange rate of the dinar, as the XML download of an
// exchange rate list from webappcenter.nbs.rs. `Middle_Rate` is RSD per `Unit` units (Direct; 100
// kept as unitMultiplier 2). The bank also publishes lists of buying and selling rates for foreign
// exchange and for cash (header Type "FOREIGN EXCHANGE" / "FOREIGN CASH"): those are not the official
// middle rate and are read as no records. The list to download is named by a GUID found on the HTML
// page of the current list, or of the list in force on a date (one session carries the cookies).
import { load } from "cheerio";

import {
  FeedError,
  addDays,
  asArray,
  decodeText,
  defineAdapter,
  fromDayMonthYear,
  looksLikeHtml,
  parseXml,
  perUnits,
  requireDecimal,
  weekday,
  type FeedDocument,
  type HttpClient,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "NBS";
const APP = "https://webappcenter.nbs.rs/ExchangeRateWebApp/ExchangeRate";
const TIME_ZONE = "Europe/Belgrade";
const CODE = /^[A-Z]{3}$/;
const GUID = /ExchangeRateListID=([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/i;

type Node = Record<string, unknown>;

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

async function page(http: HttpClient, url: string): Promise<string | undefined> {
  const doc = await http.get(url, { accept: "text/html" });
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
    if (range.kind === "latest") {
      const id = await page(session, `${APP}/CurrentMiddleRate`);
      if (!id) throw new FeedError(ID, "the current middle rate page links to no list");
      return [await session.get(download(id), { accept })];
    }
    const docs: FeedDocument[] = [];
    const seen = new Set<string>();
    for (let day = range.from; day <= range.to; day = addDays(day, 1)) {
      if (weekday(day) > 5) continue;
      const id = await page(
        session,
        `${APP}/IndexByDate?isSearchExecuted=true&Date=${ddmmyyyy(day)}&ExchangeRateListTypeID=3`,
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
    const type = String(header.Type ?? "");
    const items = asArray((root.Item ?? root.item) as Node[]);
    if (/FOREIGN (EXCHANGE|CASH)|devize|efektiva/i.test(type) && !/MIDDLE|srednji/i.test(type)) return []; // buying/selling lists
    if (!/MIDDLE|srednji/i.test(type)) throw new FeedError(ID, `unknown exchange rate list type "${type}"`);
    const date = fromDayMonthYear(String(header.Date ?? ""));
    if (!date) throw new FeedError(ID, `list date "${String(header.Date)}" is not DD.MM.YYYY`);
    return items.map((item): RateRecord => {
      const code = String(item.Currency ?? "");
      if (!CODE.test(code)) throw new FeedError(ID, `Currency "${code}" is not a currency code`);
      const middle = requireDecimal(ID, item.Middle_Rate, `${code} Middle_Rate`);
      const unit = requireDecimal(ID, item.Unit, `${code} Unit`);
      if (!/^[1-9]\d*$/.test(unit)) throw new FeedError(ID, `${code}: Unit "${unit}" is not a whole number`);
      return { effectiveDate: date, currency: code, ...perUnits(middle, unit) };
    });
  },
});

export default nbs;
