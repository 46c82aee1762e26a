// What Latest and a dateless Convert say about a bank that is not up to date: `X-Bank-State` (late,
// failing or stale) and `X-Bank-Expected-Date` (the publication it should have by now), beside the
// published bytes, which stay as they are (same body, same ETag). The states are the status rows'
// (src/schedule/status.ts: the scheduler's under `exrates start`, the database's under `exrates
// serve`), never computed a second way. Read at most once a minute, and again at a new generation:
// a request pays a map lookup; one request per minute starts the refresh and does not wait for it.
import type { ServerResponse } from "node:http";

import type { Eventually } from "../../store/history.js";

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
 * A bank's notice: at once from the last read, or a promise while the first read (or the read of a new
 * generation) is made. A read that fails says nothing (the answers go out without a notice) until
 * the next read, a minute later.
 */
export function bankNotices(
  rows: () => Promise<unknown[]>,
  now: () => number,
  generation: () => string | undefined,
): (id: string) => Eventually<NoticeHeaders | undefined> {
  let last: Read | undefined;
  let reading: Promise<Read | undefined> | undefined;
  const read = (): Promise<Read | undefined> => {
    const at = now();
    const of = generation();
    reading ??= rows()
      .then((r) => (last = { at, generation: of, notices: noticesOf(r) }))
      .catch(() => (last = { at, generation: of, notices: new Map() }))
      .finally(() => (reading = undefined));
    return reading;
  };
  return (id) => {
    if (last && last.generation === generation()) {
      if (now() - last.at >= NOTICE_MS) void read();
      return last.notices.get(id);
    }
    return read().then((r) => r?.notices.get(id));
  };
}

/**
 * Sends an answer with a bank's notice set on it first (when there is one): set with setHeader, the
 * notice goes out beside the precomputed headers (src/serve/http/precomputed.ts merges them), and
 * the body and ETag are untouched.
 */
export function withNotice(
  res: ServerResponse,
  notice: Eventually<NoticeHeaders | undefined> | undefined,
  send: () => void | Promise<void>,
): void | Promise<void> {
  if (notice instanceof Promise) return notice.then((n) => withNotice(res, n, send));
  if (notice) for (const name in notice) res.setHeader(name, notice[name]!);
  return send();
}
