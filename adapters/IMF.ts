// International Monetary Fund: the representative exchange rates reported to the Fund, as monthly TSV (served as
// application/vnd.ms-excel), against the US dollar: base USD, quoteType Indirect (currency units per 1 USD).
// Rows are English currency NAMES, mapped below (an unknown name is an error, never a guess); the dates are the
// header's columns (`March 02, 2026`). Names marked `(1)` are quoted the other way (USD per currency unit) and are
// inverted to 10 significant digits, flagged. `NA` marks a missing value; comma thousands separators.
// The SDRCV report (SDRs per currency unit) is used only for its U.S. dollar row, which is XDR per 1 USD.
import {
  FeedError,
  addDays,
  decodeText,
  defineAdapter,
  expectFeedText,
  invert,
  isoFromParts,
  todayIn,
  type FeedDocument,
  type IsoDate,
  type RateRecord,
  readDecimal,
} from "../src/feed/kit.js";
import { monthNumber } from "../src/feed/month-names.js";

const ID = "IMF";
const ENDPOINT = "https://www.imf.org/external/np/fin/data/rms_mth.aspx";
const TIME_ZONE = "America/New_York";

/** IMF currency names (lower case) to ISO 4217. */
export const IMF_CURRENCY_NAMES: Readonly<Record<string, string>> = {
  "afghan afghani": "AFN",
  "algerian dinar": "DZD",
  "angolan kwanza": "AOA",
  "australian dollar": "AUD",
  "bahamian dollar": "BSD",
  "bahrain dinar": "BHD",
  "bangladeshi taka": "BDT",
  "barbados dollar": "BBD",
  "botswana pula": "BWP",
  "brazilian real": "BRL",
  "brunei dollar": "BND",
  "canadian dollar": "CAD",
  "chilean peso": "CLP",
  "chinese yuan": "CNY",
  "colombian peso": "COP",
  "costa rican colon": "CRC",
  "czech koruna": "CZK",
  "danish krone": "DKK",
  "djibouti franc": "DJF",
  "egyptian pound": "EGP",
  euro: "EUR",
  "fiji dollar": "FJD",
  "hungarian forint": "HUF",
  "icelandic krona": "ISK",
  "indian rupee": "INR",
  "iranian rial": "IRR",
  "israeli new shekel": "ILS",
  "japanese yen": "JPY",
  "jordanian dinar": "JOD",
  "kazakhstani tenge": "KZT",
  "korean won": "KRW",
  "kuwaiti dinar": "KWD",
  "libyan dinar": "LYD",
  "malaysian ringgit": "MYR",
  "mauritian rupee": "MUR",
  "mexican peso": "MXN",
  "moldovan leu": "MDL",
  "mongolian tugrik": "MNT",
  "moroccan dirham": "MAD",
  "mozambican metical": "MZN",
  "myanmar kyat": "MMK",
  "namibian dollar": "NAD",
  "nepalese rupee": "NPR",
  "new zealand dollar": "NZD",
  "nigerian naira": "NGN",
  "norwegian krone": "NOK",
  "omani rial": "OMR",
  "pakistani rupee": "PKR",
  "peruvian sol": "PEN",
  "philippine peso": "PHP",
  "polish zloty": "PLN",
  "qatari riyal": "QAR",
  "romanian leu": "RON",
  "russian ruble": "RUB",
  "rwandan franc": "RWF",
  "samoan tala": "WST",
  "saudi arabian riyal": "SAR",
  "singapore dollar": "SGD",
  "south african rand": "ZAR",
  "sri lankan rupee": "LKR",
  "swedish krona": "SEK",
  "swiss franc": "CHF",
  "thai baht": "THB",
  "trinidadian dollar": "TTD",
  "tunisian dinar": "TND",
  "ugandan shilling": "UGX",
  "u.a.e. dirham": "AED",
  "u.k. pound": "GBP",
  "u.s. dollar": "USD",
  "uruguayan peso": "UYU",
  "yemeni rial": "YER",
  "zambian kwacha": "ZMW",
};

export function imfCurrency(name: string): string | undefined {
  return IMF_CURRENCY_NAMES[name.trim().replace(/\s+/g, " ").toLowerCase()];
}

const lastDayOfMonth = (year: number, month: number): IsoDate =>
  new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);

/** `March 02, 2026` to ISO. */
function headerDate(text: string): IsoDate | undefined {
  const m = /^([A-Za-z]+)\s+(\d{1,2}),\s*(\d{4})$/.exec(text.trim());
  const month = m ? monthNumber(m[1]!) : undefined;
  return m && month ? isoFromParts(m[3]!, month, m[2]!) : undefined;
}

