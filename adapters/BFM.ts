// Banky Foiben'i Madagasikara (Central Bank of Madagascar): the MID reference rates of the ariary.
// - Endpoint: POST https://www.banky-foibe.mg/admin/wp-json/bfm/cours_mid_en_ar_filter, a form
//   `dateFilterDebut=YYYY/MM/DD&dateFilterFin=YYYY/MM/DD&filterData=<ISO code>` (slashes escaped), one
//   request per currency: the 19 the bank quotes (list below). The site's own page sends Origin and
//   Referer, and so do we.
// - Answer: JSON `{"code":"cours-de-mid-en-ar-filter","data":{"status":200,"data":{"coursMid":
//   {"2026-09-23":"4 983,29",...},"coursMidMax":{...},"coursMidMin":{...},"grapheData":{"2026-09-21":
//   "4984.87",...}}}}`. The answer never names the currency: it is the one the form asked for, which parse
//   reads from the request (ParseContext.requestBody), or from a `filterData` query parameter of the URL
//   given to `exrates parse` / `import` for a saved answer.
// - The official figure is `coursMid`, the reference rate of the interbank foreign exchange market (MID):
//   MGA per 1 unit of the foreign currency (Direct), written with a space as thousands separator and a
//   decimal comma (`4 983,29`), newest first. `grapheData` holds the same figures in plain decimals for the
//   chart: a date where the two disagree is held (conflict). `coursMidMax`/`coursMidMin` are the day's
//   extremes, not bid and ask, and are not published; they come back as `[]` (PHP's empty array) when
//   absent, as does `coursMid` for a window without a fixing: the bank saying it fixed nothing in that
//   window (noPublication).
// - An answer holding a date outside the window the form asked for answers another request (the bank's
//   cache serves stale answers: its Date headers jump around) and is refused whole; so is a fetch in which
//   two currencies' answers give the same figures on the same days (one answers the other's form).
// - Published Monday to Friday after the morning's interbank session; the hour is not published: 13:00
//   Antananarivo is an estimate (other services poll at 13:00, 16:00 and 19:00). The earliest window seen
//   answering is January 2018, where coverage starts.
// Each date of coursMid is one row: a bad date or figure holds that date; an answer without the
// coursMid object, or whose currency cannot be told, is refused whole.
import {
  AnswerRows,
  FeedError,
  defineAdapter,
  isIsoDate,
  noPublication,
  parseJsonExact,
  readDecimal,
  recentDays,
  requireCurrencyCode,
  requireDate,
  requireDecimal,
  rowProblem,
  type FeedDocument,
  type IsoDate,
  type ParseContext,
  type ParsedAnswer,
} from "../src/feed/kit.js";

const ID = "BFM";
const TIME_ZONE = "Indian/Antananarivo";
const SITE = "https://www.banky-foibe.mg";
const ENDPOINT = `${SITE}/admin/wp-json/bfm/cours_mid_en_ar_filter`;

/** The currencies the bank quotes against the ariary, in the order of its own list. */
export const BFM_CURRENCIES = [
  "EUR",
  "USD",
  "GBP",
  "CHF",
  "JPY",
  "CAD",
  "DKK",
  "NOK",
  "SEK",
  "DJF",
  "XDR",
  "MUR",
  "ZAR",
  "AUD",
  "HKD",
  "SGD",
  "NZD",
  "INR",
  "CNY",
] as const;

const slashed = (date: IsoDate) => date.replaceAll("-", "/");

/** The form of one request, in the order the bank's page sends it. */
export function bfmForm(currency: string, from: IsoDate, to: IsoDate): string {
  return new URLSearchParams({
    dateFilterDebut: slashed(from),
    dateFilterFin: slashed(to),
    filterData: currency,
  }).toString();
}

/** What the request asked for: the currency, and the window when known. */
function requestOf(ctx: ParseContext): { currency: string; from?: IsoDate; to?: IsoDate } {
  let form = new URLSearchParams(ctx.requestBody ?? "");
  if (!form.has("filterData")) form = new URL(ctx.url).searchParams;
  const currency = form.get("filterData");
  if (!currency) {
    throw new FeedError(
      ID,
      "the answer does not name its currency and the request's form (filterData) is not known: give the URL with ?filterData=<code> for a saved answer",
    );
  }
  const date = (key: string) => {
    const raw = (form.get(key) ?? "").replaceAll("/", "-");
    return isIsoDate(raw) ? raw : undefined;
  };
  return { currency, from: date("dateFilterDebut"), to: date("dateFilterFin") };
}

