// A fake HttpClient for adapter fetch tests: records the requests and answers from a function.
import type { FeedDocument, HttpClient } from "../../src/types.js";

export interface SeenRequest {
  method: "GET" | "POST";
  url: string;
  body?: string;
  headers?: Record<string, string>;
}

export type Responder = (
  req: SeenRequest,
) => { status?: number; contentType?: string; body: string | Buffer } | undefined;

export function fakeHttp(respond: Responder = () => ({ body: "" })): HttpClient & { seen: SeenRequest[] } {
  const seen: SeenRequest[] = [];
  const answer = (req: SeenRequest): FeedDocument => {
    seen.push(req);
    const res = respond(req);
    if (!res) throw new Error(`fakeHttp: no answer for ${req.method} ${req.url}`);
    const now = new Date();
    return {
      url: req.url,
      method: req.method,
      status: res.status ?? 200,
      contentType: res.contentType ?? "",
      body: Buffer.isBuffer(res.body) ? res.body : Buffer.from(res.body),
      ...(req.body === undefined ? {} : { requestBody: req.body }),
      startedAt: now,
      finishedAt: now,
    };
  };
  // A responder that throws makes a rejected promise, as a real client's failure does.
  const answerLater = (req: SeenRequest) => new Promise<FeedDocument>((resolve) => resolve(answer(req)));
  const client: HttpClient & { seen: SeenRequest[] } = {
    seen,
    get: (url, init) => answerLater({ method: "GET", url, headers: init?.headers }),
    post: (url, body, init) => answerLater({ method: "POST", url, body, headers: init?.headers }),
    session: () => client,
  };
  return client;
}
