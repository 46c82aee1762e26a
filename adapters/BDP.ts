// Banco de Portugal, historical only: the daily reference rates of the escudo (PTE), 1987 to 1998.
// - Endpoint: GET https://bpstat.bportugal.pt/data/v1/domains/29/datasets/23e0cdd56bddb4ad3016a9c3ad63a539/
//   ?lang=EN&page=N&dim_cats=13:794&dim_cats=18:35&dim_cats=40:4263&obs_since=YYYY-MM-DD&obs_to=YYYY-MM-DD
//   (reference currency escudo, source Banco de Portugal, daily). The answer is paged: each page is asked for
//   with every dim_cats filter until extension.next_page is empty (the API's own next_page link drops some
//   of the filters).
// - Each page is a JSON-stat 2.0 dataset: values are indexed across the dimensions (row-major over
//   `id`/`size`), as an array (null for no observation) or a sparse object. The dimensions are the
//   counterparty currency (12), reference_date, and fixed ones that must be the escudo (13 and 70), the Banco
//   de Portugal (18) and daily (40); another category there means another dataset, refused.
// - The counterparty currency's ISO code comes from the label of its series in extension.series (`US,
//   Dollars (USD) against Escudo - daily`), ECU written XEU. A counterparty whose series is not listed on the
//   page is skipped there: its values come again with the page that lists it.
// - PTE per 1 unit of the foreign currency (Direct). Numbers are read with their exact digits.
// - The daily reference rates were set in the early afternoon, Lisbon time, on weekdays.
import {
  AnswerRows,
  FeedError,
  defineAdapter,
  isIsoDate,
  jsonNumberText,
  parseJsonExact,
  requireDate,
  requireDecimal,
  rowProblem,
  type FeedDocument,
  type ParsedAnswer,
} from "../src/feed/kit.js";

const ID = "BDP";
const ENDPOINT = "https://bpstat.bportugal.pt/data/v1/domains/29/datasets/23e0cdd56bddb4ad3016a9c3ad63a539/";
/** reference currency PTE (13:794), source Banco de Portugal (18:35), daily (40:4263). */
const DIM_CATS = "dim_cats=13:794&dim_cats=18:35&dim_cats=40:4263";
const MAX_PAGES = 100;
const COUNTERPARTY = "12";
const DATE = "reference_date";
/** Fixed dimensions: their one category's label must be the one named. */
const FIXED: Readonly<Record<string, string>> = {
  "13": "Portuguese Escudo",
  "18": "Banco de Portugal",
  "40": "Daily",
  "70": "Portuguese Escudo",
};
const RENAMED: Readonly<Record<string, string>> = { ECU: "XEU" };

interface Dimension {
  label?: unknown;
  category?: { index?: unknown; label?: Record<string, unknown> };
}
interface Series {
  label?: unknown;
  dimension_category?: Array<{ dimension_id?: unknown; category_id?: unknown }>;
}
interface JsonStat {
  version?: unknown;
  class?: unknown;
  id?: unknown;
  size?: unknown;
  dimension?: Record<string, Dimension>;
  value?: unknown;
  extension?: { series?: Series[]; next_page?: unknown };
}

const num = (v: unknown) => Number(jsonNumberText(v));

function categories(dim: Dimension | undefined, id: string): string[] {
  const index = dim?.category?.index;
  if (Array.isArray(index) && index.every((x) => typeof x === "string")) return index;
  if (index && typeof index === "object") {
    return Object.entries(index as Record<string, unknown>)
      .sort((a, b) => num(a[1]) - num(b[1]))
      .map(([k]) => k);
  }
  throw new FeedError(ID, `dimension ${id} has no category index`);
}

