// The sample outputs of docs/API.md are the real ones: each is regenerated here from the real renderers
// (the history renderers, which write Latest's bytes for one date, and the provenance of src/publish/
// provenance.ts) over a few fixed figures, and compared with the sample. A whole document is compared
// byte for byte; a fragment (a date's object, a `provenance` array) is compared as JSON, where a string
// ending in "…" stands for any string starting with what comes before it (a sha256 cut short).
import { readFileSync } from "node:fs";

import { isLosslessNumber, parse as parseLossless } from "lossless-json";
import { describe, expect, it } from "vitest";

import {
  historyCsv,
  historyJson,
  historyXml,
  type HistoryDay,
  type HistoryHeader,
} from "../../src/publish/render-history.js";
import cnb from "../../adapters/CNB.js";
import { toBankResource } from "../../src/feed/adapter.js";
import { convert } from "../../src/publish/cross.js";
import { conversionJson } from "../../src/publish/render-conversion.js";
import { sourcesOf } from "../../src/serve/resources/history/as-of.js";
import type { KnownRow, Provenance } from "../../src/store/as-of.js";

const API = readFileSync(new URL("../../docs/API.md", import.meta.url), "utf8");

/** The first fenced block after `marker` in the text (its content, without the fences). */
function sampleAfter(text: string, marker: string): string {
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`no "${marker}" in the document`);
  const match = /```[a-z]*\n([\s\S]*?)```/.exec(text.slice(at));
  if (!match) throw new Error(`no sample after "${marker}"`);
  return match[1]!;
}

const CNB: HistoryHeader = { bankId: "CNB", baseCurrency: "CZK", quoteType: "Direct" };
const row = (currency: string, rate: string, unitMultiplier = 0, fetchId = 1): KnownRow => ({
  effectiveDate: "2026-03-02",
  currency,
  rate,
  unitMultiplier,
  storedAt: "2026-03-02T13:31:00.000Z",
  fetchId,
});
const text = (pieces: Iterable<string>) => [...pieces].join("");

/** A JSON value with the elisions of a sample resolved: numbers as their text, "x…" as a prefix. */
function normalise(value: unknown): unknown {
  if (isLosslessNumber(value)) return `#${value.toString()}`;
  if (Array.isArray(value)) return value.map(normalise);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalise(v)]));
  return value;
}
/** Whether the real value matches the sample's, "x…" in the sample matching any string starting with x. */
function matches(real: unknown, sample: unknown): boolean {
  if (typeof sample === "string" && sample.endsWith("…"))
    return typeof real === "string" && real.startsWith(sample.slice(0, -1));
  if (Array.isArray(sample))
    return Array.isArray(real) && real.length === sample.length && sample.every((s, i) => matches(real[i], s));
  if (sample && typeof sample === "object") {
    if (!real || typeof real !== "object") return false;
    const [r, s] = [real as Record<string, unknown>, sample as Record<string, unknown>];
    return Object.keys(r).join() === Object.keys(s).join() && Object.keys(s).every((k) => matches(r[k], s[k]));
  }
  return real === sample;
}
const expectMatch = (real: unknown, sample: unknown) => {
  const [r, s] = [normalise(real), normalise(sample)];
  if (!matches(r, s)) expect(r).toEqual(s); // shows the difference
};

