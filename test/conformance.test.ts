// Every adapter over every recording of its bank in ../shared/feeds: the body parses, the records
// pass the ingest gate, and every figure not derived by arithmetic is found, digit for digit, as a
// number in the bytes the bank sent (a currency named by rule leaves its figure the bank's own text).
// Skipped only when ../shared/feeds is absent.
import { describe, expect, it } from "vitest";

import { loadAdapters } from "../src/feed/registry.js";
import { isNavigation, parseDocuments, type ParsedDocument } from "../src/ingest/ingest.js";
import type { FeedDocument } from "../src/types.js";
import { recordingBody, recordings, sharedFeedsPresent } from "./support/feeds.js";
import type { RateRecord } from "../src/types.js";

const adapters = await loadAdapters();
const covered = recordings().filter((r) => adapters.has(r.bank));
/** Formats whose numbers can be searched in the raw bytes (not XLSX, XLS or PDF). */
const TEXTUAL = /^\s*(text\/|application\/(json|xml|csv|rss\+xml|vnd\.sdmx))/i;

/**
 * Recordings that are not the feed (a bank's error page, an empty form): the adapter must refuse
 * them with a FeedError naming the bank, never read them as "no rates".
 */
const MONTHLY = "monthly figures only (saved by another project): no rate of a day, so no rates found";
const EXPECTED_REJECTIONS: Record<string, string> = {
  "BOTA/003.html": "a bare form without the rates table",
  "FRB/001.csv": MONTHLY,
  "FRB/002.csv": MONTHLY,
  "SNB/001.csv": MONTHLY,
  "SNB/003.csv": MONTHLY,
  "NBS/002.xml": "the foreign exchange (buying/selling) list, not the middle rates exrates reads: no rates found",
  "NBS/003.xml": "the foreign cash (buying/selling) list, not the middle rates exrates reads: no rates found",
  "BNA/067.json": "only VEF figures (the bolívar fuerte, replaced in 2018), a code exrates leaves out",
  "HNB/002.json": "the kuna-era list of 2022, before the euro rates exrates reads: no rates found",
  "HMRC/012.json":
    "the 404 of a month not published yet (fetch answers it with no document; its body is no rates file)",
};

/**
 * Recordings with rows the adapters hold rather than store, and why holding each is right. Every other
 * recording must hold nothing.
 */
const CONFLICT =
  "the same date and currency given two different figures (a mistyped date in the bank's history): neither is taken";
const SPIKE = "an isolated figure far from the medians of the figures around it (a data-entry slip in the bank's file)";
const EXPECTED_HELD: Record<string, { count: number; why: string }> = {
  "BIS/001.csv": {
    count: 4,
    why: "Bulgaria's euro history (restated from the lev) and Kiribati's AUD differ from the euro area's and Australia's lines",
  },
  "BIS/004.csv": {
    count: 3,
    why: "Bulgaria's and Croatia's euro histories (restated) and Kiribati's AUD differ from the euro area's and Australia's lines",
  },
  "UST/001.json": {
    count: 1,
    why: '"Bulgaria-Lev New" on 2026-06-30, after the lev gave way to the euro, at the euro\'s figure',
  },
  "HMRC/001.xml": { count: 1, why: "ECS, HMRC's label for Ecuador in 2021, carries the US dollar's figure" },
  "BCRA/001.json": { count: 1, why: 'VEB "BOLIVARES": which bolívar and per how many units the feed does not say' },
  "BM/001.pdf": {
    count: 1,
    why: 'the Zimbabwe "Dólar" row, whose figure has stood still for years and whose currency (ZWL, withdrawn in 2024, or ZWG) the bulletin does not say',
  },
  "CBG/001.json": { count: 12, why: CONFLICT },
  "CBG/002.json": { count: 12, why: CONFLICT },
  "CBG/004.json": { count: 8, why: CONFLICT },
  "CBG/005.json": { count: 14, why: `${CONFLICT}; ${SPIKE}` },
  "CBG/006.json": { count: 6, why: CONFLICT },
  "CBG/007.json": { count: 8, why: CONFLICT },
  "CBG/008.json": { count: 9, why: CONFLICT },
  "CBG/009.json": { count: 12, why: `${CONFLICT}; ${SPIKE}` },
  "CBG/010.json": { count: 3, why: `${CONFLICT}; ${SPIKE}` },
  "CBG/012.json": { count: 2, why: CONFLICT },
  "CBG/013.json": { count: 10, why: CONFLICT },
  "CBG/015.json": { count: 4, why: CONFLICT },
  "CBG/016.json": { count: 3, why: SPIKE },
  "CBG/017.json": { count: 7, why: `${CONFLICT}; ${SPIKE}` },
  "CBG/018.json": { count: 9, why: `${CONFLICT}; ${SPIKE}` },
  "CBG/020.json": { count: 8, why: `${CONFLICT}; ${SPIKE}` },
  "CBG/021.json": { count: 6, why: CONFLICT },
  "CBG/022.json": { count: 8, why: CONFLICT },
  "CBG/023.json": { count: 3, why: `${CONFLICT}; ${SPIKE}` },
  "CBG/024.json": { count: 6, why: `${CONFLICT}; ${SPIKE}` },
  "CBG/025.json": { count: 4, why: `${CONFLICT}; ${SPIKE}` },
  "CBG/026.json": { count: 5, why: `${CONFLICT}; ${SPIKE}` },
  "CBG/028.json": { count: 5, why: `${CONFLICT}; ${SPIKE}` },
  "CBG/029.json": { count: 2, why: CONFLICT },
  "CBG/032.json": { count: 5, why: `${CONFLICT}; ${SPIKE}` },
  "CBI/002.xlsx": { count: 3, why: "gold prices typed as malformed text (`6,006 ,624.000`): no figure can be read" },
  "CBS/002.xlsx": { count: 1, why: "one row dated 12 January in the February section: the day meant is unknown" },
  "RBM/001.html": {
    count: 2,
    why: "the Irish pound (withdrawn in 2002) at a figure that does not follow the euro's fixed rate",
  },
};