const imf = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "International Monetary Fund", abbreviatedName: "IMF" },
      { languageCode: "fr", name: "Fonds monétaire international", abbreviatedName: "FMI" },
      { languageCode: "es", name: "Fondo Monetario Internacional", abbreviatedName: "FMI" },
    ],
    dailyUpdateTime: "14:00:00",
    // The Fund's own unit is the SDR, which no country uses as its currency; the rates it publishes pivot on
    // the US dollar. countryCode names the Fund's seat (Washington), the one country tied to it.
    bankCurrency: "XDR",
    baseCurrency: "USD",
    countryCode: ["US"],
    region: ["Americas"],
    timeZone: TIME_ZONE,
    website: "https://www.imf.org",
    quoteType: "Indirect",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "2003-01-01",
    maxRangeDays: 366,
    sourceUrl: `${ENDPOINT}?reportType=REP&tsvflag=Y`,
  },

  // Two reports per calendar month of the range, asked with the month's last day.
  async fetch(range, { http }) {
    const today = todayIn(TIME_ZONE);
    const { from, to } = range.kind === "range" ? range : { from: addDays(today.slice(0, 8) + "01", -1), to: today };
    const docs: FeedDocument[] = [];
    for (
      let year = Number(from.slice(0, 4)), month = Number(from.slice(5, 7));
      `${year}-${String(month).padStart(2, "0")}` <= to.slice(0, 7);
      month === 12 ? ((month = 1), year++) : month++
    ) {
      const day = lastDayOfMonth(year, month);
      for (const report of ["REP", "SDRCV"]) {
        docs.push(
          await http.get(`${ENDPOINT}?SelectDate=${day}&reportType=${report}&tsvflag=Y`, {
            accept: "text/tab-separated-values, application/vnd.ms-excel, text/plain",
          }),
        );
      }
    }
    return docs;
  },

  parse(body) {
    const text = expectFeedText(ID, decodeText(ID, body), "an IMF exchange-rate report (TSV)");
    const lines = text.split(/\r?\n/);
    const title = (lines[0] ?? "").trim();
    const sdr = /^SDRs per Currency unit/i.test(title);
    if (!sdr && !/^Representative Exchange Rates for Selected Currencies/i.test(title)) {
      throw new FeedError(ID, `not an IMF rates report: the first line is "${title.slice(0, 80)}"`);
    }
    const header = (lines[1] ?? "").split("\t");
    if (header[0]?.trim() !== "Currency") throw new FeedError(ID, "no Currency header row on line 2");
    const dates = header.slice(1).map((h, i) => {
      if (h.trim() === "") return undefined;
      const date = headerDate(h);
      if (!date) throw new FeedError(ID, `header column ${i + 2}: "${h}" is not a date like "March 02, 2026"`);
      return date;
    });
    const records: RateRecord[] = [];
    let ended = false;
    for (let n = 2; n < lines.length && !ended; n++) {
      const cells = lines[n]!.split("\t");
      const label = (cells[0] ?? "").trim();
      if (label === "") {
        ended = true; // the notes follow the first blank line
        continue;
      }
      const marker = /\((\d)\)\s*$/.exec(label);
      if (marker && marker[1] !== "1")
        throw new FeedError(ID, `line ${n + 1}: "${label}" carries note (${marker[1]}), whose unit is not known here`);
      const currency = imfCurrency(label.replace(/\(\d\)\s*$/, ""));
      if (!currency) throw new FeedError(ID, `line ${n + 1}: unknown currency name "${label}"`);
      if (sdr && currency !== "USD") continue; // SDRCV serves only the dollar's SDR value
      if (!sdr && currency === "USD") continue;
      cells.slice(1).forEach((raw, i) => {
        const cell = raw.trim();
        if (cell === "" || cell === "NA") return;
        const date = dates[i];
        if (!date) throw new FeedError(ID, `line ${n + 1}: a value in column ${i + 2}, which has no date`);
        const value = readDecimal(cell, { thousands: "," });
        if (!value) throw new FeedError(ID, `${label} on ${date}: "${cell}" is not a decimal`);
        if (!/[1-9]/.test(value)) return;
        if (sdr) records.push({ effectiveDate: date, currency: "XDR", rate: value });
        else if (marker) records.push({ effectiveDate: date, currency, rate: invert(value), derivation: "inverted" });
        else records.push({ effectiveDate: date, currency, rate: value });
      });
    }
    if (!ended) throw new FeedError(ID, "the report ends without its notes: truncated?");
    return records;
  },
});

export default imf;
