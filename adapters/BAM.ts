// Bank Al-Maghrib: the reference rates of the dirham (cours de référence, virements).
// - Endpoint: GET https://api.centralbankofmorocco.ma/cours/Version1/api/CoursVirement?date=YYYY-MM-DDT12:30:00,
//   one call per day, with the portal's subscription key in the Ocp-Apim-Subscription-Key header. A refused
//   key answers a JSON object (`{ statusCode, message }`) instead of the array.
// - The answer is a JSON array, one object per currency: `date`, `libDevise` (the ISO code), `uniteDevise`
//   (1, 10 or 100), and the figures `moyen` (the official reference), `achat` and `vente`, as JSON numbers
//   read without losing digits.
// - MAD per `uniteDevise` foreign units (Direct; 10 and 100 kept as unitMultiplier). Older days carry no
//   `moyen`: the exact mean of `achat` and `vente` is taken (derivation "mean").
// - The feed still labels the Mauritanian ouguiya "MRO", but its figure (23.55 MAD per 100 on 2026-03-25,
//   when USD was 9.3189 MAD: about 39.6 per USD) is that of the new ouguiya MRU (10 MRO = 1 MRU since
//   2018), so it is published as MRU. A day's array may list a currency twice with the same figure.
// - The rates are those of 12:30 Casablanca time, on weekdays.
import {
  AnswerRows,
  FeedError,
  addDays,
  credentialFrom,
  defineAdapter,
  isIsoDate,
  jsonNumberText,
  mean,
  parseJsonExact,
  perUnits,
  readDecimal,
  requireCurrencyCode,
  requireDate,
  requireUnits,
  rowProblem,
  todayIn,
  weekday,
  type BankAdapter,
  type FeedDocument,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "BAM";
const ENDPOINT = "https://api.centralbankofmorocco.ma/cours/Version1/api/CoursVirement";
const TIME_ZONE = "Africa/Casablanca";

/** Codes the feed writes that are not (or no longer) the ISO 4217 code of the figure it gives. */
export const BAM_CODE_FIXES: Readonly<Record<string, string>> = { MRO: "MRU" };

interface Row {
  date?: unknown;
  libDevise?: unknown;
  moyen?: unknown;
  achat?: unknown;
  vente?: unknown;
  uniteDevise?: unknown;
}

function decimalOf(value: unknown, what: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  const text = jsonNumberText(value);
  const rate = text === undefined ? undefined : readDecimal(text);
  if (rate === undefined) {
    const raw = text ?? JSON.stringify(value);
    rowProblem(ID, "bad-rate", `${what}: "${raw}" is not a decimal`, { rate: raw });
  }
  return rate;
}

/** One object of the array as a record, or a RowProblem. */
function readRow(item: unknown, row: Row): RateRecord {
  if (typeof item !== "object" || item === null) rowProblem(ID, "bad-row", "not an object");
  const label = typeof row.libDevise === "string" ? row.libDevise.trim() : String(row.libDevise);
  const currency = requireCurrencyCode(ID, BAM_CODE_FIXES[label] ?? label);
  const rawDate = typeof row.date === "string" ? row.date : String(row.date);
  const day = rawDate.slice(0, 10);
  const date = requireDate(ID, isIsoDate(day) ? day : undefined, rawDate);
  const units = requireUnits(ID, jsonNumberText(row.uniteDevise) ?? String(row.uniteDevise), "uniteDevise");
  const mid = decimalOf(row.moyen, `${label} moyen`);
  if (mid !== undefined) return { effectiveDate: date, currency, ...perUnits(mid, units) };
  const buy = decimalOf(row.achat, `${label} achat`);
  const sell = decimalOf(row.vente, `${label} vente`);
  if (buy === undefined || sell === undefined)
    rowProblem(ID, "bad-rate", `${label} on ${date}: neither moyen nor achat and vente`);
  const unit = perUnits(mean(buy, sell), units);
  return { effectiveDate: date, currency, ...unit, derivation: unit.derivation ?? "mean" };
}

const bam: BankAdapter = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Bank Al-Maghrib", abbreviatedName: "BAM" },
      { languageCode: "ar", name: "بنك المغرب", abbreviatedName: "بنك المغرب" },
      { languageCode: "fr", name: "Bank Al-Maghrib", abbreviatedName: "BAM" },
    ],
    // The reference rates are those of 12:30 (the time the API's date parameter names).
    dailyUpdateTime: "12:30:00",
    bankCurrency: "MAD",
    countryCode: ["MA"],
    region: ["Africa"],
    timeZone: TIME_ZONE,
    website: "https://www.bkam.ma",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "2016-01-04",
    maxRangeDays: 7,
    sourceUrl: ENDPOINT,
    credential: {
      env: "EXRATES_BAM_API_KEY",
      description:
        "subscription key of the Bank Al-Maghrib API portal (apihelpdesk.centralbankofmorocco.ma), sent as Ocp-Apim-Subscription-Key",
    },
  },

  // One call per weekday of the range.
  async fetch(range, ctx) {
    const key = credentialFrom(bam, ctx);
    const init = { accept: "application/json", headers: { "Ocp-Apim-Subscription-Key": key } };
    const days: string[] = [];
    if (range.kind === "latest") days.push(todayIn(TIME_ZONE));
    else for (let d = range.from; d <= range.to; d = addDays(d, 1)) if (weekday(d) <= 5) days.push(d);
    const docs: FeedDocument[] = [];
    for (const day of days) docs.push(await ctx.http.get(`${ENDPOINT}?date=${day}T12:30:00`, init));
    return docs;
  },

  parse(body) {
    const json = parseJsonExact(ID, body);
    if (!Array.isArray(json)) throw new FeedError(ID, "not a CoursVirement answer: not a JSON array");
    const first = json.find((item) => typeof item === "object" && item !== null) as Row | undefined;
    if (first && !("libDevise" in first && "date" in first)) {
      throw new FeedError(ID, `the layout changed: items have ${Object.keys(first).join(", ")}`);
    }
    const rows = new AnswerRows(ID);
    json.forEach((item: unknown, i) => {
      const row = (typeof item === "object" && item !== null ? item : {}) as Row;
      const fields = {
        effectiveDate: typeof row.date === "string" ? row.date : undefined,
        currency: typeof row.libDevise === "string" ? row.libDevise : undefined,
        rate: jsonNumberText(row.moyen),
      };
      rows.read(`row ${i}`, () => readRow(item, row), fields);
    });
    return rows.result();
  },
});

export default bam;
