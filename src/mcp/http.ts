// `exrates mcp --http PORT`: the MCP tools over streamable HTTP (stateless: one McpServer per request,
// JSON answers) at `/mcp`, bearer-checked like the API. The caller's token is the API's own: the API
// judges it (a HEAD of /v1/banks with it: a 401, 403 or 400 there is the same refusal here, challenge
// and reason included), and the tools read the API with it, so a disabled client or an expired token
// is refused at once, and each caller is itself to the API's limits and logs. Nothing here logs a token.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

import type { Logger } from "../log.js";
import { boundAddress, closing, listening } from "../serve/http/bind.js";
import { originPolicy, originProblem, type OriginPolicy } from "./origin.js";
import { createRatesMcpServer } from "./server.js";
import type { RatesReader } from "./tools.js";

export const MCP_PATH = "/mcp";
/** A JSON-RPC request bigger than this is refused (the tools' arguments are a few short strings). */
const MAX_BODY_BYTES = 1024 * 1024;

export interface McpHttpOptions {
  host: string;
  port: number;
  /** The API the tokens are for and the tools read. */
  apiUrl: string;
  /** The realm named in the challenge of a request without a token. */
  realm: string;
  /** A reader of the API with the caller's token. */
  clientFor: (token: string) => RatesReader;
  log: Logger;
  fetch?: typeof globalThis.fetch;
  /** The Host names and Origins answered (src/mcp/origin.ts); loopback only by default. */
  origins?: OriginPolicy;
}

export interface RunningMcpHttp {
  url: string;
  server: Server;
  close(): Promise<void>;
}

type Verdict = { ok: true } | { ok: false; status: number; challenge?: string; detail: string };

export async function startMcpHttp(options: McpHttpOptions): Promise<RunningMcpHttp> {
  const server = createServer((req, res) => {
    handle(options, req, res).catch((error: Error) => {
      options.log.error({ err: error.message }, "mcp: request failed");
      if (!res.headersSent) problem(res, 500, "Internal Server Error", "Internal error");
      else res.destroy();
    });
  });
  await listening(server, options.port, options.host);
  return { url: `${boundAddress(server).url}${MCP_PATH}`, server, close: () => closing(server) };
}

async function handle(options: McpHttpOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = new URL(req.url ?? "/", "http://mcp").pathname;
  // Before anything else: a page of another origin (or a rebound DNS name) learns nothing here.
  const refused = originProblem(options.origins ?? originPolicy({}), req.headers);
  if (refused) return problem(res, 403, "Forbidden", refused);
  if (path !== MCP_PATH) return problem(res, 404, "Not Found", `The MCP endpoint is ${MCP_PATH}`);
  // Stateless: no session to stream notifications on (GET) or to end (DELETE).
  if (req.method !== "POST")
    return problem(res, 405, "Method Not Allowed", `${MCP_PATH} answers POST only`, { allow: "POST" });
  if (Number(req.headers["content-length"] ?? 0) > MAX_BODY_BYTES)
    return problem(res, 413, "Content Too Large", `A request body may hold at most ${MAX_BODY_BYTES} bytes`, {
      connection: "close",
    });
  const token = bearerToken(req.headers.authorization);
  if (token === undefined)
    return problem(res, 401, "Unauthorized", "A bearer token of the exrates API is required", {
      "www-authenticate": `Bearer realm="${options.realm}"`,
    });
  const verdict = await judge(options, token);
  if (!verdict.ok)
    return problem(res, verdict.status, reason(verdict.status), verdict.detail, {
      ...(verdict.challenge ? { "www-authenticate": verdict.challenge } : {}),
    });
  const mcp = createRatesMcpServer(options.clientFor(token));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on("close", () => {
    void transport.close();
    void mcp.close();
  });
  await mcp.connect(transport);
  await transport.handleRequest(req, res);
}

/** `Bearer <token>` (scheme in any case); undefined for none or another scheme. */
function bearerToken(header: string | undefined): string | undefined {
  const m = header === undefined ? null : /^Bearer +(\S+) *$/i.exec(header);
  return m?.[1];
}

/** The API's verdict on the token: what a request of the API with it would get. */
async function judge(options: McpHttpOptions, token: string): Promise<Verdict> {
  let answer: Response;
  try {
    answer = await (options.fetch ?? globalThis.fetch)(`${options.apiUrl}/v1/banks`, {
      method: "HEAD",
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(10_000),
      redirect: "error",
    });
  } catch (error) {
    options.log.warn({ apiUrl: options.apiUrl, err: (error as Error).message }, "mcp: the API does not answer");
    return { ok: false, status: 502, detail: `The exrates API at ${options.apiUrl} does not answer` };
  }
  if (answer.status !== 400 && answer.status !== 401 && answer.status !== 403) return { ok: true };
  const challenge = answer.headers.get("www-authenticate") ?? undefined;
  const described = /error_description="([^"]*)"/.exec(challenge ?? "")?.[1];
  return {
    ok: false,
    status: answer.status,
    ...(challenge ? { challenge } : {}),
    detail: described ?? (answer.status === 401 ? "The token is not valid" : "The token is refused"),
  };
}

function reason(status: number): string {
  return status === 400
    ? "Bad Request"
    : status === 401
      ? "Unauthorized"
      : status === 403
        ? "Forbidden"
        : "Bad Gateway";
}

function problem(
  res: ServerResponse,
  status: number,
  title: string,
  detail: string,
  headers: Record<string, string> = {},
): void {
  res
    .writeHead(status, {
      "content-type": "application/problem+json",
      "cache-control": "no-store",
      ...headers,
    })
    .end(JSON.stringify({ type: "about:blank", title, status, detail }));
}
