// Central Bank of the Republic of Azerbaijan: the official rates of the manat, one XML bulletin per day.
// - Endpoint: GET https://www.cbar.az/currencies/DD.MM.YYYY.xml, one file per calendar date, served as UTF-8
//   `application/xml`: `<ValCurs Date="02.10.2026" Name="AZN məzənnələri" Description="... 02.10.2026
//   tarixdən etibarən ...">` holding `<ValType Type="Bank metalları">` (XAU, XAG, XPT, XPD) and
//   `<ValType Type="Xarici valyutalar">` (about 40 currencies), each `<Valute Code="USD">` with `Nominal`,
//   `Name` (Azerbaijani) and `Value`. The layout is a template with long runs of blank lines: whitespace
//   carries nothing.
// - The official figure: one rate per code, AZN per `Nominal` units (Direct), "effective from" the
//   bulletin's Date (the Description says so). Nominal is 1 or 100 (RUB, JPY, KRW, KZT, HUF, UZS, PKR in
//   2026), kept as unitMultiplier; metals are per troy ounce (`1 t.u.`), the unit the service publishes
//   metals in, so taken as they stand. `SDR` is the bank's label for XDR.
// - The date is the bulletin's own `ValCurs@Date`, never the URL's: a weekend or holiday file repeats the
//   last bulletin with that bulletin's Date, so it adds nothing (the same figures for the same day).
// - Codes are relabelled by the bank with today's ISO codes, also in bulletins from before a
//   redenomination: BYN before 2016-07-01 is the old Belarusian rouble (BYR) and TMT before 2009-01-01 the
//   old Turkmen manat (TMM), so those are published under the code in force on the bulletin's date. The
//   manat itself was redenominated on 2006-01-01 (5000 AZM = 1 AZN) and older bulletins are labelled AZN
//   too: their figures are old manats, so a row dated before 2006 is held, and coverage starts there.
// - Publication: Monday to Friday; the hour is not published by the bank. Frankfurter polls 10:00-12:59
//   Baku time, so 10:00 is an estimate. A date without a bulletin (a future date, some holidays) answers
//   404: not an error, nothing for that day.
// Each Valute is one row: a bad Nominal, Value or code holds that row; an answer without a ValCurs root
// with a Date is not this feed and is refused whole.
import {
  AnswerRows,
  FeedError,
  HttpError,
  addDays,
  asArray,
  decodeText,
  defineAdapter,
  fromDayMonthYear,
  parseXml,
  perUnits,
  requireCurrencyCode,
  requireDecimal,
  rowProblem,
  todayIn,
  type FeedDocument,
  type IsoDate,
  type ParsedAnswer,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "CBAR";
const TIME_ZONE = "Asia/Baku";
const BASE = "https://www.cbar.az/currencies";

/** The first day of the new manat (AZN): older bulletins are in old manats. */
const AZN_FROM = "2006-01-01";

/** The bank's labels that are not the ISO code of the bulletin's day: `SDR`, and today's codes on old bulletins. */
function currencyOf(label: string, date: IsoDate): string {
  const code = label.trim().toUpperCase();
  if (code === "SDR") return "XDR";
  if (code === "BYN" && date < "2016-07-01") return "BYR";
  if (code === "TMT" && date < "2009-01-01") return "TMM";
  return code;
}

/** `1`, `100` or `1 t.u.` (one troy ounce, for metals): the count of units the Value is for. */
function unitsOf(raw: string): string {
  const m = /^(\d+)(?:\s*t\.\s*u\.)?$/.exec(raw.trim());
  if (!m || !/^[1-9]/.test(m[1]!)) rowProblem(ID, "unknown-unit", `Nominal "${raw}" is not a number of units`);
  return m[1]!;
}

type Node = Record<string, unknown>;
const text = (raw: unknown): string => (typeof raw === "string" ? raw : "");

/** URL of the bulletin file for a date. */
export const bulletinUrl = (date: IsoDate) =>
  `${BASE}/${date.slice(8, 10)}.${date.slice(5, 7)}.${date.slice(0, 4)}.xml`;

export function parseBulletin(body: Uint8Array): ParsedAnswer {
  const xml = parseXml(ID, decodeText(ID, body));
  const root = xml.ValCurs as Node | undefined;
  if (typeof root !== "object" || root === null || typeof root["@Date"] !== "string") {
    throw new FeedError(ID, "not a CBAR bulletin: no ValCurs element with a Date");
  }
  const rawDate = text(root["@Date"]);
  const date = fromDayMonthYear(rawDate);
  if (date === undefined) throw new FeedError(ID, `ValCurs Date "${rawDate}" is not a real date`);
  const rows = new AnswerRows(ID);
  for (const type of asArray(root.ValType as Node | Node[])) {
    for (const v of asArray(type.Valute as Node | Node[])) {
      const label = text(v["@Code"]);
      rows.read(
        `<ValType Type="${text(type["@Type"])}"> <Valute Code="${label}">`,
        (): RateRecord => {
          if (date < AZN_FROM) {
            rowProblem(
              ID,
              "bad-row",
              `a bulletin of ${rawDate}, before the 2006 redenomination: its figures are old manats (AZM)`,
            );
          }
          const currency = requireCurrencyCode(ID, currencyOf(label, date));
          const value = requireDecimal(ID, v.Value, "Value");
          return { effectiveDate: date, currency, ...perUnits(value, unitsOf(text(v.Nominal))) };
        },
        { effectiveDate: rawDate, currency: label, rate: text(v.Value) },
      );
    }
  }
  return rows.result();
}

const isNotFound = (error: unknown) => error instanceof HttpError && error.status === 404;

const cbar = defineAdapter({
  bank: {
    id: ID,
    names: [
      {
        languageCode: "en",
        name: "Central Bank of the Republic of Azerbaijan",
        abbreviatedName: "CBAR",
      },
      {
        languageCode: "az",
        name: "Azərbaycan Respublikasının Mərkəzi Bankı",
        abbreviatedName: "AMB",
      },
    ],
    // Not published by the bank: an estimate from the hours other services poll it (10:00-12:59 Baku).
    dailyUpdateTime: "10:00:00",
    bankCurrency: "AZN",
    countryCode: ["AZ"],
    region: ["Asia"],
    timeZone: TIME_ZONE,
    website: "https://www.cbar.az",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: AZN_FROM,
    // One request per calendar day: a month per backfill chunk.
    maxRangeDays: 31,
    sourceUrl: `${BASE}/DD.MM.YYYY.xml`,
  },

  // Every calendar day of the range (a transferred working day may fall on a Saturday); a day without a
  // bulletin answers 404 and is skipped. The latest is the last four days up to today in Baku.
  async fetch(range, { http, signal }) {
    const today = todayIn(TIME_ZONE);
    const { from, to } = range.kind === "range" ? range : { from: addDays(today, -3), to: today };
    const docs: FeedDocument[] = [];
    for (let day = from; day <= to; day = addDays(day, 1)) {
      signal?.throwIfAborted();
      try {
        docs.push(await http.get(bulletinUrl(day), { accept: "application/xml" }));
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
    }
    return docs;
  },

  parse: (body) => parseBulletin(body),
});

export default cbar;
