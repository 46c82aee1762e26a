// The token endpoint's limits cannot be turned against a client: failures count per (client id,
// address) with a backoff, made-up ids count per address and never refuse a known client, a trusted
// proxy's X-Forwarded-For names the address (and nobody else's does), successful grants are limited
// per client, refusals are logged bounded and summarised, and the limiter's memory is bounded.
import { Writable } from "node:stream";

import { describe, expect, it } from "vitest";

import { createClient } from "../../src/auth/clients.js";
import { FailureLimiter, GrantLimiter } from "../../src/auth/ratelimit.js";
import { createLogger, RepeatSummary } from "../../src/log.js";
import { startHarness, type Harness } from "../serve/support.js";

const FORM = "application/x-www-form-urlencoded";

async function grant(h: Harness, clientId: string, secret: string, from?: string) {
  const res = await fetch(h.tokenUrl, {
    method: "POST",
    headers: { "content-type": FORM, ...(from ? { "x-forwarded-for": from } : {}) },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: clientId,
      client_secret: secret,
      scope: h.config.scope,
    }),
  });
  const body = (await res.json()) as Record<string, unknown>;
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body };
}

/** A logger whose JSON lines are kept in memory. */
function capturedLog() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString().split("\n").filter(Boolean));
      done();
    },
  });
  return { log: createLogger("info", false, sink), lines };
}

const ATTACKER = "203.0.113.66";
const CLIENT = "198.51.100.10";

