// Bangko Sentral ng Pilipinas: the BSP Reference Rate of the peso, PHP per 1 USD (Direct), from the
// daily Reference Exchange Rate Bulletin (one PDF per business day). The bulletins are attachments
// of a SharePoint list ("RERB"), listed newest first through its REST API as JSON (paged by
// `__next`, titles like `29May2026`). Only the line "BSP Reference Rate: PHP 61.550" is the bank's
// own figure; the other currencies of the bulletin are reprints of LSEG closing prices and are
// deliberately not read. The bulletin's date is the line under its title, checked against the file
// name. Bulletins before 2017-11-06 are image-only scans (no text layer): coverage starts there.
// The list itself carries no rates and parses to no records.
import {
  FeedError,
  decodeText,
  defineAdapter,
  isoFromParts,
  parseJsonExact,
  requireDecimal,
  type FeedDocument,
  type IsoDate,
  type RateRecord,
} from "../src/feed/kit.js";
import { looksLikePdf, pdfLines, pdfTextRuns } from "../src/feed/pdf-text.js";

const ID = "BSP";
const HOST = "https://www.bsp.gov.ph";
const LIST = `${HOST}/_api/web/lists/getByTitle('RERB')/items?$expand=AttachmentFiles&$orderby=Id%20desc&$select=Id,Title,AttachmentFiles&$top=100`;
const ACCEPT_JSON = "application/json;odata=verbose";
const MAX_LIST_PAGES = 40;
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const LONG_MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

/** `29May2026` (a list title or a PDF file name) to an ISO date. */
export function bspTitleDate(title: string): IsoDate | undefined {
  const m = /^(\d{1,2})([A-Za-z]{3})(\d{4})(?:\.pdf)?$/i.exec(title.trim());
  const month = m ? MONTHS.indexOf(m[2]!.toLowerCase()) + 1 : 0;
  return m && month > 0 ? isoFromParts(m[3]!, month, m[1]!) : undefined;
}

interface ListItem {
  Title?: unknown;
  AttachmentFiles?: { results?: Array<{ ServerRelativeUrl?: unknown }> };
}
interface ListPage {
  d?: { results?: ListItem[]; __next?: unknown };
}

function listEntries(body: Uint8Array): { entries: Array<{ date: IsoDate; url: string }>; next?: string } {
  const json = parseJsonExact(ID, decodeText(ID, body)) as ListPage;
  const results = json?.d?.results;
  if (!Array.isArray(results)) throw new FeedError(ID, "not the RERB SharePoint list: no d.results array");
  const entries: Array<{ date: IsoDate; url: string }> = [];
  for (const item of results) {
    const title = typeof item.Title === "string" ? item.Title : "";
    const date = bspTitleDate(title);
    if (!date) throw new FeedError(ID, `list item title "${title}" is not a DDMonYYYY date`);
    const path = item.AttachmentFiles?.results?.find(
      (a) => typeof a.ServerRelativeUrl === "string" && /\.pdf$/i.test(a.ServerRelativeUrl),
    )?.ServerRelativeUrl;
    if (typeof path === "string") entries.push({ date, url: `${HOST}${path}` });
  }
  const next = typeof json.d?.__next === "string" ? json.d.__next : undefined;
  return { entries, next };
}

async function parseBulletin(body: Uint8Array, url: string | undefined): Promise<RateRecord[]> {
  const lines = pdfLines(await pdfTextRuns(ID, body));
  if (lines.length === 0) throw new FeedError(ID, "the bulletin has no text layer (an image-only scan?)");
  const titleAt = lines.findIndex((l) => l.text === "REFERENCE EXCHANGE RATE BULLETIN");
  if (titleAt < 0) throw new FeedError(ID, "not a Reference Exchange Rate Bulletin: no such title");
  const dated = /^(\d{1,2}) ([A-Za-z]+) (\d{4})$/.exec(lines[titleAt + 1]?.text ?? "");
  const month = dated ? LONG_MONTHS.indexOf(dated[2]!.toLowerCase()) + 1 : 0;
  const date = dated && month > 0 ? isoFromParts(dated[3]!, month, dated[1]!) : undefined;
  if (!date)
    throw new FeedError(ID, `the line under the bulletin title, "${lines[titleAt + 1]?.text ?? ""}", is not a date`);
  const named = url ? bspTitleDate(url.slice(url.lastIndexOf("/") + 1)) : undefined;
  if (named && named !== date) throw new FeedError(ID, `the bulletin is dated ${date} but its file name says ${named}`);
  const found = lines.map((l) => /^BSP Reference Rate: PHP (\S+)$/.exec(l.text)).filter(Boolean);
  if (found.length !== 1)
    throw new FeedError(ID, `${found.length} "BSP Reference Rate: PHP …" lines in the bulletin of ${date}`);
  const rate = requireDecimal(ID, found[0]![1], `BSP Reference Rate on ${date}`, { thousands: "," });
  return [{ effectiveDate: date, currency: "USD", rate }];
}

const bsp = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Bangko Sentral ng Pilipinas", abbreviatedName: "BSP" },
      { languageCode: "fil", name: "Bangko Sentral ng Pilipinas", abbreviatedName: "BSP" },
    ],
    // The bulletin is run about 08:30 Manila time (the recorded one: "Run date/time: 28-May-2026 08:36 AM").
    dailyUpdateTime: "08:30:00",
    bankCurrency: "PHP",
    countryCode: ["PH"],
    region: ["Asia"],
    timeZone: "Asia/Manila",
    website: "https://www.bsp.gov.ph",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "2017-11-06",
    maxRangeDays: 30,
    sourceUrl: LIST,
  },

  // The list newest first, page by page (`__next`) until it reaches before `from`; then each bulletin.
  async fetch(range, { http }) {
    const docs: FeedDocument[] = [];
    const wanted: Array<{ date: IsoDate; url: string }> = [];
    let url: string | undefined = LIST;
    for (let page = 0; url && page < MAX_LIST_PAGES; page++) {
      const doc = await http.get(url, { accept: ACCEPT_JSON });
      docs.push(doc);
      const { entries, next } = listEntries(doc.body);
      if (range.kind === "latest") {
        const newest = [...entries].sort((a, b) => b.date.localeCompare(a.date))[0];
        if (newest) wanted.push(newest);
        break;
      }
      wanted.push(...entries.filter((e) => e.date >= range.from && e.date <= range.to));
      if (entries.some((e) => e.date < range.from)) break;
      url = next;
    }
    const seen = new Set<string>();
    for (const entry of wanted.sort((a, b) => a.date.localeCompare(b.date))) {
      if (seen.has(entry.url)) continue;
      seen.add(entry.url);
      docs.push(await http.get(entry.url, { accept: "application/pdf" }));
    }
    return docs;
  },

  async parse(body, { url }) {
    if (looksLikePdf(body)) return parseBulletin(body, url);
    if (url && /\.pdf$/i.test(url)) return parseBulletin(body, url);
    listEntries(body);
    return [];
  },
});

export default bsp;
