import { describe, expect, it } from "vitest";

import { RouteTable } from "../../src/serve/http/router.js";
import { openApiDocument } from "../../src/serve/openapi.js";
import { ROUTES, route, routeLabel } from "../../src/serve/routes.js";

describe("route", () => {
  it("matches the API's paths, case-insensitively except the realm's, with the query apart", () => {
    expect(route("/v1/Banks/cnb/DailyRates/Latest.xml?format=csv")).toEqual({
      route: { kind: "latest", id: "CNB", suffix: "xml" },
      query: "format=csv",
    });
    expect(route("/V1/BANKS/ecb").route).toEqual({ kind: "bank", id: "ECB", suffix: undefined });
    expect(route("/v1/banks").route).toEqual({ kind: "banks" });
    expect(route("/v1/status").route).toEqual({ kind: "status" });
    expect(route("/healthz").route).toEqual({ kind: "healthz" });
    expect(route("/v1/schemas/exchange-rates-1.0.xsd").route).toEqual({ kind: "xsd" });
    expect(route("/auth/realms/exrates/protocol/openid-connect/token").route).toEqual({
      kind: "realm",
      realm: "exrates",
      rest: ["protocol", "openid-connect", "token"],
    });
    expect(route("/Auth/realms/exrates/x").route).toEqual({ kind: "notFound" });
  });

  it("refuses paths that could step around the tree, and unknown ones are not found", () => {
    const refused = (url: string) => route(url).route.kind;
    expect(refused("/v1/banks/%2e%2e")).toBe("bad");
    expect(refused("/v1/banks/..")).toBe("bad");
    expect(refused("/v1/banks%2fCNB")).toBe("bad");
    expect(refused("/v1/banks/C%00")).toBe("bad");
    expect(refused("/v1/banks/%E0%A4%A")).toBe("bad");
    expect(refused("/v1\\banks")).toBe("bad");
    expect(refused("v1/banks")).toBe("bad");
    expect(route(`/${"a".repeat(2048)}`).route).toMatchObject({ kind: "bad", status: 414 });
    expect(refused("/v1/banks/TOOLONGBANKID")).toBe("notFound");
    expect(refused("/v1/Banks/CNB/DailyRates/Oldest.json")).toBe("notFound");
    expect(refused("/v2/banks")).toBe("notFound");
  });
});

describe("the routing table", () => {
  it("reads every parameter, the suffix after the first dot, and any case but the realm's", () => {
    expect(route("/v1/Banks/cnb/DailyRates/2026-03-18.csv?currencies=USD")).toMatchObject({
      route: { kind: "dated", id: "CNB", date: "2026-03-18", suffix: "csv" },
      query: "currencies=USD",
    });
    expect(route("/v1/banks/CNB/dailyrates.XML").route).toMatchObject({ kind: "range", id: "CNB", suffix: "XML" });
    expect(route("/v1/banks/CNB/DailyRates.").route).toMatchObject({ kind: "range", suffix: "" });
    expect(route("/v1/Banks/CNB/DailyRates/Latest.json.gz").route).toMatchObject({ kind: "latest", suffix: "json.gz" });
    expect(route("/v1/Currencies.json").route).toMatchObject({ kind: "currencies", suffix: "json" });
    expect(route("/realms/exrates/protocol/openid-connect/certs").route).toMatchObject({
      kind: "realm",
      realm: "exrates",
      rest: ["protocol", "openid-connect", "certs"],
    });
    expect(route("/auth/realms/x").route).toMatchObject({ kind: "realm", realm: "x", rest: [] });
    expect(route("/auth/Realms/x").route.kind).toBe("notFound");
    // A letter outside ASCII is compared as toLowerCase says: the Kelvin sign is a k.
    expect(route("/v1/ban%E2%84%AAs").route.kind).toBe("banks");
  });

  it("keeps a path to its route: fixed segments whole, a date starting with a digit, no suffix where none is read", () => {
    for (const url of [
      "/v1/banks.json",
      "/v1/status.json",
      "/v1/Banks/CNB.json/DailyRates",
      "/v1/Banks/CNB/DailyRates/Latest.json/x",
      "/v1/Banks/CNB/DailyRates/.json",
      "/v1/Banks/CNB/DailyRatesX",
      "/v1/banks/",
      "/healthzz",
      "//",
    ])
      expect(route(url).route.kind, url).toBe("notFound");
    expect(route("/").route.kind).toBe("home");
    expect(route("/v1/Banks/C/DailyRates/2026-01-01").route.kind).toBe("notFound");
  });

  it("answers the metrics' route label, the realm's token endpoint apart", () => {
    expect(routeLabel("/v1/Banks/CNB/DailyRates/Latest.json")).toBe("latest");
    expect(routeLabel("/auth/realms/exrates/protocol/openid-connect/token")).toBe("token");
    expect(routeLabel("/realms/exrates/.well-known/openid-configuration")).toBe("realm");
    expect(routeLabel("/nope")).toBe("notFound");
    expect(routeLabel("/v1/banks/..")).toBe("bad");
  });

  it("refuses a pattern it cannot read, when the table is compiled", () => {
    const handle = () => undefined;
    const line = (path: string) => ({ method: "GET" as const, path, name: "x", auth: true, handle });
    expect(() => new RouteTable([line("/v1/{nope}")])).toThrow("route x: unknown parameter {nope}");
    expect(() => new RouteTable([line("v1/x")])).toThrow("route x: the path must start with /");
    expect(() => new RouteTable([line("/v1/a.b{.format}")])).toThrow('route x: cannot read the segment "a.b{.format}"');
  });

  it("describes every route that needs a token in the OpenAPI document, and routes every path the document names", () => {
    const doc = openApiDocument({ publicUrl: "http://x", tokenUrl: "http://x/token", scope: "exchange-rates" });
    const documented = Object.keys(doc.paths as object);
    const routed = ROUTES.filter((r) => r.auth).map((r) =>
      r.path.replace("{.format}", "").replace("{rest...}", "{path}"),
    );
    expect(routed.filter((p) => !documented.includes(p))).toEqual([]);
    const unrouted = documented.filter(
      (p) =>
        route(
          p
            .replace(/\{bankId\}/, "CNB")
            .replace("{date}", "2026-01-02")
            .replace("{format}", "csv"),
        ).route.kind === "notFound",
    );
    expect(unrouted).toEqual([]);
  });
});