type Node = Record<string, unknown>;
const isNode = (x: unknown): x is Node => typeof x === "object" && x !== null && !Array.isArray(x);
/** An object of date -> text, or PHP's `[]` for none. */
const series = (x: unknown): Node | undefined => (isNode(x) ? x : Array.isArray(x) && x.length === 0 ? {} : undefined);

export function parseMid(body: Uint8Array, ctx: ParseContext): ParsedAnswer {
  const json = parseJsonExact(ID, body);
  const data = isNode(json) && isNode(json.data) ? json.data.data : undefined;
  const mid = isNode(data) ? series(data.coursMid) : undefined;
  if (!isNode(data) || mid === undefined) {
    throw new FeedError(ID, "not a cours_mid_en_ar_filter answer: no data.data.coursMid");
  }
  const chart = series(data.grapheData) ?? {};
  const asked = requestOf(ctx);
  const currency = requireCurrencyCode(ID, asked.currency);
  const outside = Object.keys(mid).filter(
    (d) => (asked.from !== undefined && d < asked.from) || (asked.to !== undefined && d > asked.to),
  );
  if (outside.length > 0) {
    throw new FeedError(
      ID,
      `an answer for another request: ${outside[0]} lies outside the window asked for (${asked.from} to ${asked.to})`,
    );
  }
  if (Object.keys(mid).length === 0) return noPublication("coursMid is empty: no fixing in the window asked");
  const rows = new AnswerRows(ID);
  for (const [date, raw] of Object.entries(mid)) {
    const text = typeof raw === "string" ? raw : JSON.stringify(raw);
    rows.read(
      `coursMid["${date}"]`,
      () => {
        const effectiveDate = requireDate(ID, isIsoDate(date) ? date : undefined, date);
        const rate = requireDecimal(ID, text, "coursMid", { decimalComma: true, thousands: " " });
        const plotted = chart[date];
        if (typeof plotted === "string" && readDecimal(plotted) !== rate) {
          rowProblem(ID, "conflict", `coursMid ${text} and grapheData ${plotted} disagree`);
        }
        return { effectiveDate, currency, rate };
      },
      { effectiveDate: date, currency: asked.currency, rate: text },
    );
  }
  return rows.result();
}

/**
 * Two currencies never have the same figures on the same days: answers that do were served for another
 * request (a cache that ignores the form), and which currency they belong to cannot be told. The whole
 * fetch is refused, naming both, rather than one currency's figures published under another's code.
 */
function refuseRepeatedAnswers(docs: readonly FeedDocument[]): void {
  const seen = new Map<string, string>();
  for (const doc of docs) {
    let answer: ParsedAnswer;
    try {
      answer = parseMid(doc.body, { url: doc.url, requestBody: doc.requestBody });
    } catch {
      continue; // refused again, with its reason, when ingest parses it
    }
    if (answer.records.length === 0) continue;
    const figures = answer.records.map((r) => `${r.effectiveDate}=${r.rate}`).join(" ");
    const currency = answer.records[0]!.currency;
    const earlier = seen.get(figures);
    if (earlier !== undefined) {
      throw new FeedError(
        ID,
        `the answers for ${earlier} and ${currency} give the same figures on the same days: one answers another request (a cache?), so neither is taken`,
      );
    }
    seen.set(figures, currency);
  }
}

const bfm = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Bank of Madagascar", abbreviatedName: "BFM" },
      { languageCode: "mg", name: "Banky Foiben'i Madagasikara", abbreviatedName: "BFM" },
      { languageCode: "fr", name: "Banque centrale de Madagascar", abbreviatedName: "BFM" },
    ],
    // An estimate (see the header): the bank does not publish the hour.
    dailyUpdateTime: "13:00:00",
    bankCurrency: "MGA",
    countryCode: ["MG"],
    region: ["Africa"],
    timeZone: TIME_ZONE,
    website: SITE,
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "2018-01-02",
    maxRangeDays: 365,
    sourceUrl: ENDPOINT,
  },

  // One POST per currency for the window (the latest: the last seven days in Antananarivo).
  async fetch(range, { http, signal }) {
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 7);
    const init = {
      accept: "application/json",
      headers: { Origin: SITE, Referer: `${SITE}/` },
    };
    const docs: FeedDocument[] = [];
    for (const currency of BFM_CURRENCIES) {
      signal?.throwIfAborted();
      docs.push(await http.post(ENDPOINT, bfmForm(currency, from, to), init));
    }
    refuseRepeatedAnswers(docs);
    return docs;
  },

  parse: (body, ctx) => parseMid(body, ctx),
});

export default bfm;