function parsePage(body: Uint8Array): { answer: ParsedAnswer; next: boolean } {
  const doc = parseJsonExact(ID, body) as JsonStat;
  if (
    typeof doc !== "object" ||
    doc === null ||
    doc.version !== "2.0" ||
    doc.class !== "dataset" ||
    !Array.isArray(doc.id) ||
    !Array.isArray(doc.size) ||
    !doc.dimension
  ) {
    throw new FeedError(ID, "not a JSON-stat 2.0 dataset");
  }
  const ids = doc.id as string[];
  const sizes = (doc.size as unknown[]).map(num);
  if (sizes.length !== ids.length || sizes.some((s) => !Number.isInteger(s) || s < 0))
    throw new FeedError(ID, "id and size do not match");
  const cats = ids.map((id) => categories(doc.dimension![id], id));
  cats.forEach((c, i) => {
    if (c.length !== sizes[i])
      throw new FeedError(ID, `dimension ${ids[i]} has ${c.length} categories, size says ${sizes[i]}`);
  });
  const cpAt = ids.indexOf(COUNTERPARTY);
  const dateAt = ids.indexOf(DATE);
  if (cpAt < 0 || dateAt < 0) throw new FeedError(ID, "no counterparty-currency (12) or reference_date dimension");
  ids.forEach((id, i) => {
    if (i === cpAt || i === dateAt) return;
    if (sizes[i] !== 1) throw new FeedError(ID, `dimension ${id} has ${sizes[i]} categories; one was asked for`);
    const want = FIXED[id];
    const label = doc.dimension![id]?.category?.label?.[cats[i]![0]!];
    if (want !== undefined && label !== want)
      throw new FeedError(ID, `dimension ${id} is "${String(label)}", not "${want}"`);
  });

  // Counterparty category → ISO code, from the series labels (or the label itself when it gives none).
  const codes = new Map<string, { code?: string; label: string }>();
  for (const s of doc.extension?.series ?? []) {
    const cp = s.dimension_category?.find((d) => String(jsonNumberText(d.dimension_id)) === COUNTERPARTY);
    if (!cp) continue;
    const label = typeof s.label === "string" ? s.label : JSON.stringify(s.label);
    const m = /\(([A-Z]{3})\)/.exec(label);
    codes.set(String(jsonNumberText(cp.category_id)), { code: m ? (RENAMED[m[1]!] ?? m[1]!) : undefined, label });
  }

  const total = sizes.reduce((a, b) => a * b, 1);
  const values = doc.value;
  const valueAt = (k: number): unknown =>
    Array.isArray(values)
      ? values[k]
      : values && typeof values === "object"
        ? (values as Record<string, unknown>)[String(k)]
        : undefined;
  if (Array.isArray(values) && values.length !== total)
    throw new FeedError(ID, `${values.length} values for ${total} cells (truncated?)`);
  if (!Array.isArray(values) && (typeof values !== "object" || values === null))
    throw new FeedError(ID, "no value array or object");
  const strides = sizes.map((_, i) => sizes.slice(i + 1).reduce((a, b) => a * b, 1));

  const rows = new AnswerRows(ID);
  cats[cpAt]!.forEach((category, c) => {
    const series = codes.get(category);
    if (!series || series.code === "PTE") return; // listed on another page; the escudo itself
    cats[dateAt]!.forEach((date, d) => {
      const k = c * strides[cpAt]! + d * strides[dateAt]!;
      const raw = valueAt(k);
      if (raw === null || raw === undefined) return; // no observation that day
      const text = jsonNumberText(raw) ?? JSON.stringify(raw);
      rows.read(
        `value[${k}]`,
        () => {
          if (!series.code) rowProblem(ID, "unknown-currency", `series label "${series.label}" has no (ISO) code`);
          const effectiveDate = requireDate(ID, isIsoDate(date) ? date : undefined, date);
          return { effectiveDate, currency: series.code, rate: requireDecimal(ID, text, "value") };
        },
        { effectiveDate: date, currency: series.code ?? series.label, rate: text },
      );
    });
  });
  return {
    answer: rows.result(),
    next: typeof doc.extension?.next_page === "string" && doc.extension.next_page !== "",
  };
}

const bdp = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Bank of Portugal", abbreviatedName: "BdP" },
      { languageCode: "pt", name: "Banco de Portugal", abbreviatedName: "BdP" },
    ],
    // Historical only; the bank's daily reference rates were set in the early afternoon.
    dailyUpdateTime: "14:15:00",
    bankCurrency: "PTE",
    countryCode: ["PT"],
    region: ["Europe"],
    timeZone: "Europe/Lisbon",
    website: "https://www.bportugal.pt",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "1987-01-02",
    coverageEnd: "1998-12-31",
    maxRangeDays: 1827,
    sourceUrl: `${ENDPOINT}?lang=EN`,
    historicalOnly: true,
  },

  // Pages are asked for with every dim_cats filter (the API's own next_page link drops some of them).
  async fetch(range, { http }) {
    const { from, to } = range.kind === "latest" ? { from: "1998-12-01", to: "1998-12-31" } : range;
    const docs: FeedDocument[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const doc = await http.get(`${ENDPOINT}?lang=EN&page=${page}&${DIM_CATS}&obs_since=${from}&obs_to=${to}`, {
        accept: "application/json",
      });
      docs.push(doc);
      if (!parsePage(doc.body).next) return docs;
    }
    throw new FeedError(ID, `more than ${MAX_PAGES} pages for ${from} to ${to}`);
  },

  parse(body) {
    return parsePage(body).answer;
  },
});

export default bdp;
