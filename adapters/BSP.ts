// Bangko Sentral ng Pilipinas: the BSP Reference Rate of the peso, PHP per 1 USD (Direct), from the daily
// Reference Exchange Rate Bulletin (one PDF per business day).
// - Fetch: the bulletins are attachments of a SharePoint list ("RERB"), listed newest first through its
//   REST API as JSON (https://www.bsp.gov.ph/_api/web/lists/getByTitle('RERB')/items?$expand=
//   AttachmentFiles&$orderby=Id desc&$select=Id,Title,AttachmentFiles&$top=100, Accept
//   application/json;odata=verbose), paged by `d.__next`, titles like `29May2026`. The list pages are
//   read only to find the bulletins (navigation, never parsed); an item whose title is no date is
//   placed by its file's name, or skipped.
// - The bulletin: the title "REFERENCE EXCHANGE RATE BULLETIN", the date on the line under it
//   (`28 May 2026`, checked against the file name: another day's bulletin is refused), and the line
//   "BSP Reference Rate: PHP 61.550", the bank's own figure. The other currencies of the bulletin are
//   reprints of LSEG closing prices and are deliberately not read.
// - Bulletins before 2017-11-06 are image-only scans (no text layer): coverage starts there.
// - The bulletin is run at about 08:30 Manila time ("Run date/time: 28-May-2026 08:36 AM"), business days.
import {
  AnswerRows,
  FeedError,
  defineAdapter,
  isoFromParts,
  parseJsonExact,
  requireDate,
  requireDecimal,
  type FeedDocument,
  type IsoDate,
  type ParsedAnswer,
} from "../src/feed/kit.js";
import { monthNumber } from "../src/feed/month-names.js";
import { pdfLines, pdfTextRuns } from "../src/feed/pdf-text.js";

const ID = "BSP";
const HOST = "https://www.bsp.gov.ph";
const LIST = `${HOST}/_api/web/lists/getByTitle('RERB')/items?$expand=AttachmentFiles&$orderby=Id%20desc&$select=Id,Title,AttachmentFiles&$top=100`;
const ACCEPT_JSON = "application/json;odata=verbose";
const MAX_LIST_PAGES = 40;

/** `29May2026` (a list title or a PDF file name) to an ISO date. */
export function bspTitleDate(title: string): IsoDate | undefined {
  const m = /^(\d{1,2})([A-Za-z]{3})(\d{4})(?:\.pdf)?$/i.exec(title.trim());
  const month = m ? monthNumber(m[2]!) : undefined;
  return m && month ? isoFromParts(m[3]!, month, m[1]!) : undefined;
}

interface ListItem {
  Title?: unknown;
  AttachmentFiles?: { results?: Array<{ ServerRelativeUrl?: unknown }> };
}
interface ListPage {
  d?: { results?: ListItem[]; __next?: unknown };
}

function listEntries(body: Uint8Array): { entries: Array<{ date: IsoDate; url: string }>; next?: string } {
  const json = parseJsonExact(ID, body) as ListPage;
  const results = json?.d?.results;
  if (!Array.isArray(results)) throw new FeedError(ID, "not the RERB SharePoint list: no d.results array");
  const entries: Array<{ date: IsoDate; url: string }> = [];
  for (const item of results) {
    const path = item.AttachmentFiles?.results?.find(
      (a) => typeof a.ServerRelativeUrl === "string" && /\.pdf$/i.test(a.ServerRelativeUrl),
    )?.ServerRelativeUrl;
    if (typeof path !== "string") continue;
    const title = typeof item.Title === "string" ? item.Title : "";
    const date = bspTitleDate(title) ?? bspTitleDate(path.slice(path.lastIndexOf("/") + 1));
    if (date) entries.push({ date, url: `${HOST}${path}` });
  }
  const next = typeof json.d?.__next === "string" ? json.d.__next : undefined;
  return { entries, next };
}

async function parseBulletin(body: Uint8Array, url: string | undefined): Promise<ParsedAnswer> {
  const lines = pdfLines(await pdfTextRuns(ID, body));
  if (lines.length === 0) throw new FeedError(ID, "the bulletin has no text layer (an image-only scan?)");
  const titleAt = lines.findIndex((l) => l.text === "REFERENCE EXCHANGE RATE BULLETIN");
  if (titleAt < 0) throw new FeedError(ID, "not a Reference Exchange Rate Bulletin: no such title");
  const said = lines[titleAt + 1]?.text ?? "";
  const dated = /^(\d{1,2}) (\p{L}+) (\d{4})$/u.exec(said);
  if (!dated) throw new FeedError(ID, `the line under the bulletin title, "${said}", is not a date`);
  // A day that does not exist ("31 June 2026") holds the figure: it cannot be dated.
  const month = monthNumber(dated[2]!);
  const date = month ? isoFromParts(dated[3]!, month, dated[1]!) : undefined;
  const named = url ? bspTitleDate(url.slice(url.lastIndexOf("/") + 1)) : undefined;
  if (date && named && named !== date)
    throw new FeedError(ID, `the bulletin is dated ${date} but its file name says ${named}`);
  const found = lines.filter((l) => /^BSP Reference Rate: PHP \S+$/.test(l.text));
  if (found.length === 0) throw new FeedError(ID, `no "BSP Reference Rate: PHP …" line in the bulletin of ${said}`);
  // Two such lines with different figures are a conflict, held by the ingest gate; the same one twice is one.
  const rows = new AnswerRows(ID);
  for (const line of found) {
    const raw = line.text.slice(line.text.lastIndexOf(" ") + 1);
    rows.read(
      `page ${line.page} "${line.text}"`,
      () => {
        const effectiveDate = requireDate(ID, date, said);
        return {
          effectiveDate,
          currency: "USD",
          rate: requireDecimal(ID, raw, "BSP Reference Rate", { thousands: "," }),
        };
      },
      { effectiveDate: said, currency: "USD", rate: raw },
    );
  }
  return rows.result();
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

  navigation: /^https:\/\/www\.bsp\.gov\.ph\/_api\/web\/lists\//i,

  // The list newest first, page by page (`__next`) until it reaches before `from`; then each bulletin.
  async fetch(range, { http }) {
    const docs: FeedDocument[] = [];
    const wanted: Array<{ date: IsoDate; url: string }> = [];
    let url: string | undefined = LIST;
    for (let page = 0; url && page < MAX_LIST_PAGES; page++) {
      const doc = await http.get(url, { accept: ACCEPT_JSON });
      docs.push({ ...doc, role: "navigation" });
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

  parse: (body, { url }) => parseBulletin(body, url),
});

export default bsp;
