// What Latest and a dateless Convert say about a bank that is not up to date: `X-Bank-State` (late,
// failing or stale) and `X-Bank-Expected-Date` (the publication it should have by now), beside the
// published bytes, which stay as they are (same body, same ETag). The states are the status rows'
// (src/schedule/status.ts: the scheduler's under `exrates start`, the database's under `exrates
// serve`), never computed a second way. Read at most once a minute, and again at a new generation:
// a request pays a map lookup and never waits; the request that finds the read old starts the next.
import type { ServerResponse } from "node:http";

/** The headers of a bank's notice (lower case, as node:http keeps them). */
export type NoticeHeaders = Readonly<Record<string, string>>;

/** The states said: the bank is behind its calendar or its feed fails. Any other state says nothing. */
const SAID = new Set(["late", "failing", "stale"]);

/** How long the states read are used before they are read again. */
export const NOTICE_MS = 60_000;

interface Read {
  at: number;
  generation: string | undefined;
  notices: ReadonlyMap<string, NoticeHeaders>;
}

/** The notices of status rows (`{ id, state, expectedDate }` each), by bank id. */
export function noticesOf(rows: readonly unknown[]): Map<string, NoticeHeaders> {
  const notices = new Map<string, NoticeHeaders>();
  for (const r of rows) {
    const row = r as { id?: unknown; state?: unknown; expectedDate?: unknown };
    if (typeof row.id !== "string" || typeof row.state !== "string" || !SAID.has(row.state)) continue;
    const headers: Record<string, string> = { "x-bank-state": row.state };
    if (typeof row.expectedDate === "string") headers["x-bank-expected-date"] = row.expectedDate;
    notices.set(row.id, headers);
  }
  return notices;
}

/**
 * A bank's notice, at once, from the last read: a request never waits. The first request (and the
 * first at a new generation, or a minute after the last read) starts a read and is answered from what
 * was known before it (nothing, at the first). A read that fails says nothing until the next read, a
 * minute later.
 */
export function bankNotices(
  rows: () => Promise<unknown[]>,
  now: () => number,
  generation: () => string | undefined,
): (id: string) => NoticeHeaders | undefined {
  let last: Read | undefined;
  let reading: Promise<unknown> | undefined;
  const read = () => {
    const at = now();
    const of = generation();
    reading ??= rows()
      .then((r) => (last = { at, generation: of, notices: noticesOf(r) }))
      .catch(() => (last = { at, generation: of, notices: new Map() }))
      .finally(() => (reading = undefined));
  };
  return (id) => {
    if (!last || last.generation !== generation() || now() - last.at >= NOTICE_MS) read();
    return last?.notices.get(id);
  };
}

/**
 * Sends an answer with a bank's notice set on it first (when there is one): set with setHeader, the
 * notice goes out beside the precomputed headers (src/serve/http/precomputed.ts merges them), and
 * the body and ETag are untouched.
 */
export function withNotice(res: ServerResponse, notice: NoticeHeaders | undefined): void {
  if (notice) for (const name in notice) res.setHeader(name, notice[name]!);
}
