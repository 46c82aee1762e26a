import { describe, expect, it } from "vitest";

import { route } from "../../src/serve/routes.js";

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
