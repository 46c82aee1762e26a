// Server-sent events (the WHATWG event stream format) read from a fetch body, and the reconnecting loop
// of GET /v1/events: after a dropped stream, a server restart or an expired token it connects again with
// `Last-Event-ID`, so the server replays what was missed and no event is lost in between.
import { ExratesError } from "./errors.js";
import { where, type Transport } from "./http.js";
import type { RatesEvent, RatesEventType } from "./types.js";

export interface SseMessage {
  event: string;
  data: string;
  /** The stream's last event id when this message was dispatched. */
  lastEventId: string;
}

/** Splits the stream into messages as the WHATWG parser does (fields, comments, CR/LF/CRLF lines). */
export class SseParser {
  /** The reconnection time the server asked for (`retry:`), in ms. */
  retryMs: number | undefined;
  lastEventId = "";
  private buffer = "";
  private data: string[] = [];
  private event = "";
  private pendingCR = false;

  push(text: string): SseMessage[] {
    let input = text;
    // A CR at the end of the previous chunk and an LF at the start of this one are one line break.
    if (this.pendingCR && input.startsWith("\n")) input = input.slice(1);
    this.pendingCR = false;
    this.buffer += input;
    const out: SseMessage[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      if (!match) break;
      if (match[0] === "\r" && match.index === this.buffer.length - 1) {
        this.pendingCR = true;
      }
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      const message = this.line(line);
      if (message) out.push(message);
    }
    return out;
  }

  private line(line: string): SseMessage | undefined {
    if (line === "") return this.dispatch();
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.event = value;
    else if (field === "id" && !value.includes("\0")) this.lastEventId = value;
    else if (field === "retry" && /^\d+$/.test(value)) this.retryMs = Number(value);
    return undefined;
  }

  private dispatch(): SseMessage | undefined {
    const data = this.data;
    const event = this.event || "message";
    this.data = [];
    this.event = "";
    if (data.length === 0) return undefined;
    return { event, data: data.join("\n"), lastEventId: this.lastEventId };
  }
}

export interface EventLoopOptions {
  url: URL;
  lastEventId: string | undefined;
  signal: AbortSignal | undefined;
  /** The kinds of event yielded; the others are read and passed over. */
  types: ReadonlySet<RatesEventType>;
  /** Until the server says otherwise (`retry:`). */
  reconnectMs: number;
  maxReconnectMs: number;
}

/** The events of the stream, for as long as the caller iterates, across reconnections. */
export async function* rateEvents(transport: Transport, options: EventLoopOptions): AsyncGenerator<RatesEvent> {
  const stop = new AbortController();
  const onAbort = () => stop.abort(options.signal?.reason);
  options.signal?.addEventListener("abort", onAbort, { once: true });
  let lastEventId = options.lastEventId;
  let reconnectMs = options.reconnectMs;
  let failures = 0;
  try {
    while (!stop.signal.aborted) {
      const headers: Record<string, string> = { accept: "text/event-stream" };
      if (lastEventId !== undefined) headers["last-event-id"] = lastEventId;
      let response: Response;
      try {
        response = await transport.open(options.url, headers, stop.signal);
      } catch (error) {
        if (stop.signal.aborted) return;
        if (!retriable(error)) throw error;
        failures++;
        await pause(transport, options, Math.min(options.maxReconnectMs, reconnectMs * 2 ** (failures - 1)), {
          lastEventId,
          reason: (error as Error).message,
          signal: stop.signal,
        });
        continue;
      }
      failures = 0;
      const parser = new SseParser();
      let expired = false;
      try {
        for await (const message of messages(response, parser)) {
          lastEventId = message.lastEventId || lastEventId;
          if (message.event === "token.expired") {
            expired = true;
            break;
          }
          if (options.types.has(message.event as RatesEventType))
            yield { type: message.event, ...(JSON.parse(message.data) as object) } as RatesEvent;
        }
      } catch (error) {
        if (stop.signal.aborted) return;
        // A dropped connection: connect again below.
        void error;
      } finally {
        await response.body?.cancel().catch(() => undefined);
      }
      reconnectMs = parser.retryMs ?? reconnectMs;
      if (stop.signal.aborted) return;
      // The token the stream was opened with has expired: connect again at once (the next token is new).
      if (!expired)
        await pause(transport, options, reconnectMs, { lastEventId, reason: "stream ended", signal: stop.signal });
    }
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
    stop.abort();
  }
}

async function* messages(response: Response, parser: SseParser): AsyncGenerator<SseMessage> {
  if (!response.body) return;
  const decoder = new TextDecoder();
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    for (const message of parser.push(decoder.decode(chunk, { stream: true }))) yield message;
  }
}

/** A refusal (400, 401 after a renewal, 403, 404) ends the loop; a 429, a 503 or no answer is retried. */
function retriable(error: unknown): boolean {
  if (!(error instanceof ExratesError)) return false;
  return error.status === 0 || error.status === 429 || error.status >= 500;
}

async function pause(
  transport: Transport,
  options: EventLoopOptions,
  waitMs: number,
  why: { lastEventId: string | undefined; reason: string; signal: AbortSignal },
): Promise<void> {
  transport.debug({
    event: "reconnect",
    url: where(options.url),
    waitMs,
    ...(why.lastEventId === undefined ? {} : { lastEventId: why.lastEventId }),
    reason: why.reason,
  });
  await transport.options.sleep(waitMs, why.signal).catch(() => undefined);
}
