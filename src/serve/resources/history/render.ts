// A history document in the negotiated format (src/publish/render-history.ts: the Latest layouts with
// many dates): streamed as it is read, or whole for a short one (the dated answers' cache keeps bytes).
import {
  daysOf,
  daysOfAsync,
  historyCsv,
  historyJson,
  historyXlsxBytes,
  historyXlsxStream,
  historyXml,
  type HistoryDay,
  type HistoryHeader,
  type HistoryXlsxMeta,
} from "../../../publish/render-history.js";
import type { HistoryRow } from "../../../store/history.js";
import type { Body } from "../../http/dynamic.js";
import type { Format } from "../../http/negotiate.js";

/**
 * A document's rendering in `format`, streamed: rows are read as the bytes go out, from days in
 * memory or read chunk by chunk (SQLite), or read asynchronously (PostgreSQL).
 */
export function render(
  format: Format,
  header: HistoryHeader,
  days: () => Iterable<HistoryDay> | AsyncIterable<HistoryDay>,
  meta: HistoryXlsxMeta,
): () => Body {
  return () => {
    const source = days();
    switch (format) {
      case "json":
        return { text: historyJson(header, source) };
      case "xml":
        return { text: historyXml(header, source) };
      case "csv":
        return { text: historyCsv(header, source) };
      case "xlsx":
        return { binary: historyXlsxStream(header, source, meta) };
    }
  };
}

/** A short document's rendering in `format`, whole. */
export function renderWhole(format: Format, header: HistoryHeader, days: HistoryDay[], meta: HistoryXlsxMeta): Buffer {
  switch (format) {
    case "json":
      return ownText([...historyJson(header, days)].join(""));
    case "xml":
      return ownText([...historyXml(header, days)].join(""));
    case "csv":
      return ownText([...historyCsv(header, days)].join(""));
    case "xlsx":
      return historyXlsxBytes(header, days, meta);
  }
}

/**
 * The text's UTF-8 bytes in a memory block of their own, written once: Buffer.from would give a slice of
 * Node's shared pool, which the answer cache then copies out (answer-cache.ts, ownBytes).
 */
function ownText(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
}

/** A range's chunks as days: read synchronously (SQLite) or asynchronously (PostgreSQL). */
export function daysIn(
  chunks: Iterable<HistoryRow[]> | AsyncIterable<HistoryRow[]>,
): Iterable<HistoryDay> | AsyncIterable<HistoryDay> {
  return Symbol.asyncIterator in chunks ? daysOfAsync(chunks) : daysOf(chunks);
}
