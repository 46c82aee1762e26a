// Two `exrates serve` replicas (real child processes) on one PostgreSQL database (a real server,
// test/support/postgres.ts) and one published tree: a client created by the CLI is accepted by both;
// a token from A reads Latest from B and one from B reads from A; a key rotation keeps both old and
// new tokens good on both; a secret reset or a disable through the CLI refuses the old token on B
// within a second. The tree is imported and published into the shared out/ directory beforehand.
import { join } from "node:path";

import { decodeProtectedHeader } from "jose";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { FIXTURES_DIR } from "../support/fixtures.js";
import { skipPostgres, startPostgres, type PostgresCluster } from "../support/postgres.js";
import { testSite, type ChildServer, type TestSite } from "../support/server.js";

const LATEST = "/v1/Banks/CNB/DailyRates/Latest.json";
const TOKEN_PATH = "/auth/realms/exrates/protocol/openid-connect/token";

describe.skipIf(skipPostgres)("replicas on one PostgreSQL database", { timeout: 180_000 }, () => {
  let cluster: PostgresCluster;
  let site: TestSite;
  const children: ChildServer[] = [];

  beforeAll(async () => {
    cluster = await startPostgres();
    // Replicas behind one load balancer share its public URL, so tokens name one issuer.
    site = await testSite({
      env: { EXRATES_DATABASE_URL: await cluster.createDatabase(), EXRATES_PUBLIC_URL: "http://rates.example.test" },
      prefix: "exrates-replicas-",
    });
  });
  afterAll(async () => {
    await site?.close();
    await cluster?.stop();
  });

  /** A process on the shared database and the shared out/ directory, with a data directory of its own. */
  const envOf = (name: string) => ({ EXRATES_DATA_DIR: join(site.root, name) });
  const databaseUrl = () => site.env.EXRATES_DATABASE_URL!;

  async function run(args: string[], name = "operator"): Promise<string> {
    const result = await site.cli(args, envOf(name));
    expect(result.code, result.stderr).toBe(0);
    return result.stdout;
  }

  async function serve(name: string): Promise<string> {
    // Replica A also serves its metrics (on a port of its own).
    const replica = await site.serve({
      env: { ...envOf(name), ...(name === "replica-a" ? { EXRATES_METRICS_PORT: "0" } : {}) },
    });
    children.push(replica);
    return replica.url;
  }

  async function token(server: string, clientId: string, secret: string): Promise<string> {
    const res = await fetch(`${server}${TOKEN_PATH}`, {
      method: "POST",
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: clientId,
        client_secret: secret,
        scope: "exchange-rates",
      }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    return ((await res.json()) as { access_token: string }).access_token;
  }

  const latest = (server: string, bearer: string) =>
    fetch(`${server}${LATEST}`, { headers: { authorization: `Bearer ${bearer}` } });

  /** How long until `server` refuses `bearer` (ms), polling; throws past `limitMs`. */
  async function refusedWithin(server: string, bearer: string, limitMs: number): Promise<number> {
    const started = Date.now();
    for (;;) {
      const res = await latest(server, bearer);
      await res.arrayBuffer();
      if (res.status === 401) return Date.now() - started;
      if (Date.now() - started > limitMs) throw new Error(`${server} still accepts the token after ${limitMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it("shares clients and keys: a token from one replica reads from the other; resets and disables reach both within a second", async () => {
    // The published tree both replicas serve: imported into the shared database and published once
    // into the shared out/ directory.
    await run(["import", "CNB", join(FIXTURES_DIR, "CNB/daily-year.json")]);
    await run(["publish"]);
    const erp = JSON.parse(await run(["clients", "create", "erp", "--json"])) as { client_secret: string };

    const [a, b] = await Promise.all([serve("replica-a"), serve("replica-b")]);

    // A token from A reads Latest from B, and the other way round; both serve the same document.
    const fromA = await token(a, "erp", erp.client_secret);
    const atB = await latest(b, fromA);
    expect(atB.status).toBe(200);
    const body = await atB.text();
    expect(body).toContain('"bankId": "CNB"');
    expect(body).toContain('"rate": 24.1850000000000000001');
    const fromB = await token(b, "erp", erp.client_secret);
    const atA = await latest(a, fromB);
    expect(atA.status).toBe(200);
    expect(await atA.text()).toBe(body);
    // History reads the shared database too: a dated request and a range with the stored digits.
    const dated = await fetch(`${b}/v1/Banks/CNB/DailyRates/2026-03-02.csv`, {
      headers: { authorization: `Bearer ${fromA}` },
    });
    expect(dated.status).toBe(200);
    expect(await dated.text()).toContain("CNB,EUR,CZK,2026-03-02,24.170,1\nCNB,HUF,CZK,2026-03-02,6.304,100\n");
    const range = await fetch(`${a}/v1/Banks/CNB/DailyRates?from=2026-03-01&to=2026-03-03&currencies=EUR`, {
      headers: { authorization: `Bearer ${fromB}` },
    });
    expect(await range.text()).toMatch(
      /"2026-03-02": \{\n\s+"EUR": \{\n\s+"rate": 24\.170\n[\s\S]*"rate": 24\.1850000000000000001\n/,
    );

    // The banks' metrics, the status page and the event stream read the shared database too.
    // (Replica A serves them; the two replicas start at once, so either may be children[0].)
    const metricsUrl = children
      .map((child) => /"url":"(http:\/\/[^"]+\/metrics)"/.exec(child.out.stderr)?.[1])
      .find((url) => url !== undefined);
    expect(metricsUrl).toBeDefined();
    const metrics = await (await fetch(metricsUrl!)).text();
    expect(metrics).toContain(
      `exrates_bank_newest_date_timestamp_seconds{bank="CNB"} ${Date.parse("2026-03-03T00:00:00Z") / 1000}`,
    );
    const page = await fetch(`${b}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("CNB");
    const stream = new AbortController();
    const events = await fetch(`${a}/v1/events`, {
      headers: { authorization: `Bearer ${fromB}` },
      signal: stream.signal,
    });
    expect(events.status).toBe(200);
    expect(events.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    // A publication by another process (the CLI) reaches A's subscribers through the database.
    await run(["import", "ECB", join(FIXTURES_DIR, "ECB/live-shape.csv")]);
    await run(["publish"]);
    const reader = (events.body as ReadableStream<Uint8Array>).getReader();
    let received = "";
    const timeout = setTimeout(() => stream.abort(), 10_000);
    try {
      while (!/event: rates\.published\ndata: .*"bankId":"ECB"/.test(received)) {
        const { value, done } = await reader.read();
        if (done) break;
        received += Buffer.from(value).toString("utf8");
      }
    } finally {
      clearTimeout(timeout);
      stream.abort();
    }
    expect(received).toMatch(/event: rates\.published\ndata: .*"bankId":"ECB"/);

    // A client created while both run (through the CLI, as an operator does on any host) is good on both.
    const late = JSON.parse(await run(["clients", "create", "late", "--json"], "replica-a")) as {
      client_secret: string;
    };
    const lateToken = await token(b, "late", late.client_secret);
    expect((await latest(a, lateToken)).status).toBe(200);

    // A rotation: both replicas publish both keys, sign with the new one, and accept tokens of either.
    const kidBefore = decodeProtectedHeader(fromA).kid;
    await run(["keys", "rotate"], "replica-b");
    const rotatedToken = async (server: string) => {
      for (const started = Date.now(); Date.now() - started < 5000;) {
        const t = await token(server, "erp", erp.client_secret);
        if (decodeProtectedHeader(t).kid !== kidBefore) return t;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`${server} still signs with the retired key`);
    };
    const newFromA = await rotatedToken(a);
    expect((await latest(b, newFromA)).status).toBe(200);
    expect((await latest(a, fromB)).status).toBe(200); // signed with the retired key, still good
    const jwks = (await (await fetch(`${b}/auth/realms/exrates/protocol/openid-connect/certs`)).json()) as {
      keys: Array<{ kid: string; d?: string }>;
    };
    expect(jwks.keys.map((k) => k.kid)).toEqual(
      expect.arrayContaining([kidBefore, decodeProtectedHeader(newFromA).kid]),
    );
    expect(jwks.keys.every((k) => k.d === undefined)).toBe(true);

    // A secret reset through the CLI: the old token is refused by B within a second; the new secret works on both.
    expect((await latest(b, fromA)).status).toBe(200);
    const reset = JSON.parse(await run(["clients", "reset-secret", "erp", "--json"], "replica-a")) as {
      client_secret: string;
    };
    const refusals = await Promise.all([refusedWithin(b, fromA, 1000), refusedWithin(a, fromA, 1000)]);
    for (const ms of refusals) expect(ms).toBeLessThanOrEqual(1000);
    // Tokens carry whole seconds: a token issued in the second of the reset would be refused too.
    await new Promise((r) => setTimeout(r, 1100));
    const afterReset = await token(a, "erp", reset.client_secret);
    expect((await latest(b, afterReset)).status).toBe(200);

    // A disable: its tokens are refused by both within a second, and it gets no more.
    await run(["clients", "disable", "erp"], "replica-b");
    const disabled = await Promise.all([refusedWithin(a, afterReset, 1000), refusedWithin(b, afterReset, 1000)]);
    for (const ms of disabled) expect(ms).toBeLessThanOrEqual(1000);
    const refused = await fetch(`${b}${TOKEN_PATH}`, {
      method: "POST",
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: "erp",
        client_secret: reset.client_secret,
        scope: "exchange-rates",
      }),
    });
    expect(refused.status).toBe(401);

    // Nothing of the database's password or of a private key in what either replica wrote.
    const db = new pg.Client({ connectionString: databaseUrl() });
    await db.connect();
    const { rows } = await db.query<{ content: string }>("select content from signing_keys");
    await db.end();
    const privateParts = (JSON.parse(rows[0]!.content) as { keys: Array<{ privateJwk: Record<string, string> }> }).keys
      .flatMap((k) => ["d", "p", "q", "dp", "dq", "qi"].map((part) => k.privateJwk[part]!))
      .filter(Boolean);
    expect(privateParts.length).toBeGreaterThanOrEqual(12);
    for (const child of children) {
      const end = await child.stop("SIGTERM", 15_000);
      expect(end.code, end.stderr.slice(-1500)).toBe(0);
      const written = `${end.stdout}${end.stderr}`;
      expect(written).not.toContain(cluster.password);
      for (const part of privateParts) expect(written).not.toContain(part);
    }
  });
});
