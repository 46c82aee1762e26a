// National Bank of Tajikistan: the official rates of the somoni, as XML, one call per calendar day:
// export_xml.php?date=YYYY-MM-DD&export=xmlout answers <ValCurs Date="YYYY-MM-DD"> with one
// <Valute ID> per currency (CharCode, Nominal, Name, Value). TJS per Nominal foreign units (Direct):
// a Nominal of 10, 100, 1000 is kept as unitMultiplier, any other count is divided out exactly.
// Set at about 09:00 Dushanbe time on working days. The Valute ID attribute is unreliable in old
// records, so CharCode gives the currency. An out-of-range date is answered with today's snapshot,
// so a snapshot whose Date differs from the date asked for (in the URL) is not that day's and yields
// nothing. Saturday and Sunday snapshots only carry Friday's rates forward and are skipped. A Date
// that is no real day holds every Valute of the snapshot; a ValCurs without Date is not the format.
import {
  AnswerRows,
  FeedError,
  addDays,
  asArray,
  decodeText,
  defineAdapter,
  isIsoDate,
  noPublication,
  parseXml,
  perUnits,
  requireCurrencyCode,
  requireDate,
  requireDecimal,
  requireUnits,
  todayIn,
  weekday,
  type FeedDocument,
  type IsoDate,
} from "../src/feed/kit.js";

const ID = "NBT";
const ENDPOINT = "https://www.nbt.tj/en/kurs/export_xml.php";
const TIME_ZONE = "Asia/Dushanbe";

type Node = Record<string, unknown>;
const text = (v: unknown) => (typeof v === "string" ? v : "");

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
    if (typeof root["@Date"] !== "string") throw new FeedError(ID, "not an NBT rate sheet: ValCurs has no Date");
    const rawDate = root["@Date"].trim();
    const date = isIsoDate(rawDate) ? rawDate : undefined;
    const rows = new AnswerRows(ID);
    const asked = askedDate(url);
    if (date && asked && asked !== date)
      return noPublication(`the sheet of ${date} given for ${asked}: no publication on the day asked`);
    if (date && weekday(date) > 5)
      return noPublication(`a sheet dated ${date}, a weekend (Friday's rates carried forward)`);
    for (const [i, v] of asArray(root.Valute as Node[]).entries()) {
      const code = typeof v.CharCode === "string" ? v.CharCode.trim() : "";
      rows.read(
        `<Valute ID="${text(v["@ID"])}"> (${i + 1})`,
        () => {
          const effectiveDate = requireDate(ID, date, rawDate);
          const currency = requireCurrencyCode(ID, code);
          const value = requireDecimal(ID, v.Value, `${code} Value`);
          const nominal = requireUnits(ID, v.Nominal, `${code} Nominal`);
          return { effectiveDate, currency, ...perUnits(value, nominal) };
        },
        { effectiveDate: rawDate, currency: code, rate: text(v.Value) },
      );
    }
    return rows.result();
  },
});

export default nbt;
