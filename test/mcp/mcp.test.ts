// `exrates mcp` with the SDK's own client against a real `exrates serve`: over stdio (spawned as an
// assistant host would), each tool listed with its schema and called, its figures checked against the
// published files; refusals that say why; over streamable HTTP, bearer-checked like the API.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { parseCsv } from "../support/csv.js";
import { parse as parseLossless } from "lossless-json";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { ratesOf, serveRates, weekdays, freePort, type ServedRates } from "../support/served-rates.js";
import { finished, spawnCli, waitFor } from "../e2e/support.js";
import { CLI } from "../support/cli.js";

const FIRST = "2025-12-01";
const LAST = "2026-03-03";

type Figure = { currency: string; rate: string; unit: number; from: string; to: string; reads: string };
type ToolResult = { isError?: boolean; structuredContent?: Record<string, unknown>; content: Array<{ text?: string }> };

describe("exrates mcp", { timeout: 180_000 }, () => {
  let served: ServedRates;
  let token: string;
  /** The API's CSV of a path (what the server publishes for a date or a range). */
  const csvRows = async (path: string) => {
    const response = await fetch(`${served.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    const rows: unknown = parseCsv(await response.text());
    return (rows as string[][]).slice(1);
  };

  beforeAll(async () => {
    served = await serveRates(weekdays(FIRST, LAST));
    token = await served.token();
  }, 120_000);
  afterAll(async () => {
    await served?.close();
  });

  describe("on stdio", () => {
    let client: Client;
    let transport: StdioClientTransport;
    let stderr = "";
    beforeAll(async () => {
      transport = new StdioClientTransport({
        command: process.execPath,
        args: [CLI, "mcp"],
        env: {
          EXRATES_API_URL: served.url,
          EXRATES_CLIENT_ID: served.clientId,
          EXRATES_CLIENT_SECRET: served.clientSecret,
          EXRATES_DATA_DIR: served.env.EXRATES_DATA_DIR!,
          LOG_LEVEL: "debug",
        },
        stderr: "pipe",
      });
      transport.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
      client = new Client({ name: "exrates-test", version: "1.0.0" });
      await client.connect(transport);
    }, 60_000);
    afterAll(async () => {
      await client?.close();
    });
    const call = async (name: string, args: Record<string, unknown> = {}) =>
      (await client.callTool({ name, arguments: args })) as ToolResult;

    it("lists each tool with its input and output schema", async () => {
      const { tools } = await client.listTools();
      const byName = new Map(tools.map((t) => [t.name, t]));
      expect([...byName.keys()].sort()).toEqual([
        "average_rate",
        "compare_banks",
        "convert",
        "get_calendar",
        "get_latest_rates",
        "get_rate_history",
        "get_rates_on_date",
        "list_banks",
        "list_corrections",
        "list_currencies",
      ]);
      const inputs = Object.fromEntries(
        tools.map((t) => [t.name, [Object.keys(t.inputSchema.properties ?? {}).sort(), t.inputSchema.required ?? []]]),
      );
      expect(inputs).toEqual({
        list_banks: [[], []],
        list_currencies: [["bank"], []],
        get_calendar: [["bank", "year"], ["bank"]],
        get_latest_rates: [["asOf", "bank", "base", "currencies", "frequency", "provenance"], ["bank"]],
        get_rates_on_date: [
          ["asOf", "bank", "base", "currencies", "date", "frequency", "provenance"],
          ["bank", "date"],
        ],
        get_rate_history: [
          ["asOf", "bank", "currency", "frequency", "from", "to"],
          ["bank", "currency", "from"],
        ],
        convert: [
          ["amount", "bank", "date", "from", "to"],
          ["bank", "from", "to", "amount"],
        ],
        list_corrections: [["bank", "from", "to"], ["bank"]],
        compare_banks: [
          ["asOf", "banks", "base", "date", "quote"],
          ["base", "quote"],
        ],
        average_rate: [
          ["bank", "banks", "base", "currencies", "from", "group", "quote", "to"],
          ["from", "group"],
        ],
      });
      for (const tool of tools) {
        // Strict: a key the tool does not know is refused, never dropped.
        expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
        expect(tool.description, tool.name).toBeTruthy();
        expect(tool.outputSchema?.type, tool.name).toBe("object");
        expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
      }
      const latest = byName.get("get_latest_rates")!;
      expect(Object.keys(latest.outputSchema!.properties!).sort()).toEqual(
        [
          "asOf",
          "bank",
          "baseCurrency",
          "derivedFrom",
          "effectiveDate",
          "frequency",
          "notQuoted",
          "provenance",
          "quoteType",
          "rates",
        ].sort(),
      );
      expect(latest.inputSchema.properties!.bank).toMatchObject({
        type: "string",
        pattern: "^[A-Za-z][A-Za-z0-9]{1,9}$",
      });
    });

    it("list_banks and list_currencies: the bank, its dates, its currencies", async () => {
      const banks = await call("list_banks");
      expect(banks.isError).toBeFalsy();
      expect(banks.structuredContent!.banks).toEqual([
        expect.objectContaining({
          id: "CNB",
          name: "Czech National Bank",
          bankCurrency: "CZK",
          countryCode: ["CZ"],
          firstEffectiveDate: FIRST,
          latestEffectiveDate: LAST,
        }),
      ]);
      expect(banks.content[0]!.text).toContain(`CNB: Czech National Bank, CZK, rates ${FIRST} to ${LAST}`);

      const currencies = await call("list_currencies", { bank: "cnb" });
      const listed = currencies.structuredContent!.currencies as Array<{
        code: string;
        name?: string;
        banks: unknown[];
      }>;
      expect(listed.map((c) => [c.code, c.name, c.banks])).toEqual(
        ["EUR", "JPY", "USD", "XDR"].map((code) => [
          code,
          new Intl.DisplayNames(["en"], { type: "currency" }).of(code),
          [{ bankId: "CNB", since: FIRST, latest: LAST }],
        ]),
      );
    });

    it("get_latest_rates: the published digits, each with its unit, direction and date", async () => {
      const result = await call("get_latest_rates", { bank: "CNB" });
      expect(result.isError).toBeFalsy();
      const published = parseLossless(
        served.published("v1/Banks/CNB/DailyRates/Latest.json").toString(),
        null,
        (v: string) => v,
      ) as {
        rates: Record<string, Record<string, { rate: string; unitMultiplier?: string }>>;
      };
      const day = published.rates[LAST]!;
      const s = result.structuredContent!;
      expect(s).toMatchObject({
        bank: { id: "CNB", name: "Czech National Bank" },
        baseCurrency: "CZK",
        quoteType: "Direct",
        effectiveDate: LAST,
        notQuoted: [],
      });
      const figures = s.rates as Figure[];
      expect(figures.map((f) => f.currency)).toEqual(Object.keys(day).sort());
      for (const f of figures) {
        expect(f.rate).toBe(day[f.currency]!.rate);
        expect(f.unit).toBe(10 ** Number(day[f.currency]!.unitMultiplier ?? 0));
        expect(f.reads).toBe(`${f.unit} ${f.currency} = ${f.rate} CZK`);
      }
      expect(figures.find((f) => f.currency === "EUR")!.rate).toBe("24.030");
      expect(figures.find((f) => f.currency === "JPY")!.reads).toBe("100 JPY = 13.26033 CZK");
      const text = result.content[0]!.text!;
      expect(text).toContain(`CNB (Czech National Bank): latest rates, effective ${LAST}`);
      for (const f of figures) expect(text).toContain(f.reads);
    });

    it("get_rates_on_date: the set in force, as the server's document of that date says", async () => {
      const result = await call("get_rates_on_date", { bank: "CNB", date: "2026-03-01", currencies: ["USD", "GBP"] });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({
        requestedDate: "2026-03-01",
        effectiveDate: "2026-02-27",
        notQuoted: ["GBP"],
      });
      const rows = await csvRows("/v1/Banks/CNB/DailyRates/2026-03-01.csv?currencies=USD");
      expect(rows).toEqual([["CNB", "USD", "CZK", "2026-02-27", "20.02271", "1"]]);
      expect(result.structuredContent!.rates).toEqual([
        { currency: "USD", rate: "20.02271", unit: 1, from: "USD", to: "CZK", reads: "1 USD = 20.02271 CZK" },
      ]);
      expect(result.content[0]!.text).toContain("rates in force on 2026-03-01: those published for 2026-02-27");
      expect(result.content[0]!.text).toContain("Not quoted by CNB on 2026-02-27: GBP");
    });

    it("get_rate_history: every date of the range, as the server's range CSV says", async () => {
      const result = await call("get_rate_history", { bank: "CNB", currency: "jpy", from: "2026-01-01", to: LAST });
      expect(result.isError).toBeFalsy();
      const rows = await csvRows(`/v1/Banks/CNB/DailyRates.csv?from=2026-01-01&to=${LAST}&currencies=JPY`);
      const points = result.structuredContent!.points as Array<{ effectiveDate: string; rate: string; unit: number }>;
      expect(points.map((p) => [p.effectiveDate, p.rate, String(p.unit)])).toEqual(rows.map((r) => [r[3], r[4], r[5]]));
      expect(points).toHaveLength(weekdays("2026-01-01", LAST).length);
      expect(
        points.every(
          (p, i) =>
            p.rate === ratesOf(p.effectiveDate)[1]!.rate && (i === 0 || p.effectiveDate > points[i - 1]!.effectiveDate),
        ),
      ).toBe(true);
      expect(result.structuredContent).toMatchObject({
        bank: { id: "CNB" },
        currency: "JPY",
        baseCurrency: "CZK",
        quoteType: "Direct",
      });
    });

    it("says why when there are no rates: an unknown bank, a bank with none yet, a range without data", async () => {
      const unknown = await call("get_latest_rates", { bank: "NOPE" });
      expect(unknown.isError).toBe(true);
      expect(unknown.content[0]!.text).toBe(
        "NOPE is not a bank this service knows (list_banks gives them): Unknown bank NOPE",
      );
      const none = await call("get_latest_rates", { bank: "ECB" });
      expect(none.isError).toBe(true);
      expect(none.content[0]!.text).toBe("Bank ECB is known but has no rates published yet.");
      const before = await call("get_rates_on_date", { bank: "CNB", date: "2020-01-01" });
      expect(before.isError).toBe(true);
      expect(before.content[0]!.text).toContain(
        `before CNB's first stored date; stored dates run from ${FIRST} to ${LAST}`,
      );
      const empty = await call("get_rate_history", {
        bank: "CNB",
        currency: "USD",
        from: "2020-01-01",
        to: "2020-02-01",
      });
      expect(empty.isError).toBe(true);
      expect(empty.content[0]!.text).toBe(
        `CNB (Czech National Bank) published no rate of USD from 2020-01-01 to 2020-02-01 (its stored rates run from ${FIRST} to ${LAST})`,
      );
      const bad = await call("get_latest_rates", { bank: "C/../x" });
      expect(bad.isError).toBe(true);
      expect(bad.content[0]!.text).toMatch(/Input validation error/);
      // An argument the tool does not know is refused, naming it (never answered as if absent).
      const extra = await call("get_latest_rates", { bank: "CNB", baseCurrency: "USD" });
      expect(extra.isError).toBe(true);
      expect(extra.content[0]!.text).toMatch(/Input validation error[\s\S]*baseCurrency/);
    });

    it("never writes the secret or a token to its log", () => {
      expect(stderr).toContain("mcp serving on stdio");
      expect(stderr).not.toContain(served.clientSecret);
      expect(stderr).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
    });
  });

  describe("over streamable HTTP", () => {
    let mcp: ReturnType<typeof spawnCli>;
    let url: string;
    beforeAll(async () => {
      const port = await freePort();
      mcp = spawnCli(["mcp", "--http", String(port)], { EXRATES_API_URL: served.url, LOG_LEVEL: "warn" });
      await waitFor(mcp, (o) => o.stdout.includes("exrates mcp serving on "), 60_000);
      url = `http://127.0.0.1:${port}/mcp`;
    }, 60_000);
    afterAll(async () => {
      if (mcp?.pid && mcp.exitCode === null) {
        process.kill(mcp.pid, "SIGTERM");
        await finished(mcp, 15_000);
      }
    });
    const initialize = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    });
    const post = (headers: Record<string, string>) =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        body: initialize,
      });

    it("refuses a request without a valid token with 401, as the API does", async () => {
      const bare = await post({});
      expect(bare.status).toBe(401);
      expect(bare.headers.get("www-authenticate")).toBe('Bearer realm="exrates"');
      expect(await bare.json()).toMatchObject({ status: 401, title: "Unauthorized" });

      const forged = await post({ authorization: `Bearer ${token.slice(0, -4)}AAAA` });
      expect(forged.status).toBe(401);
      expect(forged.headers.get("www-authenticate")).toMatch(/^Bearer realm="exrates", error="invalid_token"/);
      const body = (await forged.json()) as { detail: string };
      expect(body.detail).toMatch(/signature/i);

      const basic = await post({
        authorization: `Basic ${Buffer.from(`${served.clientId}:${served.clientSecret}`).toString("base64")}`,
      });
      expect(basic.status).toBe(401);

      const good = await post({ authorization: `Bearer ${token}` });
      expect(good.status).toBe(200);
      expect(((await good.json()) as { result: { serverInfo: { name: string } } }).result.serverInfo.name).toBe(
        "exrates",
      );
      expect((await fetch(url.replace("/mcp", "/other"), { method: "POST" })).status).toBe(404);
      expect((await fetch(url, { headers: { authorization: `Bearer ${token}` } })).status).toBe(405);
    });

    it("serves the tools to the SDK's client with the caller's token", async () => {
      const client = new Client({ name: "exrates-test", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      try {
        expect((await client.listTools()).tools).toHaveLength(10);
        const result = (await client.callTool({
          name: "get_latest_rates",
          arguments: { bank: "CNB", currencies: ["XDR"] },
        })) as ToolResult;
        expect(result.structuredContent).toMatchObject({
          effectiveDate: LAST,
          rates: [
            { currency: "XDR", rate: "29.0334567890123456789", unit: 1, reads: "1 XDR = 29.0334567890123456789 CZK" },
          ],
        });
      } finally {
        await client.close();
      }
      expect(mcp.out.stderr).not.toContain(token);
    });
  });
});
