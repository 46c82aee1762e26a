// Landing pages that link to a bank's data file (a workbook whose name changes with each upload):
// find the link with cheerio, resolve it against the page, and escape its path.
import * as cheerio from "cheerio";

import { FeedError } from "../errors.js";

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
export function requireLink(bankId: string, html: string, pageUrl: string, pattern: RegExp, what: string, text?: RegExp): string {
  const link = findLinks(html, pageUrl, pattern, text)[0];
  if (!link) throw new FeedError(bankId, `no link to ${what} on ${pageUrl} (has the page changed?)`);
  return link;
}
