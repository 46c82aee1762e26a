// Politeness towards the banks' servers during a backfill: one request at a time per host, and a
// pause between two requests to the same host. Wraps the shared HttpClient; retries and the mirror
// stay where they are (src/feed/http.ts).
import { pause } from "../feed/helpers.js";
import type { HttpClient } from "../types.js";

export function politeHttp(http: HttpClient, pauseMs: number, hosts = new Map<string, Promise<unknown>>()): HttpClient {
  function queued<T>(url: string, send: () => Promise<T>): Promise<T> {
    let host: string;
    try {
      host = new URL(url).host;
    } catch {
      return send();
    }
    const previous = hosts.get(host) ?? Promise.resolve();
    const mine = previous.then(send);
    // The next request to this host starts `pauseMs` after this one ends, whatever its outcome.
    hosts.set(
      host,
      mine.then(
        () => pause(pauseMs),
        () => pause(pauseMs),
      ),
    );
    return mine;
  }
  return {
    get: (url, init) => queued(url, () => http.get(url, init)),
    post: (url, body, init) => queued(url, () => http.post(url, body, init)),
    session: () => politeHttp(http.session(), pauseMs, hosts),
  };
}
