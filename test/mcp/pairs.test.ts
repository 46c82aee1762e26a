// The MCP tools `compare_banks` and `average_rate` against a real `exrates serve` (through the typed
// client, over the SDK's in-memory transport): their structured answers carry the API's own figures of
// the same request, their words name them, and a call mixing a bank's and a pair's arguments is refused.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { ExratesClient } from "@exrates/client";
import { createRatesMcpServer } from "../../src/mcp/server.js";
import { serveRates, weekdays, type ServedRates } from "../support/served-rates.js";

const FIRST = "2026-02-23";
const LAST = "2026-03-06";

type ToolResult = { isError?: boolean; structuredContent?: Record<string, unknown>; content: Array<{ text?: string }> };

describe("MCP: compare_banks and average_rate", { timeout: 120_000 }, () => {
  let served: ServedRates;
  let token: string;
  let mcp: Client;
  const api = async (path: string): Promise<Record<string, unknown>> => {
    const response = await fetch(`${served.url}${path}`, {
      headers: { authorization: `Bearer ${token}`, accept: "application/json" },
    });
    expect(response.status, path).toBe(200);
    return (await response.json()) as Record<string, unknown>;
  };
  const call = async (name: string, args: Record<string, unknown>) =>
    (await mcp.callTool({ name, arguments: args })) as ToolResult;

  beforeAll(async () => {
    served = await serveRates(weekdays(FIRST, LAST));
    token = await served.token();
    const rates = new ExratesClient({
      baseUrl: served.url,
      clientId: served.clientId,
      clientSecret: served.clientSecret,
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createRatesMcpServer(rates).connect(serverSide);
    mcp = new Client({ name: "pairs-test", version: "1" });
    await mcp.connect(clientSide);
  }, 120_000);
  afterAll(async () => {
    await mcp?.close();
    await served?.close();
  });

  it("compare_banks answers the pair's figures and consensus as the API does, on a date and at the latest", async () => {
    const onDate = await call("compare_banks", { base: "USD", quote: "JPY", date: "2026-03-04", banks: ["CNB"] });
    expect(onDate.isError).toBeFalsy();
    const doc = await api("/v1/Pairs/USD/JPY/2026-03-04?banks=CNB");
    expect(onDate.structuredContent).toEqual(doc);
    const figure = (doc.banks as Array<{ rate: string }>)[0]!;
    expect(onDate.content[0]!.text).toContain(`CNB 2026-03-04: ${figure.rate} (cross, derived through CZK`);
    const latest = await call("compare_banks", { base: "eur", quote: "czk" });
    expect(latest.structuredContent).toEqual(await api("/v1/Pairs/EUR/CZK/Latest"));
  });

  it("average_rate gives a bank's monthly means and a pair's as the API does", async () => {
    const bank = await call("average_rate", {
      bank: "CNB",
      currencies: ["EUR"],
      from: FIRST,
      to: LAST,
      group: "month",
    });
    expect(bank.isError).toBeFalsy();
    const doc = await api(`/v1/Banks/CNB/DailyRates?from=${FIRST}&to=${LAST}&group=month&currencies=EUR`);
    expect(bank.structuredContent).toMatchObject({ bankId: "CNB", baseCurrency: "CZK", quoteType: "Direct" });
    expect(bank.structuredContent!.averages).toEqual(doc.averages);
    const march = (doc.averages as Array<{ period: string; mean: string; days: number }>).find(
      (a) => a.period === "2026-03",
    )!;
    expect(bank.content[0]!.text).toContain(`2026-03 EUR: ${march.mean}`);
    expect(bank.content[0]!.text).toContain(`mean of ${march.days} days`);

    const pair = await call("average_rate", { base: "EUR", quote: "CZK", from: FIRST, to: LAST, group: "week" });
    expect(pair.structuredContent).toEqual(await api(`/v1/Pairs/EUR/CZK?from=${FIRST}&to=${LAST}&group=week`));
  });

  it("refuses mixed or missing arguments and an unknown key, saying why", async () => {
    const mixed = await call("average_rate", { bank: "CNB", base: "EUR", quote: "CZK", from: FIRST, group: "month" });
    expect(mixed.isError).toBe(true);
    expect(mixed.content[0]!.text).toMatch(/a pair's average takes base and quote/);
    const none = await call("average_rate", { from: FIRST, group: "month" });
    expect(none.content[0]!.text).toMatch(/give bank .* or base and quote/);
    const unknown = await call("compare_banks", { base: "EUR", quote: "CZK", currencies: ["USD"] });
    expect(unknown.isError).toBe(true);
    expect(unknown.content[0]!.text).toMatch(/currencies|Unrecognized/i);
  });
});
