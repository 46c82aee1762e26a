// For end-to-end fetches through the feed mirror of banks whose recordings lack a navigation page (a form,
// a listing): those GETs are answered from the project's own fixtures, every other request goes on.
import type { FeedDocument, HttpClient } from "../../src/types.js";

/** `client`, except that a GET of one of `pages` (by URL) is answered with that page. */
export function withPages(client: HttpClient, pages: Readonly<Record<string, string | Buffer>>): HttpClient {
  const page = (url: string): FeedDocument | undefined => {
    const body = pages[url];
    if (body === undefined) return undefined;
    const at = new Date();
    const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
    return { url, method: "GET", status: 200, contentType: "text/html", body: bytes, startedAt: at, finishedAt: at };
  };
  const wrapped: HttpClient = {
    get: (url, init) => Promise.resolve(page(url) ?? client.get(url, init)),
    post: (url, body, init) => client.post(url, body, init),
    session: () => withPages(client.session(), pages),
  };
  return wrapped;
}
