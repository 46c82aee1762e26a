// The address a request comes from, for the token endpoint's limits and the logs. The socket's peer,
// unless that peer is one of EXRATES_TRUSTED_PROXIES: then X-Forwarded-For is read from the right, each
// hop a trusted proxy vouches for, and the first address that is not a trusted proxy is the client's.
// Without trusted proxies the header is ignored (anyone can write it).
import type { IncomingMessage } from "node:http";
import { BlockList, isIP } from "node:net";

import { UserError } from "../../errors.js";

/** Hops of X-Forwarded-For read at most (a proxy chain is short; the header is the client's to pad). */
const MAX_HOPS = 16;

/** `::ffff:10.0.0.1` is 10.0.0.1; anything that is not an IP address is undefined. */
function normalise(address: string | undefined): string | undefined {
  if (!address) return undefined;
  const a = address.trim().replace(/^\[(.*)\]$/, "$1");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a);
  const plain = mapped ? mapped[1]! : a;
  return isIP(plain) ? plain : undefined;
}

/** The trusted proxies of a comma-separated list of addresses and CIDR ranges (IPv4 or IPv6). */
export function parseTrustedProxies(list: string | undefined): BlockList | undefined {
  const entries = (list ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (entries.length === 0) return undefined;
  const trusted = new BlockList();
  for (const entry of entries) {
    const [address, prefix, extra] = entry.split("/");
    const ip = normalise(address);
    const family = ip === undefined ? 0 : isIP(ip);
    const bits = prefix === undefined ? undefined : Number(prefix);
    const maxBits = family === 6 ? 128 : 32;
    if (!ip || extra !== undefined || (bits !== undefined && (!/^\d+$/.test(prefix!) || bits > maxBits)))
      throw new UserError(`EXRATES_TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR range`);
    const type = family === 6 ? "ipv6" : "ipv4";
    if (bits === undefined) trusted.addAddress(ip, type);
    else trusted.addSubnet(ip, bits, type);
  }
  return trusted;
}

const checks = (trusted: BlockList, ip: string) => trusted.check(ip, isIP(ip) === 6 ? "ipv6" : "ipv4");

/** Whether a socket's address is one of the trusted proxies. */
export function isTrusted(trusted: BlockList | undefined, address: string | undefined): boolean {
  const ip = normalise(address);
  return trusted !== undefined && ip !== undefined && checks(trusted, ip);
}

/** The function that names a request's client address. */
export function clientAddressOf(trusted: BlockList | undefined): (req: IncomingMessage) => string {
  return (req) => {
    let address = normalise(req.socket.remoteAddress);
    if (address === undefined) return "unknown";
    if (!trusted || !checks(trusted, address)) return address;
    const header = req.headers["x-forwarded-for"];
    if (typeof header !== "string") return address;
    const hops = header.split(",");
    for (let i = hops.length - 1; i >= Math.max(0, hops.length - MAX_HOPS); i--) {
      const hop = normalise(hops[i]);
      // A malformed hop: what is left of it was written by whoever, so the last vouched-for address stays.
      if (hop === undefined) return address;
      address = hop;
      if (!checks(trusted, hop)) return hop;
    }
    return address;
  };
}
