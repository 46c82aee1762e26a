// The one error the client throws: the API's problem body (RFC 9457) as fields, and the same shape for
// what is not a problem body (the token endpoint's OAuth errors, a network failure, an answer that is not
// the API's). Nothing in it ever holds a secret or a token: messages are built from the answer's body,
// the status and the URL's path.

/** Members of a problem body besides the five of RFC 9457 (`bank`, `firstDate`, `supported`...). */
export type ProblemExtensions = Record<string, unknown>;

export interface ProblemFields {
  /** `about:blank`, `urn:exrates:problem:unknown-bank`, `urn:exrates:problem:no-rates-yet`... */
  type: string;
  title: string;
  /** The HTTP status; 0 when no answer came (a network failure, a timeout). */
  status: number;
  detail: string;
  /** The rest of the problem body (for a token endpoint error: `error` and `error_description`). */
  extensions?: ProblemExtensions;
  /** Seconds the server asked to wait (`Retry-After` of a 429 or 503 not retried). */
  retryAfter?: number;
  /** The method and path (no query, no credentials) that failed. */
  request?: string;
}

export class ExratesError extends Error {
  override name = "ExratesError";
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly extensions: ProblemExtensions;
  readonly retryAfter: number | undefined;
  readonly request: string | undefined;

  constructor(fields: ProblemFields, options?: ErrorOptions) {
    super(
      `${fields.status ? `${fields.status} ` : ""}${fields.title}: ${fields.detail}` +
        (fields.request ? ` (${fields.request})` : ""),
      options,
    );
    this.type = fields.type;
    this.title = fields.title;
    this.status = fields.status;
    this.detail = fields.detail;
    this.extensions = fields.extensions ?? {};
    this.retryAfter = fields.retryAfter;
    this.request = fields.request;
  }

  /** The problem body as the API sent it (the five members and the extensions). */
  toJSON(): Record<string, unknown> {
    return { type: this.type, title: this.title, status: this.status, detail: this.detail, ...this.extensions };
  }
}

const PROBLEM_MEMBERS = new Set(["type", "title", "status", "detail"]);

/** An error answer's body, read as a problem, a Keycloak-style OAuth error, or plain text. */
export function problemOf(
  status: number,
  statusText: string,
  contentType: string,
  body: string,
  more: { retryAfter?: number; request?: string } = {},
): ExratesError {
  const title = statusText || `HTTP ${status}`;
  let parsed: unknown;
  if (/json/i.test(contentType)) {
    try {
      parsed = JSON.parse(body);
    } catch {
      parsed = undefined;
    }
  }
  if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
    const record = parsed as Record<string, unknown>;
    const extensions = Object.fromEntries(Object.entries(record).filter(([k]) => !PROBLEM_MEMBERS.has(k)));
    if (typeof record.error === "string") {
      // The token endpoint answers as Keycloak does: {"error": ..., "error_description": ...}.
      const description = typeof record.error_description === "string" ? ` (${record.error_description})` : "";
      return new ExratesError({
        type: "about:blank",
        title,
        status,
        detail: `${record.error}${description}`,
        extensions,
        ...more,
      });
    }
    return new ExratesError({
      type: typeof record.type === "string" ? record.type : "about:blank",
      title: typeof record.title === "string" ? record.title : title,
      status,
      detail: typeof record.detail === "string" ? record.detail : title,
      extensions,
      ...more,
    });
  }
  // Not the API's answer (a proxy's page): a short excerpt of it says whose.
  const excerpt = body.replace(/\s+/g, " ").trim().slice(0, 200);
  return new ExratesError({ type: "about:blank", title, status, detail: excerpt || title, ...more });
}

/** No answer at all: the network, a timeout, an abort. */
export function networkError(error: unknown, request: string): ExratesError {
  const e = error as Error & { cause?: { code?: string; message?: string } };
  const aborted = e?.name === "AbortError" || e?.name === "TimeoutError";
  const why = e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(error);
  return new ExratesError(
    {
      type: "about:blank",
      title: aborted ? (e.name === "TimeoutError" ? "Timeout" : "Aborted") : "Network error",
      status: 0,
      detail: aborted ? (e.message ?? "the request was aborted") : `no answer: ${why}`,
      request,
    },
    { cause: error },
  );
}
