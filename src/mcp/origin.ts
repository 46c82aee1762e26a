// Which browsers' pages and which host names `exrates mcp --http` answers (MCP's transport guidance
// against DNS rebinding): a request naming a Host not allowed, or sent by a page of an Origin not
// allowed, is refused 403 before its token is even looked at. By default only loopback names are
// allowed (localhost, 127.0.0.1, [::1], any port); EXRATES_MCP_ALLOWED_HOSTS and
// EXRATES_MCP_ALLOWED_ORIGINS (comma-separated) replace the defaults for a deployment behind a name.
// A request without an Origin (a program, not a browser page) is judged by its Host alone.
import type { IncomingHttpHeaders } from "node:http";

import { UserError } from "../errors.js";
import { quoted } from "../quote.js";

export interface OriginPolicy {
  /** Host names allowed in Host (lower case, without port; IPv6 in brackets). */
  hosts: ReadonlySet<string>;
  /** Origins allowed (scheme://host[:port], lower case); loopback origins when none is configured. */
  origins: ReadonlySet<string> | undefined;
}

export const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

const list = (text: string | undefined) =>
  (text ?? "")
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);

/** The policy from EXRATES_MCP_ALLOWED_HOSTS / EXRATES_MCP_ALLOWED_ORIGINS, loopback by default. */
export function originPolicy(env: Readonly<Record<string, string | undefined>>): OriginPolicy {
  const hosts = list(env.EXRATES_MCP_ALLOWED_HOSTS);
  const origins = list(env.EXRATES_MCP_ALLOWED_ORIGINS).map((o) => o.replace(/\/+$/, ""));
  for (const o of origins)
    if (!/^https?:\/\/[^/]+$/.test(o))
      throw new UserError(`EXRATES_MCP_ALLOWED_ORIGINS: ${quoted(o)} is not an origin (https://host[:port])`);
  return {
    hosts: new Set(hosts.length ? hosts : LOOPBACK_HOSTS),
    origins: origins.length ? new Set(origins) : undefined,
  };
}

/** The host name of a Host header or an origin's authority, lower case, without its port. */
function hostName(authority: string): string {
  const a = authority.toLowerCase();
  if (a.startsWith("[")) return a.slice(0, a.indexOf("]") + 1);
  return a.replace(/:\d*$/, "");
}

/** Why the request is refused (403), or undefined when its Host and Origin are allowed. */
export function originProblem(policy: OriginPolicy, headers: IncomingHttpHeaders): string | undefined {
  const host = headers.host;
  if (!host || !policy.hosts.has(hostName(host)))
    return `The Host ${quoted(host ?? "")} is not one this MCP endpoint answers (EXRATES_MCP_ALLOWED_HOSTS)`;
  const origin = headers.origin;
  if (origin === undefined) return undefined;
  const o = origin.toLowerCase();
  const allowed = policy.origins
    ? policy.origins.has(o)
    : /^https?:\/\/[^/]+$/.test(o) && LOOPBACK_HOSTS.includes(hostName(o.replace(/^https?:\/\//, "")));
  return allowed
    ? undefined
    : `The Origin ${quoted(origin)} is not allowed to call this MCP endpoint (EXRATES_MCP_ALLOWED_ORIGINS)`;
}
