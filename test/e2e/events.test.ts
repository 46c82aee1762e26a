// The "done when", end to end with the built CLI: a daemon (`exrates start`) serves
// /v1/events; `exrates backfill CNB` run beside it publishes; the SSE client gets the event and a
// webhook receiver added with `exrates webhooks add` gets the same event, signed.
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { Webhook } from "standardwebhooks";
import { afterAll, describe, expect, it } from "vitest";

import { addDays, weekday } from "../../src/feed/dates.js";
import { startReceiver } from "../support/receiver.js";
import { testSite, type TestSite } from "../support/server.js";

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

const sites: TestSite[] = [];
afterAll(async () => {
  for (const site of sites) await site.close();
});

describe("events end to end", { timeout: 120_000 }, () => {
  it("a backfill beside the daemon reaches an SSE client and a webhook receiver", async () => {
    const mirror = await cnbMirror();
    const receiver = await startReceiver("/rates");
    const { received } = receiver;
    const site = await testSite({
      env: { EXRATES_FEED_MIRROR: mirror.url, EXRATES_HOST: "127.0.0.1" },
      prefix: "exrates-events-e2e-",
    });
    sites.push(site);
    const hookUrl = receiver.url;
    const added = await site.cli(["webhooks", "add", hookUrl, "--banks", "CNB", "--json", "--allow-private"]);
    expect(added.code, added.stderr).toBe(0);
    const { secret } = JSON.parse(added.stdout) as { secret: string };

    const daemon = await site.start({ ready: (o) => o.stdout.includes("client_secret:") });
    let stream: ReturnType<typeof request> | undefined;
    try {
      const url = daemon.url;
      const token = await daemon.token();

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
      const backfill = await site.cli(["backfill", "CNB", "--from", "2026-11-02", "--to", LAST]);
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
      await daemon.stop("SIGTERM", 15_000);
      await receiver.close();
      await mirror.close();
    }
  });
});
