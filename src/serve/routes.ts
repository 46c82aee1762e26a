// The routing table: every path the server answers, one line each: the method, the path pattern
// (literal segments match any case; `{bankId}`, `{date}`, `{realm}`, `{.format}` and `{rest...}` are
// read by src/serve/http/router.ts), the route's name (its label in the metrics), whether a bearer
// token is needed first, the handler, and the query parameters it reads (any other is answered 400
// with this list; a route without the list takes any). Adding an endpoint: write its handler in a file of its own
// under resources/ (with its OpenAPI fragment beside it, added to openapi.ts), and add its line here.
// The first line whose pattern matches wins; Latest comes first among the API's routes, so that its
// lookup is a direct match.
import type { MatchedRoute } from "./context.js";
import { RouteTable, type RouteSpec, type Unrouted } from "./http/router.js";
import { statusPage } from "./pages/status-page/page.js";
import { bank, banks } from "./resources/banks/banks.js";
import { convertHandler } from "./resources/convert/convert.js";
import { calendar } from "./resources/calendar/calendar.js";
import { corrections } from "./resources/corrections/corrections.js";
import { currencies } from "./resources/currencies/currencies.js";
import { openapi, xsd } from "./resources/documents.js";
import { events } from "./resources/events/stream.js";
import { healthz, readyz } from "./resources/health.js";
import { dated } from "./resources/history/dated.js";
import { range } from "./resources/history/range.js";
import { latest, latestAt } from "./resources/latest/latest.js";
import { periodDatedAt, periodRangeAt } from "./resources/periods/periods.js";
import { publicationFile } from "./resources/publications/files.js";
import { publicationJwks } from "./resources/publications/jwks.js";
import { isTokenPath, plainRealm, realm } from "./resources/realm.js";
import { status } from "./resources/status/status.js";

/** The frequencies of period sources, each with its own rates path. */
const PERIOD_FREQUENCIES = ["Weekly", "Monthly", "Quarterly"] as const;

// One line per route, whatever its length: the table reads as a table.
// prettier-ignore
export const ROUTES: readonly RouteSpec[] = [
  { method: "GET", path: "/v1/Banks/{bankId}/DailyRates/Latest{.format}", name: "latest", auth: true, handle: latest, query: ["format", "currencies", "base", "asOf", "provenance"] },
  { method: "GET", path: "/v1/Banks/{bankId}/DailyRates/{date}{.format}", name: "dated", auth: true, handle: dated, query: ["format", "currencies", "base", "asOf", "provenance"] },
  { method: "GET", path: "/v1/Banks/{bankId}/DailyRates{.format}", name: "range", auth: true, handle: range, query: ["format", "from", "to", "currencies", "base", "asOf", "provenance"] },
  // A period source's rates, under the path of its frequency (src/serve/resources/periods/).
  ...PERIOD_FREQUENCIES.flatMap((f): RouteSpec[] => [
    { method: "GET", path: `/v1/Banks/{bankId}/${f}Rates/Latest{.format}`, name: "latest", auth: true, handle: latestAt(f), query: ["format", "currencies", "base", "asOf"] },
    { method: "GET", path: `/v1/Banks/{bankId}/${f}Rates/{date}{.format}`, name: "dated", auth: true, handle: periodDatedAt(f), query: ["format", "currencies", "asOf"] },
    { method: "GET", path: `/v1/Banks/{bankId}/${f}Rates{.format}`, name: "range", auth: true, handle: periodRangeAt(f), query: ["format", "from", "to", "currencies", "asOf"] },
  ]),
  { method: "GET", path: "/v1/Banks/{bankId}/Corrections{.format}", name: "corrections", auth: true, handle: corrections, query: ["format", "from", "to"] },
  { method: "GET", path: "/v1/Banks/{bankId}/Convert{.format}", name: "convert", auth: true, handle: convertHandler, query: ["format", "from", "to", "amount", "date"] },
  { method: "GET", path: "/v1/Banks/{bankId}/Calendar{.format}", name: "calendar", auth: true, handle: calendar, query: ["format", "year"] },
  { method: "GET", path: "/v1/banks/{bankId}{.format}", name: "bank", auth: true, handle: bank, query: ["format"] },
  { method: "GET", path: "/v1/banks", name: "banks", auth: true, handle: banks, query: ["format"] },
  { method: "GET", path: "/v1/currencies{.format}", name: "currencies", auth: true, handle: currencies, query: ["format"] },
  { method: "GET", path: "/v1/events", name: "events", auth: true, handle: events, query: ["banks"] },
  { method: "GET", path: "/v1/status", name: "status", auth: true, handle: status, query: [] },
  { method: "GET", path: "/v1/openapi.json", name: "openapi", auth: false, handle: openapi },
  { method: "GET", path: "/v1/publications/jwks.json", name: "publication-jwks", auth: false, handle: publicationJwks, query: [] },
  // The served generation byte for byte (its manifest, signature, keys, files and their siblings), for `exrates verify https://...`.
  { method: "GET", path: "/v1/publications/current/{rest...}", name: "publication-file", auth: true, handle: publicationFile, query: [] },
  { method: "GET", path: "/v1/schemas/exchange-rates-1.0.xsd", name: "xsd", auth: false, handle: xsd },
  { method: "GET", path: "/healthz", name: "healthz", auth: false, handle: healthz },
  { method: "GET", path: "/readyz", name: "readyz", auth: false, handle: readyz },
  { method: "GET", path: "/", name: "home", auth: false, handle: statusPage },
  // Keycloak's realm paths, as written (case matters), every method: the realm answers them itself.
  { method: "ANY", path: "/auth/realms/{realm}/{rest...}", name: "realm", auth: false, handle: realm, exactCase: true },
  { method: "ANY", path: "/realms/{realm}/{rest...}", name: "realm", auth: false, handle: plainRealm, exactCase: true },
];

export const routeTable = new RouteTable(ROUTES);

/** What a request target names: its route (or why none) and its query. */
export function route(rawUrl: string): { route: MatchedRoute | Unrouted; query: string } {
  const { route, query } = routeTable.match(rawUrl);
  return { route, query };
}

/** A request target's label in the metrics: its route's name, the realm's token endpoint apart. */
export function routeLabel(rawUrl: string): string {
  const { route } = routeTable.match(rawUrl);
  return route.kind === "realm" && isTokenPath(route) ? "token" : route.kind;
}
