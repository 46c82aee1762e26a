// Which publications a publish made: for each bank re-rendered, its new Latest document against the one
// the previous generation served. A later date is a publication; the same date with different figures
// is a revision; the same figures (a re-render after a renderer or descriptor change) are no event.
import { readFile } from "node:fs/promises";
import { join } from "node:path";

import { isLosslessNumber, parse } from "lossless-json";

import { logger, type Logger } from "../log.js";
import type { Store } from "../store/database.js";
import { recordEvents, type NewEvent, type RatesPublished } from "../store/events.js";
import type { LatestRatesDocument } from "../types.js";

type Figures = Map<string, string>;

/** A bank's rates as `currency → "rate/unit"`, the identity of a figure. */
function figuresOf(doc: LatestRatesDocument): Figures {
  return new Map(doc.rates.map((r) => [r.currency, `${r.rate}/${r.unitMultiplier ?? 0}`]));
}

/** The date and figures a published Latest.json holds (undefined when unreadable). */
export function figuresOfLatestJson(text: string): { effectiveDate: string; figures: Figures } | undefined {
  try {
    const body = parse(text) as { rates?: Record<string, Record<string, { rate: unknown; unitMultiplier?: unknown }>> };
    const [date, day] = Object.entries(body.rates ?? {})[0] ?? [];
    if (!date || !day) return undefined;
    const figures: Figures = new Map();
    for (const [currency, r] of Object.entries(day)) {
      if (currency === "warnings") continue; // the date's warnings, not a figure
      const rate = isLosslessNumber(r.rate) ? r.rate.value : String(r.rate);
      const unit = isLosslessNumber(r.unitMultiplier) ? Number(r.unitMultiplier.value) : Number(r.unitMultiplier ?? 0);
      figures.set(currency, `${rate}/${unit}`);
    }
    return { effectiveDate: date, figures };
  } catch {
    return undefined;
  }
}

/** The event a new Latest document makes against what was served before, if any. */
export function publicationOf(
  doc: LatestRatesDocument,
  before: { effectiveDate: string; figures: Figures } | undefined,
  paths: RatesPublished["latest"],
): RatesPublished | undefined {
  const now = figuresOf(doc);
  let revision = false;
  let changed: string[];
  if (!before || doc.effectiveDate > before.effectiveDate) {
    changed = [...now].filter(([c, f]) => before?.figures.get(c) !== f).map(([c]) => c);
  } else if (doc.effectiveDate === before.effectiveDate) {
    changed = [...now].filter(([c, f]) => before.figures.get(c) !== f).map(([c]) => c);
    const removed = [...before.figures.keys()].filter((c) => !now.has(c));
    if (changed.length === 0 && removed.length === 0) return undefined;
    changed.push(...removed);
    revision = true;
  } else {
    // An older date than was served (rates deleted): not a publication.
    return undefined;
  }
  return {
    bankId: doc.bankId,
    effectiveDate: doc.effectiveDate,
    publishedAt: doc.publishedAt,
    currencies: changed.sort(),
    revision,
    latest: paths,
  };
}

/**
 * Called by the publisher once the new generation is current: compares each re-rendered bank with
 * the previous generation's Latest.json and records the events. A failure is logged, never thrown:
 * the publish itself has succeeded.
 */
export async function recordPublications(
  store: Store,
  input: {
    /** The previous generation's directory (out/.generations/<gen>), or: */
    previousDir?: string | undefined;
    /** A reader of the previous generation's files (a tree target's: src/publish/target.ts). */
    readPrevious?: ((path: string) => Promise<string | undefined>) | undefined;
    generation: string;
    docs: LatestRatesDocument[];
    latestPath: (doc: LatestRatesDocument, ext: "json" | "xml" | "csv" | "xlsx") => string;
    now?: Date;
    log?: Logger;
  },
): Promise<number[]> {
  try {
    const events: NewEvent[] = [];
    for (const doc of input.docs) {
      const path = input.latestPath(doc, "json");
      const text = input.readPrevious
        ? await input.readPrevious(path).catch(() => undefined)
        : input.previousDir
          ? await readFile(join(input.previousDir, path), "utf8").catch(() => undefined)
          : undefined;
      const before = text === undefined ? undefined : figuresOfLatestJson(text);
      const paths = {
        json: `/${path}`,
        xml: `/${input.latestPath(doc, "xml")}`,
        csv: `/${input.latestPath(doc, "csv")}`,
        xlsx: `/${input.latestPath(doc, "xlsx")}`,
      };
      const data = publicationOf(doc, before, paths);
      if (data) events.push({ data, generation: input.generation });
    }
    return await recordEvents(store, events, input.now);
  } catch (error) {
    (input.log ?? logger()).error({ err: (error as Error).message }, "events of a publish not recorded");
    return [];
  }
}
