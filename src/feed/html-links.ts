// Landing pages that link to a bank's data file (a workbook whose name changes with each upload):
// find the link with cheerio, resolve it against the page, and escape its path.
import * as cheerio from "./cheerio.js";

import { FeedError } from "../errors.js";
import type { FeedDocument, HttpClient } from "../types.js";
import { decodeText } from "./body.js";

/** Every `a[href]` of a page whose resolved URL matches `pattern` (and whose text matches `text`, when given), in page order. */
export function findLinks(html: string, pageUrl: string, pattern: RegExp, text?: RegExp): string[] {
  const $ = cheerio.load(html);
  const out: string[] = [];
  $("a[href]").each((_i, el) => {
    const href = ($(el).attr("href") ?? "").trim();
    if (!href) return;
    let url: string;
    try {
      url = new URL(href, pageUrl).href; // WHATWG URL escapes spaces and non-ASCII in the path
    } catch {
      return;
    }
    if (pattern.test(url) && (!text || text.test($(el).text()))) out.push(url);
  });
  return [...new Set(out)];
}

/** The first matching link, or a FeedError naming what was looked for. */
export function requireLink(
  bankId: string,
  html: string,
  pageUrl: string,
  pattern: RegExp,
  what: string,
  text?: RegExp,
): string {
  const link = findLinks(html, pageUrl, pattern, text)[0];
  if (!link) throw new FeedError(bankId, `no link to ${what} on ${pageUrl} (has the page changed?)`);
  return link;
}

/** A bank whose data is a file linked from a landing page (the file's name changes with each upload). */
export interface LinkedFile {
  bankId: string;
  /** The landing page. */
  page: string;
  /** The file's URL, resolved against the page. */
  link: RegExp;
  /** What the page and the file are, for error messages: "the statistics page", "the 8.8 Exchange Rates Daily workbook". */
  pageName: string;
  fileName: string;
  /** Accept header for the file. */
  accept: string;
}

/**
 * Fetches the landing page, then the file it links to, in one session: both answers, in that order, the
 * page marked as navigation (recorded, never parsed).
 */
export async function fetchLinkedFile(http: HttpClient, f: LinkedFile): Promise<FeedDocument[]> {
  const session = http.session();
  const page = await session.get(f.page, { accept: "text/html" });
  const link = requireLink(f.bankId, decodeText(f.bankId, page.body), f.page, f.link, f.fileName);
  return [{ ...page, role: "navigation" }, await session.get(link, { accept: f.accept })];
}
