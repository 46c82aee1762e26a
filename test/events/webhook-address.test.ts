// What a webhook may point at (issue 37, item 9): every address class, IPv4, IPv6 and IPv4-mapped.
import { describe, expect, it } from "vitest";

import { addressKind, checkWebhookAddress } from "../../src/events/webhook-address.js";

describe("webhook addresses", () => {
  it.each([
    ["169.254.169.254", "refused"],
    ["169.254.1.1", "refused"],
    ["100.100.100.200", "refused"],
    ["fd00:ec2::254", "refused"],
    ["fe80::1", "refused"],
    ["::ffff:169.254.169.254", "refused"],
    ["0.0.0.0", "refused"],
    ["::", "refused"],
    ["224.0.0.1", "refused"],
    ["127.0.0.1", "private"],
    ["::1", "private"],
    ["10.0.0.8", "private"],
    ["172.20.1.1", "private"],
    ["192.168.1.10", "private"],
    ["100.64.0.1", "private"],
    ["fd12:3456::1", "private"],
    ["::ffff:10.0.0.1", "private"],
    ["93.184.215.14", "public"],
    ["2606:2800:21f:cb07:6820:80da:af6b:8b2c", "public"],
    ["172.32.0.1", "public"],
  ])("%s is %s", (address, kind) => {
    expect(addressKind(address)).toBe(kind);
  });

  it("judges a URL's host, localhost by name, and lets --allow-private through only for private ones", async () => {
    await expect(checkWebhookAddress(new URL("http://169.254.169.254/"), true)).rejects.toThrow(/metadata/);
    await expect(checkWebhookAddress(new URL("http://localhost:8080/"), false)).rejects.toThrow(/--allow-private/);
    await expect(checkWebhookAddress(new URL("http://localhost:8080/"), true)).resolves.toBeUndefined();
    await expect(checkWebhookAddress(new URL("http://[::1]:8080/"), false)).rejects.toThrow(/--allow-private/);
    await expect(checkWebhookAddress(new URL("https://93.184.215.14/hook"), false)).resolves.toBeUndefined();
  });
});
