// Central Bank of Turkmenistan: the official rates of the manat (TMT), one XML file per value date.
// - Endpoint: GET https://cbt.tm/kurs/YYYY/DDMMYYYY.xml (the archive starts 2020-04-17). No file for a
//   Sunday (404), nor for a date not published yet: both are no document, not an error. The server
//   refuses curl's default User-Agent; the client's own (named) User-Agent is sent, never a browser's.
// - Shape: `<cbt_currency_rate><date>20.05.2026</date><rate code="AED"><name>ARAP DIRHEMI</name>
//   <rate_usd>3.673</rate_usd><multiplier>1</multiplier><rate_tmt>0.9529</rate_tmt><checksum>…</checksum>
//   </rate>…</cbt_currency_rate>`, about 48 rates sorted by their Turkmen names. `<date>` is DD.MM.YYYY
//   from 2024 and YYYY-MM-DD in 2020-2023.
// - Quotes: `rate_tmt` is TMT per `multiplier` units (1 to 10,000), the official rate (Direct), kept as
//   published with its unit multiplier. `rate_usd` is only the cross against the dollar (units per USD,
//   but USD per unit for AUD, GBP, EUR, XDR): not read. USD itself is fixed at 3.5.
// - The file for value date D appears on D-1 at about 15:30 Ashgabat time (10:30 UTC).
// A rate whose code, multiplier or figure cannot be read is held; a body that is not this XML (an
// error page, another bank's file), a file whose date cannot be read, or the file of another date than
// the URL's, is refused whole.
import {
  AnswerRows,
  FeedError,
  addDays,
  asArray,
  decodeText,
  defineAdapter,
  isIsoDate,
  isoFromParts,
  parseXml,
  perUnits,
  requireCurrencyCode,
  requireDecimal,
  requireUnits,
  todayIn,
  weekdaysBetween,
  type FeedDocument,
  type IsoDate,
} from "../src/feed/kit.js";

const ID = "CBT";
const TIME_ZONE = "Asia/Ashgabat";
const BASE = "https://cbt.tm/kurs";

/** The file of one value date. */
export const cbtUrl = (date: IsoDate) =>
  `${BASE}/${date.slice(0, 4)}/${date.slice(8, 10)}${date.slice(5, 7)}${date.slice(0, 4)}.xml`;

/** `20.05.2026` (from 2024) or `2021-05-20` (2020-2023) as ISO. */
function fileDate(text: string): IsoDate | undefined {
  const dotted = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(text);
  if (dotted) return isoFromParts(dotted[3]!, dotted[2]!, dotted[1]!);
  return isIsoDate(text) ? text : undefined;
}

const text = (x: unknown) =>
  typeof x === "string"
    ? x.trim()
    : typeof x === "number"
      ? String(x)
      : x === undefined
        ? undefined
        : JSON.stringify(x);

const isNotFound = (error: unknown) =>
  error instanceof Error && error.name === "HttpError" && (error as { status?: number }).status === 404;

const cbt = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Bank of Turkmenistan", abbreviatedName: "CBT" },
      { languageCode: "tk", name: "Türkmenistanyň Merkezi banky", abbreviatedName: "TMB" },
    ],
    // The next value date's file appears between 15:21 and 15:34 Ashgabat time.
    dailyUpdateTime: "15:45:00",
    bankCurrency: "TMT",
    countryCode: ["TM"],
    region: ["Asia"],
    timeZone: TIME_ZONE,
    website: "https://cbt.tm",
    quoteType: "Direct",
    // Files for Monday to Saturday, each published the day before: Sunday to Friday.
    publicationDays: [7, 1, 2, 3, 4, 5],
    coverageStart: "2020-04-17",
    // One request per value date: a backfill chunk of a month.
    maxRangeDays: 31,
    sourceUrl: `${BASE}/kurs_today_en.html`,
  },

  async fetch(range, { http }) {
    const today = todayIn(TIME_ZONE);
    // The latest: tomorrow's file (out from mid-afternoon) and the last few days', which fill a gap.
    const dates =
      range.kind === "range"
        ? weekdaysBetween(range.from, range.to, [1, 2, 3, 4, 5, 6])
        : weekdaysBetween(addDays(today, -3), addDays(today, 1), [1, 2, 3, 4, 5, 6]);
    const docs: FeedDocument[] = [];
    for (const date of dates) {
      try {
        docs.push(await http.get(cbtUrl(date), { accept: "text/xml, application/xml" }));
      } catch (error) {
        if (!isNotFound(error)) throw error; // 404: no file for that date (yet)
      }
    }
    return docs;
  },

  parse(body, { url }) {
    const xml = parseXml(ID, decodeText(ID, body));
    const root = xml["cbt_currency_rate"] as Record<string, unknown> | undefined;
    if (!root || typeof root !== "object") throw new FeedError(ID, "not a CBT rates file: no <cbt_currency_rate>");
    const written = text(root["date"]) ?? "";
    const date = fileDate(written);
    if (!date) throw new FeedError(ID, `not a CBT rates file: <date> "${written}" is not a date`);
    const asked = /\/kurs\/\d{4}\/(\d{2})(\d{2})(\d{4})\.xml$/.exec(url ?? "");
    if (asked && isoFromParts(asked[3]!, asked[2]!, asked[1]!) !== date)
      throw new FeedError(ID, `the file of ${date} answered the request for ${url}: not the date asked`);
    const rates = asArray(root["rate"]);
    if (rates.length === 0) throw new FeedError(ID, "a CBT rates file without any <rate>");
    const rows = new AnswerRows(ID);
    rates.forEach((entry, i) => {
      const r = (typeof entry === "object" && entry !== null ? entry : {}) as Record<string, unknown>;
      const code = text(r["@code"]) ?? "";
      const figure = text(r["rate_tmt"]);
      rows.read(
        `rate ${i + 1}`,
        () => ({
          effectiveDate: date,
          currency: requireCurrencyCode(ID, code),
          ...perUnits(
            requireDecimal(ID, figure, `${code} rate_tmt`),
            requireUnits(ID, text(r["multiplier"]), "multiplier"),
          ),
        }),
        { effectiveDate: date, currency: code, ...(figure !== undefined && { rate: figure }) },
      );
    });
    return rows.result();
  },
});

export default cbt;
