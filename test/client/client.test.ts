// The client against a real `exrates serve` (the built CLI): digits as published, a date, a range read in
// full across the client's yearly windows, 304 answered from the cache, a token renewed once under 50
// concurrent calls, a revoked client's 401, the problem bodies, and no secret or token in what it says.
import { inspect } from "node:util";

import { parse as parseLossless } from "lossless-json";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { ExratesClient, ExratesError, type DebugEvent } from "@exrates/client";
import { ratesOf, serveRates, weekdays, type ServedRates } from "../support/served-rates.js";

const FIRST = "2024-11-01";
const LAST = "2026-03-03";
const DATES = weekdays(FIRST, LAST);

/** What the published Latest.json says, each number as its text. */
function publishedLatest(
  served: ServedRates,
): Record<string, Record<string, { rate: string; unitMultiplier?: string }>> {
  const doc = parseLossless(served.published("v1/Banks/CNB/DailyRates/Latest.json").toString(), null, (v: string) => v);
  return (doc as { rates: Record<string, Record<string, { rate: string; unitMultiplier?: string }>> }).rates;
}

/** The feed's figures of a date as the client must give them (per-100 JPY as unitMultiplier 2). */
const expected = (date: string) =>
  ratesOf(date).map((r) =>
    r.amount === 1 ? { currency: r.currency, rate: r.rate } : { currency: r.currency, rate: r.rate, unitMultiplier: 2 },
  );