describe("failed authentications are no lockout switch", () => {
  it("ten wrong secrets for a known id refuse that id from the attacker's address only; the right secret works elsewhere", async () => {
    const h = await startHarness({ env: { EXRATES_TRUSTED_PROXIES: "127.0.0.1" } });
    try {
      for (let i = 0; i < 10; i++) expect((await grant(h, "erp", "wrong", ATTACKER)).status).toBe(401);
      expect((await grant(h, "erp", h.client.secret, ATTACKER)).status).toBe(429);
      expect((await grant(h, "erp", h.client.secret, CLIENT)).status).toBe(200);
    } finally {
      await h.close();
    }
  });

  it("thirty made-up ids from one address refuse made-up ids there, never a known client's right secret", async () => {
    const h = await startHarness();
    try {
      for (let i = 0; i < 30; i++) expect((await grant(h, `made-up-${i}`, "x")).status).toBe(401);
      const refused = await grant(h, "made-up-30", "x");
      expect(refused.status).toBe(429);
      expect(refused.body.error).toBe("temporarily_unavailable");
      expect((await grant(h, "erp", h.client.secret)).status).toBe(200);
    } finally {
      await h.close();
    }
  });

  it("a misconfigured host's wrong secret on the same address never locks out another client there", async () => {
    const h = await startHarness({ env: { EXRATES_TRUSTED_PROXIES: "127.0.0.1" } });
    try {
      await createClient(h.store, { clientId: "mcp-host", scope: h.config.scope });
      for (let i = 0; i < 10; i++) expect((await grant(h, "mcp-host", "stale", CLIENT)).status).toBe(401);
      for (let i = 0; i < 5; i++) expect((await grant(h, "mcp-host", "stale", CLIENT)).status).toBe(429);
      expect((await grant(h, "erp", h.client.secret, CLIENT)).status).toBe(200);
    } finally {
      await h.close();
    }
  });

  it("many known client ids tried from one address reach the per-address ceiling there, not elsewhere", async () => {
    const knownPerAddress = { max: 6, windowMs: 60_000 };
    const h = await startHarness({
      env: { EXRATES_TRUSTED_PROXIES: "127.0.0.1" },
      server: { rateLimit: { knownPerAddress } },
    });
    try {
      for (let i = 0; i < 3; i++) await createClient(h.store, { clientId: `client-${i}`, scope: h.config.scope });
      // Two wrong secrets each (under each client's own limit of ten): six failures from the address.
      for (let i = 0; i < 3; i++)
        for (let n = 0; n < 2; n++) expect((await grant(h, `client-${i}`, "guess", ATTACKER)).status).toBe(401);
      const refused = await grant(h, "erp", h.client.secret, ATTACKER);
      expect([refused.status, refused.body.error]).toEqual([429, "temporarily_unavailable"]);
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      expect((await grant(h, "erp", h.client.secret, CLIENT)).status).toBe(200);
    } finally {
      await h.close();
    }
  });

  it("X-Forwarded-For counts only from a trusted proxy", async () => {
    const h = await startHarness({ server: { rateLimit: { perClient: { max: 2, windowMs: 60_000 } } } });
    try {
      // Not trusted: the header is anyone's to write, so these are all 127.0.0.1.
      expect((await grant(h, "erp", "wrong", ATTACKER)).status).toBe(401);
      expect((await grant(h, "erp", "wrong", "192.0.2.1")).status).toBe(401);
      expect((await grant(h, "erp", h.client.secret, CLIENT)).status).toBe(429);
    } finally {
      await h.close();
    }
    const proxied = await startHarness({
      env: { EXRATES_TRUSTED_PROXIES: "127.0.0.0/8, ::1" },
      server: { rateLimit: { perClient: { max: 2, windowMs: 60_000 } } },
    });
    try {
      // The proxy appends the peer it saw; what the client wrote before it is not believed.
      expect((await grant(proxied, "erp", "wrong", `${CLIENT}, ${ATTACKER}`)).status).toBe(401);
      expect((await grant(proxied, "erp", "wrong", `${CLIENT}, ${ATTACKER}`)).status).toBe(401);
      expect((await grant(proxied, "erp", proxied.client.secret, ATTACKER)).status).toBe(429);
      expect((await grant(proxied, "erp", proxied.client.secret, CLIENT)).status).toBe(200);
    } finally {
      await proxied.close();
    }
  });

  it("each failure past the limit doubles the wait; a success forgets the failures", async () => {
    let clock = Date.now();
    const h = await startHarness({
      server: { now: () => clock, rateLimit: { perClient: { max: 2, windowMs: 10_000 } } },
    });
    try {
      expect((await grant(h, "erp", "bad")).status).toBe(401);
      expect((await grant(h, "erp", "bad")).status).toBe(401);
      expect((await grant(h, "erp", h.client.secret)).retryAfter).toBe("10");
      clock += 10_001;
      expect((await grant(h, "erp", "bad")).status).toBe(401);
      const doubled = await grant(h, "erp", h.client.secret);
      expect(doubled.status).toBe(429);
      expect(doubled.retryAfter).toBe("20");
      clock += 20_001;
      expect((await grant(h, "erp", h.client.secret)).status).toBe(200);
      // Forgotten: the next failure starts from nothing.
      expect((await grant(h, "erp", "bad")).status).toBe(401);
      expect((await grant(h, "erp", h.client.secret)).status).toBe(200);
    } finally {
      await h.close();
    }
  });
});

describe("successful grants are limited per client", () => {
  it("a client asking far faster than its tokens expire gets 429; others' failures never spend its grants", async () => {
    let clock = Date.now();
    const h = await startHarness({
      env: { EXRATES_TRUSTED_PROXIES: "127.0.0.1" },
      server: { now: () => clock, rateLimit: { grants: { perMinute: 6, burst: 3 } } },
    });
    try {
      for (let i = 0; i < 20; i++) expect((await grant(h, "erp", "wrong", `192.0.2.${i}`)).status).toBe(401);
      for (let i = 0; i < 3; i++) expect((await grant(h, "erp", h.client.secret, CLIENT)).status).toBe(200);
      const limited = await grant(h, "erp", h.client.secret, CLIENT);
      expect(limited.status).toBe(429);
      expect(limited.retryAfter).toBe("10");
      expect(limited.body).toMatchObject({ error: "temporarily_unavailable" });
      clock += 10_000;
      expect((await grant(h, "erp", h.client.secret, CLIENT)).status).toBe(200);
    } finally {
      await h.close();
    }
  });

  it("the default allows a burst of 120 grants, then about one a second (tokens last 300 s)", () => {
    let clock = 0;
    const grants = new GrantLimiter({ perMinute: 60 }, () => clock);
    let granted = 0;
    while (grants.take("erp") === 0) granted++;
    expect(granted).toBe(120);
    clock += 1000;
    expect(grants.take("erp")).toBe(0);
    expect(grants.take("erp")).toBe(1);
  });
});

