// Every adapter over every recording of its bank in ../shared/feeds: the body parses, the records
// pass the ingest gate, and every figure not derived by arithmetic is found, digit for digit, in
// the bytes the bank sent. Skipped only when ../shared/feeds is absent.
import { describe, expect, it } from "vitest";

import { loadAdapters } from "../src/feed/registry.js";
import { validateRecords } from "../src/ingest/validate.js";
import { recordingBody, recordings, sharedFeedsPresent } from "./support/feeds.js";

const adapters = await loadAdapters();
const covered = recordings().filter((r) => adapters.has(r.bank));
const TEXTUAL = /json|xml|csv|text|html|rss/i;

/** The ways a feed may write a decimal: as is, with a decimal comma, with thousands separators. */
function spellings(rate: string): string[] {
  const [int = "", frac] = rate.split(".");
  const grouped = (sep: string) => int.replace(/\B(?=(\d{3})+(?!\d))/g, sep);
  const out = new Set<string>();
  for (const [thousands, point] of [["", "."], ["", ","], [",", "."], [" ", ","], [".", ","], ["\u00a0", ","], ["'", "."], [" ", "."]] as const) {
    out.add(frac === undefined ? grouped(thousands) : `${grouped(thousands)}${point}${frac}`);
  }
  return [...out];
}

describe.skipIf(!sharedFeedsPresent)("conformance over ../shared/feeds", () => {
  it("has recordings for the adapters", () => {
    expect(covered.length).toBeGreaterThan(0);
  });

  for (const r of covered) {
    it(`${r.bank} parses ${r.file}`, async () => {
      const adapter = adapters.get(r.bank)!;
      const body = recordingBody(r);
      const records = validateRecords(r.bank, adapter.bank.bankCurrency, await adapter.parse(body, { url: r.url, contentType: r.contentType }));
      if (!TEXTUAL.test(r.contentType)) return;
      const text = body.toString("latin1") + body.toString("utf8");
      const missing = records.filter((x) => !x.derivation && !spellings(x.rate).some((s) => text.includes(s)));
      expect(missing.slice(0, 5)).toEqual([]);
    });
  }
});
