// Where a webhook may point. A webhook makes the service POST to an address of the operator's choosing
// from inside its network, so some addresses are refused outright: link-local ones (169.254.0.0/16,
// fe80::/10), which hold the cloud metadata services (169.254.169.254, fd00:ec2::254, Alibaba's
// 100.100.100.200), and unspecified, multicast and broadcast ones. Loopback and private addresses
// (127/8, 10/8, 172.16/12, 192.168/16, 100.64/10, ::1, fc00::/7) are accepted only when the operator
// says so (`exrates webhooks add --allow-private`): a receiver on the same box or network is real, but
// it should be a decision. A host name is judged by every address it resolves to when added.
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

import { UserError } from "../errors.js";

const never = new BlockList();
never.addSubnet("169.254.0.0", 16, "ipv4");
never.addSubnet("0.0.0.0", 8, "ipv4");
never.addSubnet("224.0.0.0", 4, "ipv4");
never.addSubnet("240.0.0.0", 4, "ipv4");
never.addAddress("100.100.100.200", "ipv4");
never.addSubnet("fe80::", 10, "ipv6");
never.addSubnet("ff00::", 8, "ipv6");
never.addAddress("::", "ipv6");
never.addAddress("fd00:ec2::254", "ipv6");

const privateOnes = new BlockList();
privateOnes.addSubnet("127.0.0.0", 8, "ipv4");
privateOnes.addSubnet("10.0.0.0", 8, "ipv4");
privateOnes.addSubnet("172.16.0.0", 12, "ipv4");
privateOnes.addSubnet("192.168.0.0", 16, "ipv4");
privateOnes.addSubnet("100.64.0.0", 10, "ipv4");
privateOnes.addAddress("::1", "ipv6");
privateOnes.addSubnet("fc00::", 7, "ipv6");

export type AddressKind = "refused" | "private" | "public";

/** What an IP address is to a webhook: never allowed, allowed with --allow-private, or public. */
export function addressKind(address: string): AddressKind {
  let ip = address.replace(/^\[|\]$/g, "").toLowerCase();
  // An IPv4-mapped IPv6 address (::ffff:169.254.169.254) is its IPv4 address.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  if (mapped) ip = mapped[1]!;
  const family = isIP(ip) === 6 ? "ipv6" : "ipv4";
  if (never.check(ip, family)) return "refused";
  if (privateOnes.check(ip, family)) return "private";
  return "public";
}

/** The addresses a host name resolves to now (none when it does not resolve within the timeout). */
async function resolved(host: string, timeoutMs: number): Promise<string[]> {
  const timeout = new Promise<[]>((resolve) => setTimeout(() => resolve([]), timeoutMs).unref());
  const found = lookup(host, { all: true, verbatim: true }).then(
    (all) => all.map((a) => a.address),
    () => [] as string[],
  );
  return Promise.race([found, timeout]);
}

/**
 * Refuses (UserError) a webhook URL whose host is, or resolves to, an address never allowed, or a
 * loopback/private one without `allowPrivate`. A name that does not resolve now is accepted: it is
 * judged by what it is, not what it may become (delivery goes wherever it resolves then).
 */
export async function checkWebhookAddress(url: URL, allowPrivate: boolean, timeoutMs = 3000): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const addresses = isIP(host)
    ? [host]
    : host === "localhost" || host.endsWith(".localhost")
      ? ["127.0.0.1"]
      : await resolved(host, timeoutMs);
  for (const address of addresses) {
    const kind = addressKind(address);
    const named = address === host ? address : `${host} (${address})`;
    if (kind === "refused")
      throw new UserError(
        `a webhook cannot point at ${named}: a link-local, cloud metadata, unspecified or multicast address`,
      );
    if (kind === "private" && !allowPrivate)
      throw new UserError(
        `a webhook pointing at ${named}, a loopback or private address, needs --allow-private (a receiver on this box or network)`,
      );
  }
}
