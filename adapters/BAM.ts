// Bank Al-Maghrib: the reference rates of the dirham (cours de référence, virements) from its API,
// one JSON call per day (CoursVirement?date=YYYY-MM-DDT12:30:00). The official figure is `moyen`,
// MAD per `uniteDevise` units (Direct; 10 or 100 kept as unitMultiplier). Older days carry no
// `moyen`: the exact mean of `achat` and `vente` is taken (derivation "mean"). JSON numbers are
// read without losing digits. The feed still labels the Mauritanian ouguiya "MRO", but its
// figure (23.55 MAD per 100 on 2026-03-25, when USD was 9.3189 MAD: about 39.6 per USD) is that
// of the new ouguiya MRU (10 MRO = 1 MRU since 2018), so it is published as MRU.
import {
  FeedError,
  addDays,
  credentialFrom,
  decodeText,
  defineAdapter,
  isIsoDate,
  jsonNumberText,
  mean,
  parseJsonExact,
  perUnits,
  readDecimal,
  todayIn,
  weekday,
  type BankAdapter,
  type FeedDocument,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "BAM";
const ENDPOINT = "https://api.centralbankofmorocco.ma/cours/Version1/api/CoursVirement";
const TIME_ZONE = "Africa/Casablanca";
const CODE = /^[A-Z]{3}$/;

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
  if (rate === undefined) throw new FeedError(ID, `${what}: "${String(text ?? value)}" is not a decimal`);
  return rate;
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
    const json = parseJsonExact(ID, decodeText(ID, body));
    if (!Array.isArray(json)) throw new FeedError(ID, "not a CoursVirement answer: not a JSON array");
    return (json as Row[]).map((row, i): RateRecord => {
      if (typeof row !== "object" || row === null) throw new FeedError(ID, `row ${i} is not an object`);
      const label = typeof row.libDevise === "string" ? row.libDevise.trim() : "";
      if (!CODE.test(label))
        throw new FeedError(ID, `row ${i}: libDevise "${String(row.libDevise)}" is not a currency code`);
      const currency = BAM_CODE_FIXES[label] ?? label;
      const date = typeof row.date === "string" ? row.date.slice(0, 10) : "";
      if (!isIsoDate(date)) throw new FeedError(ID, `${label}: date "${String(row.date)}" is not a date`);
      const units = decimalOf(row.uniteDevise, `${label} uniteDevise`);
      if (!units || !/^[1-9]\d*$/.test(units))
        throw new FeedError(ID, `${label}: uniteDevise "${String(units)}" is not a whole number`);
      const mid = decimalOf(row.moyen, `${label} moyen`);
      if (mid !== undefined) return { effectiveDate: date, currency, ...perUnits(mid, units) };
      const buy = decimalOf(row.achat, `${label} achat`);
      const sell = decimalOf(row.vente, `${label} vente`);
      if (buy === undefined || sell === undefined)
        throw new FeedError(ID, `${label} on ${date}: neither moyen nor achat and vente`);
      const unit = perUnits(mean(buy, sell), units);
      return { effectiveDate: date, currency, ...unit, derivation: unit.derivation ?? "mean" };
    });
  },
});

export default bam;