describe("ExratesClient against exrates serve", { timeout: 120_000 }, () => {
  let served: ServedRates;
  /** Every debug event, error message and token seen by the tests' clients (checked for secrets at the end). */
  const said: string[] = [];
  const tokens = new Set<string>();
  /** A fetch that notes every token sent or received, so the end can look for them in what the client said. */
  const watchingFetch: typeof fetch = async (input, init) => {
    const auth = new Headers(init?.headers).get("authorization");
    if (auth?.startsWith("Bearer ")) tokens.add(auth.slice(7));
    const response = await fetch(input, init);
    if (response.url.includes("/openid-connect/token") && response.ok) {
      const body = (await response.clone().json()) as { access_token: string };
      tokens.add(body.access_token);
    }
    return response;
  };
  const client = (extra: Partial<ConstructorParameters<typeof ExratesClient>[0]> = {}) =>
    new ExratesClient({
      baseUrl: served.url,
      clientId: served.clientId,
      clientSecret: served.clientSecret,
      fetch: watchingFetch,
      debug: (event: DebugEvent) => said.push(JSON.stringify(event)),
      ...extra,
    });

  beforeAll(async () => {
    served = await serveRates(DATES);
  }, 120_000);
  afterAll(async () => {
    await served?.close();
  });

  it("gives Latest with the published digits, and the files byte for byte", async () => {
    const rates = client();
    const latest = await rates.latest("cnb");
    expect(latest).toMatchObject({ bankId: "CNB", baseCurrency: "CZK", quoteType: "Direct", effectiveDate: LAST });
    expect(latest.rates).toEqual(expected(LAST));
    // The published file's number texts, one by one: "24.030" keeps its zero, XDR its 20 digits.
    const file = publishedLatest(served)[LAST]!;
    for (const r of latest.rates) {
      expect(r.rate).toBe(file[r.currency]!.rate);
      expect(r.unitMultiplier).toBe(file[r.currency]!.unitMultiplier && Number(file[r.currency]!.unitMultiplier));
    }
    expect(latest.rates.find((r) => r.currency === "EUR")!.rate).toBe("24.030");
    expect(latest.rates.find((r) => r.currency === "XDR")!.rate).toBe("29.0334567890123456789");

    for (const format of ["csv", "xlsx", "xml", "json"] as const) {
      const got = await rates.file("CNB", { format });
      expect(got.bytes.equals(served.published(`v1/Banks/CNB/DailyRates/Latest.${format}`)), format).toBe(true);
    }
    const csv = await rates.file("CNB", { format: "csv" });
    expect(csv).toMatchObject({ contentType: "text/csv; charset=utf-8", filename: `CNB-${LAST}.csv` });
  });

  it("gives the set in force on a date, and the currencies not quoted", async () => {
    const onSunday = await client().onDate("CNB", "2025-06-01", { currencies: ["usd", "GBP"] });
    expect(onSunday).toEqual({
      bankId: "CNB",
      baseCurrency: "CZK",
      quoteType: "Direct",
      frequency: "Daily",
      effectiveDate: "2025-05-30",
      requestedDate: "2025-06-01",
      rates: [{ currency: "USD", rate: "20.05301" }],
      notQuoted: ["GBP"],
    });
  });

  it("iterates a range in full, a year at a time, oldest first", async () => {
    const events: DebugEvent[] = [];
    const rates = client({ debug: (e) => events.push(e) });
    const days = [];
    for await (const day of rates.range("CNB", { from: "2024-10-01", to: LAST })) days.push(day);
    expect(days.map((d) => d.effectiveDate)).toEqual(DATES);
    for (const day of days) expect(day.rates, day.effectiveDate).toEqual(expected(day.effectiveDate));
    // 2024-10-01..2025-09-30, 2025-10-01..2026-03-03: two requests of the range.
    const ranges = events.filter((e) => e.event === "answer" && e.url?.endsWith("/v1/Banks/CNB/DailyRates"));
    expect(ranges.map((e) => e.status)).toEqual([200, 200]);

    const filtered = [];
    for await (const day of rates.range("CNB", { from: "2026-02-27", to: "2026-03-03", currencies: ["JPY"] }))
      filtered.push([day.effectiveDate, day.rates]);
    expect(filtered).toEqual([
      ["2026-02-27", [{ currency: "JPY", rate: "13.26273", unitMultiplier: 2 }]],
      ["2026-03-02", [{ currency: "JPY", rate: "13.26023", unitMultiplier: 2 }]],
      ["2026-03-03", [{ currency: "JPY", rate: "13.26033", unitMultiplier: 2 }]],
    ]);
  });

  it("sends If-None-Match and answers a 304 from its cache", async () => {
    const events: DebugEvent[] = [];
    const rates = client({ debug: (e) => events.push(e) });
    const notModified = () => served.metric("exrates_http_requests_total", { status: "304" });
    const before = await notModified();
    const first = await rates.latest("CNB");
    const second = await rates.latest("CNB");
    expect(second).toEqual(first);
    expect(await notModified()).toBe(before + 1);
    expect(events.filter((e) => e.event === "answer" && e.fromCache)).toHaveLength(1);

    const list = await rates.banks();
    expect(await rates.banks()).toEqual(list);
    expect(await notModified()).toBe(before + 2);
    expect(list.map((b) => [b.id, b.firstEffectiveDate, b.latestEffectiveDate])).toEqual([["CNB", FIRST, LAST]]);

    const xlsx = await rates.file("CNB", { format: "xlsx" });
    const again = await rates.file("CNB", { format: "xlsx" });
    expect([xlsx.fromCache, again.fromCache]).toEqual([false, true]);
    expect(again.bytes.equals(xlsx.bytes)).toBe(true);
  });

  it("renews its token at 80% of expires_in: 50 concurrent calls make exactly one grant", async () => {
    let now = Date.now();
    const rates = client({ now: () => now });
    const grants = () => served.metric("exrates_tokens_total", { outcome: "issued" });
    const start = await grants();
    await rates.bank("CNB");
    expect(await grants()).toBe(start + 1);

    // At 79% of the 300 s: the held token serves every call.
    now += 237_000;
    const early = await Promise.all(Array.from({ length: 50 }, () => rates.latest("CNB")));
    expect(early.every((r) => r.effectiveDate === LAST)).toBe(true);
    expect(await grants()).toBe(start + 1);

    // Past 80% (and before expiry): one new token for all fifty.
    now += 6_000;
    const renewed = await Promise.all(
      Array.from({ length: 50 }, (_, i) => (i % 2 ? rates.latest("CNB") : rates.bank("CNB"))),
    );
    expect(renewed).toHaveLength(50);
    expect(await grants()).toBe(start + 2);
  });

  it("surfaces a revoked client's 401 after one renewal try", async () => {
    const made = await served.run(["clients", "create", "revoked", "--json"]);
    const { client_id: id, client_secret: secret } = JSON.parse(made.stdout) as Record<string, string>;
    const revoked = client({ clientId: id!, clientSecret: secret! });
    await revoked.bank("CNB");
    expect((await served.run(["clients", "disable", id!])).code).toBe(0);
    const refusedBefore = await served.metric("exrates_tokens_total", { outcome: "refused" });
    const issuedBefore = await served.metric("exrates_tokens_total", { outcome: "issued" });
    // 401s of the API (the token endpoint's own 401s are the refused grants).
    const apiRefusals = async () =>
      (await served.metric("exrates_http_requests_total", { status: "401" })) -
      (await served.metric("exrates_http_requests_total", { status: "401", route: "token" }));
    const unauthorizedBefore = await apiRefusals();
    // The server sees the change within a quarter of a second: until then the held token still works.
    const deadline = Date.now() + 5_000;
    let error: unknown;
    while (Date.now() < deadline) {
      error = await revoked.latest("CNB").then(
        () => undefined,
        (e: unknown) => e,
      );
      if (error) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(error).toBeInstanceOf(ExratesError);
    const e = error as ExratesError;
    expect(e).toMatchObject({ status: 401, title: "Unauthorized" });
    expect(e.detail).toMatch(/disabled.*a new token was refused: 401 .*invalid_client/);
    // One 401 of the API, one refused grant, no token issued.
    expect(await apiRefusals()).toBe(unauthorizedBefore + 1);
    expect(await served.metric("exrates_tokens_total", { outcome: "refused" })).toBe(refusedBefore + 1);
    expect(await served.metric("exrates_tokens_total", { outcome: "issued" })).toBe(issuedBefore);
    said.push(e.message, inspect(e), JSON.stringify(e));
  });

  it("throws one error class with the problem body's members", async () => {
    const rates = client();
    const unknown = await rates.latest("NOPE").catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(ExratesError);
    expect(unknown).toMatchObject({
      type: "urn:exrates:problem:unknown-bank",
      title: "Unknown bank",
      status: 404,
      extensions: { bank: "NOPE" },
    });
    const early = (await rates.onDate("CNB", "2020-01-01").catch((e: unknown) => e)) as ExratesError;
    expect(early).toMatchObject({
      type: "about:blank",
      status: 404,
      extensions: { firstDate: FIRST, latestDate: LAST },
    });
    expect(early.detail).toContain("before CNB's first stored date");
    const bad = (await rates.onDate("CNB", "2025-02-30").catch((e: unknown) => e)) as ExratesError;
    expect(bad).toMatchObject({ status: 400, title: "Bad Request" });
    const noStatus = (await rates.status().catch((e: unknown) => e)) as ExratesError;
    expect(noStatus.status).toBe(404);

    const wrongSecret = client({ clientSecret: "not-the-secret-at-all" });
    const refused = (await wrongSecret.banks().catch((e: unknown) => e)) as ExratesError;
    expect(refused).toMatchObject({ status: 401, extensions: { error: "unauthorized_client" } });
    said.push(...[unknown, early, bad, noStatus, refused].map((x) => `${(x as Error).message} ${inspect(x)}`));
    said.push(inspect(rates), JSON.stringify(rates));
  });

  it("never says a secret or a token: not in debug events, errors, nor the client itself", () => {
    expect(tokens.size).toBeGreaterThan(2);
    expect(said.length).toBeGreaterThan(100);
    const text = said.join("\n");
    expect(text).not.toContain(served.clientSecret);
    for (const token of tokens) {
      expect(text).not.toContain(token);
      // Nor the token's signature alone (a log line cut short).
      expect(text).not.toContain(token.split(".")[2]);
    }
    expect(served.output()).not.toContain(served.clientSecret);
  });
});
