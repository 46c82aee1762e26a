// The docs cannot drift from the code: every route of the routing table is a row of docs/API.md's
// endpoint table and a path of the OpenAPI document; every method of the typed client and every MCP tool
// reads a route of the table; the README names every resource. Adding a route, a method or a tool without
// its documentation fails here, by name.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";

import { ExratesClient } from "@exrates/client";
import { createRatesMcpServer } from "../../src/mcp/server.js";
import { TOOL_ROUTES, type RatesReader } from "../../src/mcp/tools.js";
import { openApiDocument } from "../../src/serve/openapi.js";
import { ROUTES } from "../../src/serve/routes.js";

const read = (path: string) => readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), "utf8");
const PATHS = ROUTES.map((r) => r.path);

/** A route's path as the docs write it: `{id}` for the bank, `{path}` for the rest, no format suffix. */
function docPath(path: string): string {
  return path
    .replace("{.format}", "")
    .replace("{bankId}", "{id}")
    .replace("{rest...}", "{path}")
    .replace(/(Weekly|Monthly|Quarterly)Rates/, "{Period}Rates");
}

/** The paths of API.md's endpoint table, as written there without their format and query parts. */
function endpointTable(): string[] {
  const api = read("docs/API.md");
  const table = api.slice(api.indexOf("## Endpoints at a glance"), api.indexOf("\n## ", api.indexOf("## Endpoints")));
  return (
    table
      .split("\n")
      .filter((line) => line.startsWith("|"))
      // The path is the first code span after the method (a code span may hold an escaped `\|`).
      .map((line) => /^\|[^|`]*\|\s*`([^`]+)`/.exec(line)?.[1])
      .filter((path): path is string => path !== undefined)
      .map((path) =>
        path
          .replace(/\[\?.*$/, "")
          .replace(/\?.*$/, "")
          .replace(/\[[^\]]*\]$/, "")
          .replace("{YYYY-MM-DD}", "{date}"),
      )
  );
}

/** Each method of the client and the route it reads (a new method must be added here, with its route). */
const CLIENT_ROUTES: Record<string, string[]> = {
  banks: ["/v1/banks"],
  bank: ["/v1/banks/{bankId}{.format}"],
  currencies: ["/v1/currencies{.format}"],
  latest: ["/v1/Banks/{bankId}/DailyRates/Latest{.format}", "/v1/Banks/{bankId}/MonthlyRates/Latest{.format}"],
  onDate: ["/v1/Banks/{bankId}/DailyRates/{date}{.format}", "/v1/Banks/{bankId}/QuarterlyRates/{date}{.format}"],
  range: ["/v1/Banks/{bankId}/DailyRates{.format}", "/v1/Banks/{bankId}/WeeklyRates{.format}"],
  file: ["/v1/Banks/{bankId}/DailyRates/Latest{.format}", "/v1/Banks/{bankId}/DailyRates{.format}"],
  convert: ["/v1/Banks/{bankId}/Convert{.format}"],
  calendar: ["/v1/Banks/{bankId}/Calendar{.format}"],
  corrections: ["/v1/Banks/{bankId}/Corrections{.format}"],
  status: ["/v1/status"],
  events: ["/v1/events"],
  publicationKeys: ["/v1/publications/jwks.json"],
  publicationFile: ["/v1/publications/current/{rest...}"],
  openapi: ["/v1/openapi.json"],
  pair: ["/v1/Pairs/{rest...}"],
};

describe("the docs and the routing table", () => {
  it("lists every route in API.md's endpoint table", () => {
    const rows = endpointTable();
    const missing = ROUTES.filter((r) => {
      const path = docPath(r.path);
      // The realm's and the pairs' routes take any path below them: a row of their prefix covers them.
      if (path.endsWith("/{path}") && (r.name === "realm" || r.name === "pair"))
        return !rows.some((row) => row.startsWith(path.slice(0, -"{path}".length)));
      return !rows.includes(path);
    });
    expect(missing.map((r) => r.path)).toEqual([]);
  });

  it("describes every route in the OpenAPI document, the realm's and the status page's aside", async () => {
    const doc = openApiDocument({ publicUrl: "http://x", tokenUrl: "http://x/token", scope: "exchange-rates" });
    const documented = Object.keys(doc.paths as object);
    const undocumented = ROUTES.filter((r) => r.name !== "realm" && r.path !== "/")
      .map((r) => r.path.replace("{.format}", "").replace("{rest...}", "{path}"))
      .filter((path) => !documented.includes(path));
    expect(undocumented).toEqual([]);
    // The realm's token endpoint is the security scheme's.
    expect(JSON.stringify(doc.components)).toContain('"tokenUrl":"http://x/token"');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
  });

  it("maps every method of the typed client to routes of the table", () => {
    const methods = Object.getOwnPropertyNames(ExratesClient.prototype).filter(
      (name) => name !== "constructor" && !["json", "rates", "ratesAt", "atFrequency", "url"].includes(name),
    );
    expect(methods.sort()).toEqual(Object.keys(CLIENT_ROUTES).sort());
    const unrouted = Object.values(CLIENT_ROUTES)
      .flat()
      .filter((path) => !PATHS.includes(path));
    expect(unrouted).toEqual([]);
  });

  it("maps every MCP tool to a route of the table", async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createRatesMcpServer({} as RatesReader).connect(serverSide);
    const client = new Client({ name: "coverage", version: "1" });
    await client.connect(clientSide);
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    await client.close();
    expect(tools).toEqual(Object.keys(TOOL_ROUTES).sort());
    expect(Object.values(TOOL_ROUTES).filter((path) => !PATHS.includes(path))).toEqual([]);
  });

  it("names every resource of the API in the README, with the client method and the MCP tool of each", () => {
    const readme = read("README.md");
    // Each /v1 route's last literal segment: the resource's name as the paths write it.
    const resources = new Set(
      ROUTES.filter((r) => r.path.startsWith("/v1/")).map((r) =>
        r.path
          .replace("{.format}", "")
          .split("/")
          .filter((segment) => segment && !segment.startsWith("{") && !/^(v1|Latest|current)$/.test(segment))
          .at(-1)!,
      ),
    );
    const missing = [...resources].filter((name) => !readme.includes(name));
    expect(missing).toEqual([]);
    for (const query of ["asOf", "provenance", "base", "currencies"]) expect(readme).toContain(`\`${query}\``);
    for (const method of Object.keys(CLIENT_ROUTES)) expect(readme, method).toContain(`${method}(`);
    for (const tool of Object.keys(TOOL_ROUTES)) expect(readme, tool).toContain(`\`${tool}\``);
  });
});