describe("refusals are logged bounded and summarised; the limiter's memory is bounded", () => {
  it("hundreds of refused logins with 15 KB client ids write a few short lines", async () => {
    const { log, lines } = capturedLog();
    const h = await startHarness({ server: { log } });
    const longId = (i: number) => `${i}-${"x".repeat(15_000)}`;
    try {
      for (let i = 0; i < 300; i++) {
        const r = await grant(h, longId(i), "x");
        expect([401, 429]).toContain(r.status);
      }
      expect((await grant(h, "erp", h.client.secret)).status).toBe(200);
    } finally {
      await h.close(); // flushes the summaries
    }
    const refusals = lines.filter((l) => /token\.(denied|throttled)/.test(l));
    // The first refusal and the first throttle at once, then one summary line each with the count.
    expect(refusals).toHaveLength(4);
    for (const line of refusals) expect(line.length).toBeLessThan(400);
    expect(lines.join("\n")).not.toContain("x".repeat(100));
    const counts = refusals.map((l) => (JSON.parse(l) as { repeated?: number }).repeated ?? 1);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(300);
  });

  it("a known client's id is logged whole; a made-up one as a hint (it may be a misplaced secret)", async () => {
    const { log, lines } = capturedLog();
    const h = await startHarness({ server: { log } });
    try {
      await grant(h, "erp", "wrong");
      await grant(h, h.client.secret, "x"); // a secret pasted into the client_id field
    } finally {
      await h.close();
    }
    const text = lines.join("\n");
    expect(text).toContain('"clientId":"erp"');
    expect(text).toContain('"unknownClientId":');
    expect(text).not.toContain(h.client.secret);
  });

  it("3,000 failures with 16 KB keys from 100 addresses hold at most `capacity` entries of bounded keys", () => {
    let clock = 0;
    const limiter = new FailureLimiter({ max: 10, windowMs: 60_000, capacity: 500 }, () => clock);
    for (let i = 0; i < 3000; i++) limiter.fail(`10.0.0.${i % 100} ${"k".repeat(16_000)}${i}`);
    expect(limiter.size).toBeLessThanOrEqual(500);
    expect(limiter.keyChars).toBeLessThanOrEqual(500 * 200);
    // Expired windows are swept when room is needed.
    clock += 10 * 60_000;
    limiter.fail("fresh");
    expect(limiter.size).toBe(1);
  });

  it("RepeatSummary: one line at once, then one line per interval with the count; bounded keys", () => {
    const { log, lines } = capturedLog();
    const summary = new RepeatSummary(log, { timer: false, capacity: 2 });
    for (let i = 0; i < 1000; i++) summary.note("a", "info", { event: "e", who: "a" }, "refused");
    expect(lines).toHaveLength(1);
    summary.flush();
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[1]!)).toMatchObject({ who: "a", repeated: 999 });
    summary.flush(); // quiet for an interval: forgotten
    summary.note("a", "info", { event: "e", who: "a" }, "refused");
    expect(lines).toHaveLength(3);
    summary.note("b", "info", { event: "e", who: "b" }, "refused");
    for (let i = 0; i < 50; i++) summary.note(`k${i}`, "info", { event: "e" }, "refused");
    expect(lines).toHaveLength(4);
    summary.close();
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ event: "log.summarised", repeated: 50 });
  });
});