describe("docs/API.md samples are what the service writes", () => {
  const latest: HistoryDay = {
    date: "2026-03-02",
    rows: [row("EUR", "24.170"), row("HUF", "6.304", 2), row("IDR", "1.233", 3)],
  };

  it("Latest.json", () => {
    expect(sampleAfter(API, "**JSON** (`Latest.json`)")).toBe(text(historyJson(CNB, [latest])));
  });

  it("Latest.xml", () => {
    const day = { ...latest, rows: latest.rows.slice(0, 2) };
    expect(sampleAfter(API, "**XML** (`Latest.xml`)")).toBe(text(historyXml(CNB, [day])));
  });

  it("Latest.csv", () => {
    const day = { ...latest, rows: latest.rows.slice(0, 2) };
    expect(sampleAfter(API, "**CSV** (`Latest.csv`)")).toBe(text(historyCsv(CNB, [day])));
  });

  it("a period source's figure with its validity (HMRC)", () => {
    const header: HistoryHeader = { bankId: "HMRC", baseCurrency: "GBP", quoteType: "Indirect", periodic: true };
    const jpy = {
      ...row("JPY", "196.34"),
      effectiveDate: "2026-08-01",
      validFrom: "2026-08-01",
      validTo: "2026-08-31",
    };
    const real = parseLossless(text(historyJson(header, [{ date: "2026-08-01", rows: [jpy] }])));
    expectMatch(real, parseLossless(sampleAfter(API, "through the published Latest.")));
  });

  const URL_ = "https://api.cnb.cz/cnbapi/exrates/daily?date=2026-03-02";
  const fetched = (fetchId: number, at: string, sha: string): Provenance => ({
    fetchId,
    kind: "fetch",
    url: URL_,
    at,
    sha256: sha.repeat(32),
  });

  it("a date's provenance", () => {
    const rows = [row("EUR", "24.185", 0, 2), row("HUF", "6.304", 2, 1)];
    const provenance = new Map([
      [1, fetched(1, "2026-03-02T13:31:00.000Z", "9f")],
      [2, fetched(2, "2026-03-02T14:31:00.000Z", "4b")],
    ]);
    const day: HistoryDay = { date: "2026-03-02", rows, sources: sourcesOf(rows, provenance) };
    const real = parseLossless(text(historyJson(CNB, [day]))) as { rates: unknown };
    expectMatch(real.rates, parseLossless(`{${sampleAfter(API, "## Provenance (`provenance=true`)")}}`));
  });

  it("an imported file's provenance", () => {
    const rows = [row("EUR", "24.999", 0, 2), row("HUF", "6.304", 2, 1)];
    const provenance = new Map<number, Provenance>([
      [1, fetched(1, "2026-03-02T13:31:00.000Z", "9f")],
      [
        2,
        {
          ...fetched(2, "2026-03-02T15:00:00.000Z", "c1"),
          kind: "import",
          file: "edited.json",
          importedBy: "alice",
        },
      ],
    ]);
    const day: HistoryDay = { date: "2026-03-02", rows, sources: sourcesOf(rows, provenance) };
    const real = parseLossless(text(historyJson(CNB, [day]))) as { rates: Record<string, unknown> };
    const sample = parseLossless(`{${sampleAfter(API, "**Fetched or imported.**")}}`);
    expectMatch({ provenance: (real.rates["2026-03-02"] as { provenance: unknown }).provenance }, sample);
  });

  it("a conversion (Convert's JSON)", () => {
    const jan5 = (currency: string, rate: string, unitMultiplier = 0): KnownRow => ({
      ...row(currency, rate, unitMultiplier),
      effectiveDate: "2026-01-05",
    });
    const table = {
      header: CNB,
      date: "2026-01-05",
      figures: new Map([
        ["JPY", jan5("JPY", "13.226", 2)],
        ["EUR", jan5("EUR", "24.195")],
      ]),
    };
    const real = conversionJson(convert(table, "125000", "JPY", "EUR", "2026-01-05"));
    expectMatch(parseLossless(real), parseLossless(sampleAfter(API, "into a binary float.")));
  });

  it("the Bank resource (CNB's, from its descriptor)", () => {
    const sample = JSON.parse(sampleAfter(API, "`GET /v1/banks/{id}` (or `/v1/banks/{id}.json`)")) as unknown;
    expect(toBankResource(cnb.bank)).toEqual(sample);
  });

  it("a figure published with a warning (the date's `warnings` member)", () => {
    const ecb: HistoryHeader = { bankId: "ECB", baseCurrency: "EUR", quoteType: "Indirect" };
    const reason = "JPY 170.00 on 2026-03-03 is 4.1% from the median of 3 other banks";
    const on3 = (currency: string, rate: string): KnownRow => ({ ...row(currency, rate), effectiveDate: "2026-03-03" });
    const day: HistoryDay = {
      date: "2026-03-03",
      rows: [{ ...on3("JPY", "170.00"), warning: reason }, on3("USD", "1.0900")],
    };
    const real = parseLossless(text(historyJson(ecb, [day]))) as { rates: unknown };
    // The sample cuts the reason short with "...": any reason starting so matches.
    const sample = sampleAfter(API, "### Figures published with a warning").replace(/\.\.\."/g, '…"');
    expectMatch({ rates: real.rates }, parseLossless(`{${sample}}`));
  });
});