/** The ways a feed may write a decimal: as is, with a decimal comma, with thousands separators. */
function spellings(rate: string): string[] {
  const [int = "", frac] = rate.split(".");
  const grouped = (sep: string) => int.replace(/\B(?=(\d{3})+(?!\d))/g, sep);
  const out = new Set<string>();
  for (const [thousands, point] of [
    ["", "."],
    ["", ","],
    [",", "."],
    [" ", ","],
    [".", ","],
    ["\u00a0", ","],
    ["'", "."],
    [" ", "."],
  ] as const) {
    out.add(frac === undefined ? grouped(thousands) : `${grouped(thousands)}${point}${frac}`);
  }
  return [...out];
}

/**
 * Every number-like token of a text, indexed once: each run of digits and separators, and each of
 * its sub-runs that starts and ends on a digit-run boundary ("1 234,50;7" gives "1", "234", "50",
 * "1 234", "234,50", "1 234,50", ...). A figure is found when one of its spellings is a token, so
 * `1.085` is not found inside `11.0850`.
 */
function numberTokens(text: string): Set<string> {
  const tokens = new Set<string>();
  for (const m of text.matchAll(/\d[\d.,' \u00a0]*/g)) {
    const run = m[0];
    const starts: number[] = [];
    const ends: number[] = [];
    for (let i = 0; i < run.length; i++) {
      const digit = run.charCodeAt(i) >= 48 && run.charCodeAt(i) <= 57;
      if (!digit) continue;
      const prev = i > 0 ? run.charCodeAt(i - 1) : 0;
      const next = i + 1 < run.length ? run.charCodeAt(i + 1) : 0;
      if (!(prev >= 48 && prev <= 57)) starts.push(i);
      if (!(next >= 48 && next <= 57)) ends.push(i);
    }
    // ends is ascending: for each start, only the ends within 40 characters.
    let first = 0;
    for (const s of starts) {
      while (first < ends.length && ends[first]! < s) first++;
      for (let k = first; k < ends.length && ends[k]! - s < 40; k++) {
        const e = ends[k]!;
        const token = run.slice(s, e + 1);
        tokens.add(token);
        // Some banks group the fraction too ("2,602.0,545" is 2602.0545).
        if (token.includes(",") && token.includes(".")) tokens.add(token.replaceAll(",", ""));
      }
    }
  }
  return tokens;
}

describe.skipIf(!sharedFeedsPresent)("conformance over ../shared/feeds", () => {
  it("has recordings for the adapters", () => {
    expect(covered.length).toBeGreaterThan(0);
  });

  for (const r of covered) {
    // As the daemon had it: the method and the body it sent.
    const doc: FeedDocument = {
      url: r.url,
      method: r.method as "GET" | "POST",
      ...(r.requestBody !== undefined && { requestBody: r.requestBody }),
      status: r.status,
      contentType: r.contentType,
      body: recordingBody(r),
      startedAt: new Date(),
      finishedAt: new Date(),
    };
    // A landing page or form the adapter reads only to find the data: recorded, never parsed.
    if (isNavigation(adapters.get(r.bank)!, doc)) continue;
    const rejection = EXPECTED_REJECTIONS[r.file];
    if (rejection) {
      it(`${r.bank} refuses ${r.file} (${rejection})`, async () => {
        await expect(parseDocuments(adapters.get(r.bank)!, [doc])).rejects.toThrow(new RegExp(`^${r.bank}: `));
      });
      continue;
    }
    it(`${r.bank} parses ${r.file}`, async () => {
      const adapter = adapters.get(r.bank)!;
      const body = doc.body;
      // Through ingest's parse (the gate, and the rule that an answer yielding nothing must say why).
      const [{ records, held }] = (await parseDocuments(adapter, [doc])) as [ParsedDocument];
      // Every held row says why and where; a recording holds rows only where EXPECTED_HELD says so.
      for (const h of held) expect(h.reason && h.source, JSON.stringify(h)).toBeTruthy();
      expect(held.length, JSON.stringify(held.slice(0, 3))).toBe(EXPECTED_HELD[r.file]?.count ?? 0);
      if (!TEXTUAL.test(r.contentType)) return;
      const tokens = numberTokens(`${body.toString("latin1")}\n${body.toString("utf8")}`);
      const computed = (x: RateRecord) => x.derivation !== undefined && !x.derivation.startsWith("name ");
      const missing = records.filter((x) => !computed(x) && !spellings(x.rate).some((s) => tokens.has(s)));
      expect(missing.slice(0, 5)).toEqual([]);
    });
  }
});
