// GET /: the status page, without a token. Checked as HTML (every bank, states, masked errors, no
// script, nothing loaded from elsewhere) and in a real browser: Debian's chromium driven by
// playwright-core at a phone's width, with a screenshot in test-results/. Skipped only when chromium
// is absent on a developer's machine; in CI (CI=true) its absence fails the test.
import { existsSync, mkdirSync } from "node:fs";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { registerSecret } from "../../src/secrets.js";
import { startHarness, type Harness } from "./support.js";

const CHROMIUM = "/usr/bin/chromium";
const haveChromium = existsSync(CHROMIUM);
const SECRET = "status-page-secret-4711";

let h: Harness;
beforeAll(async () => {
  registerSecret(SECRET);
  h = await startHarness({
    server: {
      status: () =>
        Promise.resolve([
          {
            id: "CNB",
            name: "Czech National Bank",
            state: "up to date",
            newestDate: "2026-04-02",
            nextRunAt: "2026-04-03T12:31:00.000Z",
            lastError: null,
          },
          {
            id: "ECB",
            name: "European Central Bank",
            state: "failing",
            newestDate: "2026-04-01",
            nextRunAt: "2026-04-03T14:00:00.000Z",
            lastError: `HTTP 503 from https://feed.example/?key=${SECRET} <script>alert(1)</script>`,
            lastErrorAt: "2026-04-02T14:05:00.000Z",
          },
          { id: "SARB", name: "South African Reserve Bank", state: "never fetched", newestDate: null, nextRunAt: null },
          {
            id: "BDI",
            name: "Bank of Italy",
            state: "holiday",
            summary: "holiday: Good Friday (newest 2026-04-02; next publication 2026-04-07 14:15)",
            newestDate: "2026-04-02",
            nextRunAt: "2026-04-07T12:15:00.000Z",
          },
        ]),
    },
  });
  // 60 days of CNB's USD in the store, for its chart.
  const db = h.store.sqlite;
  const fetchId = Number(
    db
      .prepare(
        "insert into fetches (bank_id, kind, method, url, started_at, finished_at) values ('CNB', 'fetch', 'GET', 'https://x/', '2026-04-02T12:30:00Z', '2026-04-02T12:31:00Z')",
      )
      .run().lastInsertRowid,
  );
  const insert = db.prepare(
    "insert into rates (bank_id, effective_date, currency, rate, unit_multiplier, fetch_id, stored_at) values ('CNB', ?, 'USD', ?, 0, ?, '2026-04-02T12:31:00Z')",
  );
  const today = Date.now();
  for (let i = 60; i >= 1; i--) {
    const date = new Date(today - i * 86_400_000).toISOString().slice(0, 10);
    insert.run(date, (20 + Math.sin(i / 6)).toFixed(3), fetchId);
  }
});
afterAll(() => h.close());

describe("GET / as HTML", () => {
  it("answers without a token: every bank, its state, next run and masked last error, one chart, no script", async () => {
    const response = await fetch(`${h.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await response.text();
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    for (const id of ["CNB", "ECB", "SARB", "BDI"]) expect(html).toContain(`id="bank-${id}"`);
    expect(html).toContain("holiday: Good Friday (newest 2026-04-02; next publication 2026-04-07 14:15)");
    expect(html).toContain("2026-04-03 14:00 UTC");
    expect(html).not.toContain(SECRET);
    expect(html).toContain("key=***");
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain("&lt;script&gt;");
    expect(html).not.toMatch(/(src|href)=["']?https?:/i);
    expect(html.match(/<svg /g)).toHaveLength(1);
    expect(html).toMatch(/<svg [^>]*data-currency="USD" data-points="60"/);
    expect(html).not.toContain(h.client.secret);
  });

  it("HEAD answers the headers only; other methods 405", async () => {
    const head = await fetch(`${h.url}/`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    expect((await fetch(`${h.url}/`, { method: "POST" })).status).toBe(405);
  });
});

describe("GET / in a real browser", () => {
  const inCi = process.env.CI === "true";
  it.skipIf(!haveChromium && !inCi)(
    `reads on a phone: content, no sideways scroll, nothing fetched elsewhere, a screenshot${haveChromium || inCi ? "" : ` (skipped: no ${CHROMIUM}; install Debian's chromium to run it)`}`,
    async () => {
      expect(haveChromium, `${CHROMIUM} is missing: .ci/run installs Debian's chromium`).toBe(true);
      const { chromium } = await import("playwright-core");
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          "--no-sandbox",
          "--disable-gpu",
          "--disable-background-networking",
          "--disable-component-update",
          "--no-first-run",
          "--disable-sync",
        ],
      });
      try {
        const context = await browser.newContext({
          viewport: { width: 390, height: 844 },
          deviceScaleFactor: 2,
          isMobile: true,
          hasTouch: true,
          javaScriptEnabled: true,
        });
        const page = await context.newPage();
        const requested: string[] = [];
        page.on("request", (r) => requested.push(r.url()));
        const response = await page.goto(`${h.url}/`, { waitUntil: "load" });
        expect(response?.status()).toBe(200);
        expect(await page.title()).toBe("exrates status");
        expect(requested).toEqual([`${h.url}/`]);
        await expect(page.locator("#bank-ECB .state").textContent()).resolves.toBe("failing");
        await expect(page.locator("#bank-SARB").textContent()).resolves.toContain("never fetched");
        expect(await page.locator("#bank-ECB .error").textContent()).toContain("key=***");
        const chart = page.locator("#bank-CNB svg");
        expect(await chart.count()).toBe(1);
        const box = await chart.boundingBox();
        expect(box!.width).toBeGreaterThan(200);
        expect(box!.x + box!.width).toBeLessThanOrEqual(390);
        // Nothing wider than the phone's screen.
        const [scrollWidth, innerWidth] = await page.evaluate<number[]>(
          "[document.documentElement.scrollWidth, window.innerWidth]",
        );
        expect(scrollWidth).toBeLessThanOrEqual(innerWidth!);
        mkdirSync("test-results", { recursive: true });
        await page.screenshot({ path: "test-results/status-page-phone.png", fullPage: true });
        expect(existsSync("test-results/status-page-phone.png")).toBe(true);
      } finally {
        await browser.close();
      }
    },
  );
});

describe("GET / without a scheduler (exrates serve)", () => {
  it("lists every known bank, published or not", async () => {
    const plain = await startHarness();
    try {
      const html = await (await fetch(`${plain.url}/`)).text();
      expect(html).toMatch(/id="bank-CNB" data-state="published"/);
      expect(html).toMatch(/id="bank-SARB" data-state="not published"/);
      expect(html.match(/<article /g)!.length).toBeGreaterThanOrEqual(90);
    } finally {
      await plain.close();
    }
  });
});
