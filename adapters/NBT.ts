// National Bank of Tajikistan: the official rates of the somoni, as XML, one call per calendar day.
// TJS per Nominal foreign units (Direct): a Nominal of 10, 100, 1000 is kept as unitMultiplier.
// The Valute ID attribute is unreliable in old records, so CharCode gives the currency.
// An out-of-range date is answered with today's snapshot, so a snapshot whose Date differs from the date asked
// for (in the URL) is not that day's and yields nothing. Saturday and Sunday snapshots only carry Friday's rates
// forward and are dropped.
import {
  FeedError,
  addDays,
  asArray,
  decodeText,
  defineAdapter,
  isIsoDate,
  parseXml,
  perUnits,
  requireDecimal,
  todayIn,
  weekday,
  type FeedDocument,
  type IsoDate,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "NBT";
const ENDPOINT = "https://www.nbt.tj/en/kurs/export_xml.php";
const TIME_ZONE = "Asia/Dushanbe";
const CODE = /^[A-Z]{3}$/;

type Node = Record<string, unknown>;

function askedDate(url: string): IsoDate | undefined {
  try {
    const date = new URL(url).searchParams.get("date");
    return date && isIsoDate(date) ? date : undefined;
  } catch {
    return undefined;
  }
}

const nbt = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "National Bank of Tajikistan", abbreviatedName: "NBT" },
      { languageCode: "tg", name: "Бонки миллии Тоҷикистон", abbreviatedName: "БМТ" },
    ],
    dailyUpdateTime: "09:00:00",
    bankCurrency: "TJS",
    countryCode: ["TJ"],
    region: ["Asia"],
    timeZone: TIME_ZONE,
    website: "https://www.nbt.tj",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "2001-01-01",
    maxRangeDays: 31,
    sourceUrl: `${ENDPOINT}?export=xmlout`,
  },

  async fetch(range, { http }) {
    const days: IsoDate[] = [];
    if (range.kind === "latest") {
      // The newest weekday up to today.
      let day = todayIn(TIME_ZONE);
      while (weekday(day) > 5) day = addDays(day, -1);
      days.push(day);
    } else {
      for (let day = range.from; day <= range.to; day = addDays(day, 1)) if (weekday(day) <= 5) days.push(day);
    }
    const docs: FeedDocument[] = [];
    for (const day of days)
      docs.push(await http.get(`${ENDPOINT}?date=${day}&export=xmlout`, { accept: "application/xml, text/xml" }));
    return docs;
  },

  parse(body, { url }) {
    const doc = parseXml(ID, decodeText(ID, body));
    const root = doc.ValCurs as Node | undefined;
    if (!root || typeof root !== "object") throw new FeedError(ID, "not an NBT rate sheet: no ValCurs root");
    const date = String(root["@Date"] ?? "").trim();
    if (!isIsoDate(date)) throw new FeedError(ID, `ValCurs Date "${date}" is not a date`);
    const asked = askedDate(url);
    if (asked && asked !== date) return []; // today's snapshot given for a date out of range
    if (weekday(date) > 5) return []; // a weekend carries Friday's rates forward
    return asArray(root.Valute as Node[]).map((v, i): RateRecord => {
      const code = typeof v.CharCode === "string" ? v.CharCode.trim() : "";
      if (!CODE.test(code))
        throw new FeedError(ID, `Valute ${i} of ${date}: CharCode "${String(v.CharCode)}" is not a currency code`);
      const value = requireDecimal(ID, v.Value, `${code} of ${date} Value`);
      const nominal = requireDecimal(ID, v.Nominal, `${code} of ${date} Nominal`);
      if (!/^[1-9]\d*$/.test(nominal))
        throw new FeedError(ID, `${code} of ${date}: Nominal "${nominal}" is not a whole number`);
      return { effectiveDate: date, currency: code, ...perUnits(value, nominal) };
    });
  },
});

export default nbt;
