// The "done when", end to end with the built CLI: a daemon (`exrates start`) serves
// /v1/events; `exrates backfill CNB` run beside it publishes; the SSE client gets the event and a
// webhook receiver added with `exrates webhooks add` gets the same event, signed.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, request, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { Webhook } from "standardwebhooks";
import { afterAll, describe, expect, it } from "vitest";

import { addDays, weekday } from "../../src/feed/dates.js";
import { cli, finished, spawnCli, waitFor } from "./support.js";

const LAST = "2026-11-20";

/** A CNB-shaped feed that answers 503 until `open()` (so the daemon's own catch-up fetches nothing). */
async function cnbMirror() {
  let open = false;
  const server: Server = createServer((req, res) => {
    const u = new URL(req.url!, "http://x");
    const year = Number(u.searchParams.get("year"));
    if (!open || u.pathname !== "/api.cnb.cz/cnbapi/exrates/daily-year" || !year)
      return void res.writeHead(503, { "content-type": "text/plain" }).end("not now\n");
    const rates: string[] = [];
    for (let d = `${year}-01-01`; d <= `${year}-12-31` && d <= LAST; d = addDays(d, 1)) {
      if (weekday(d) > 5) continue;
      rates.push(`{"validFor":"${d}","currencyCode":"USD","amount":1,"rate":21.${d.slice(8, 10)}1}`);
    }
    res.writeHead(200, { "content-type": "application/json" }).end(`{"rates":[${rates.join(",")}]}`);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    open: () => (open = true),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("events end to end", { timeout: 120_000 }, () => {
  it("a backfill beside the daemon reaches an SSE client and a webhook receiver", async () => {
    const root = mkdtempSync(join(tmpdir(), "exrates-events-e2e-"));
    dirs.push(root);
    const mirror = await cnbMirror();
    const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
    const receiver = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        received.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    const env = {
      EXRATES_DATA_DIR: join(root, "data"),
      EXRATES_OUT_DIR: join(root, "out"),
      EXRATES_FEED_MIRROR: mirror.url,
      EXRATES_HOST: "127.0.0.1",
      EXRATES_PORT: "0",
    };
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/rates`;
    const added = await cli(["webhooks", "add", hookUrl, "--banks", "CNB", "--json"], env);
    expect(added.code, added.stderr).toBe(0);
    const { secret } = JSON.parse(added.stdout) as { secret: string };

    const daemon = spawnCli(["start"], env);
    let stream: ReturnType<typeof request> | undefined;
    try {
      await waitFor(daemon, (o) => o.stdout.includes("client_secret:"), 60_000);
      const url = /serving on (http:\/\/\S+) /.exec(daemon.out.stdout)![1]!;
      const clientSecret = /client_secret: (\S+)/.exec(daemon.out.stdout)![1]!;
      const tokenRes = await fetch(`${url}/auth/realms/exrates/protocol/openid-connect/token`, {
        method: "POST",
        body: new URLSearchParams({
          grant_type: "client_credentials",
          client_id: "exrates-client",
          client_secret: clientSecret,
          scope: "exchange-rates",
        }),
      });
      const { access_token: token } = (await tokenRes.json()) as { access_token: string };

      let text = "";
      stream = request(`${url}/v1/events?banks=CNB`, { headers: { authorization: `Bearer ${token}` } });
      const status = new Promise<number>((resolve) =>
        stream!.on("response", (res) => {
          res.setEncoding("utf8");
          res.on("data", (c: string) => (text += c));
          resolve(res.statusCode ?? 0);
        }),
      );
      stream.on("error", () => undefined);
      stream.end();
      expect(await status).toBe(200);

      mirror.open();
      const backfill = await cli(["backfill", "CNB", "--from", "2026-11-02", "--to", LAST], env);
      expect(backfill.code, backfill.stderr.slice(-1500)).toBe(0);

      const deadline = Date.now() + 10_000;
      while ((!text.includes("event: rates.published") || received.length === 0) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      const data = /event: rates\.published\ndata: (.*)\n/.exec(text)?.[1];
      expect(data, text).toBeDefined();
      const event = JSON.parse(data!) as {
        id: number;
        bankId: string;
        effectiveDate: string;
        latest: { json: string };
      };
      expect(event).toMatchObject({ bankId: "CNB", effectiveDate: LAST });
      const latest = await fetch(event.latest.json, { headers: { authorization: `Bearer ${token}` } });
      expect(await latest.text()).toContain(LAST);

      expect(received).toHaveLength(1);
      const message = new Webhook(secret).verify(received[0]!.body, received[0]!.headers as Record<string, string>);
      expect(message).toMatchObject({ type: "rates.published", data: { id: event.id, bankId: "CNB" } });
      expect(daemon.out.stderr).not.toContain(secret);
    } finally {
      stream?.destroy();
      process.kill(daemon.pid!, "SIGTERM");
      await finished(daemon, 15_000);
      receiver.close();
      await mirror.close();
    }
  });
});
