// The routing table: every path the server answers, one line each: the method, the path pattern
// (literal segments match any case; `{bankId}`, `{date}`, `{realm}`, `{.format}` and `{rest...}` are
// read by src/serve/http/router.ts), the route's name (its label in the metrics), whether a bearer
// token is needed first, the handler, and the query parameters it reads (any other is answered 400
// with this list; a route without the list takes any). Adding an endpoint: write its handler in a file of its own
// under resources/ (with its OpenAPI fragment beside it, added to openapi.ts), and add its line here.
// The first line whose pattern matches wins; Latest comes first among the API's routes, so that its
// lookup is a direct match.
import { sourceIdFor } from "../feed/sources.js";
import type { Frequency } from "../types.js";
import type { Handler, MatchedRoute } from "./context.js";
import { RouteTable, type RouteSpec, type Unrouted } from "./http/router.js";
import { healthz, readyz } from "./resources/health.js";
import { latest, latestAt } from "./resources/latest/latest.js";
import { isTokenPath, plainRealm, realm } from "./resources/realm.js";

/**
 * A handler whose module is imported at its route's first request: `exrates serve` answers Latest from
 * memory, and the modules of the other routes (the history's renderers, the calendars with their holiday
 * rules, the pages...) need not sit in its memory until some client asks for them. A failed import is
 * tried again at the next request.
 */
function lazy(load: () => Promise<Handler>): Handler {
  let handler: Handler | undefined;
  let loading: Promise<Handler> | undefined;
  return (ctx, req, res, head, route, query) => {
    if (handler) return handler(ctx, req, res, head, route, query);
    loading ??= load().then(
      (loaded) => (handler = loaded),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading.then((loaded) => loaded(ctx, req, res, head, route, query));
  };
}

const dated = lazy(async () => (await import("./resources/history/dated.js")).dated);
const range = lazy(async () => (await import("./resources/history/range.js")).range);
const periods = () => import("./resources/periods/periods.js");
const periodDatedAt = (f: Frequency) => lazy(async () => (await periods()).periodDatedAt(f));
const periodRangeAt = (f: Frequency) => lazy(async () => (await periods()).periodRangeAt(f));
const corrections = lazy(async () => (await import("./resources/corrections/corrections.js")).corrections);
const convertHandler = lazy(async () => (await import("./resources/convert/convert.js")).convertHandler);
const calendar = lazy(async () => (await import("./resources/calendar/calendar.js")).calendar);
const banks = () => import("./resources/banks/banks.js");
const bank = lazy(async () => (await banks()).bank);
const banksList = lazy(async () => (await banks()).banks);
const currencies = lazy(async () => (await import("./resources/currencies/currencies.js")).currencies);
const events = lazy(async () => (await import("./resources/events/stream.js")).events);
const status = lazy(async () => (await import("./resources/status/status.js")).status);
const documents = () => import("./resources/documents.js");
const openapi = lazy(async () => (await documents()).openapi);
const xsd = lazy(async () => (await documents()).xsd);
const publicationJwks = lazy(async () => (await import("./resources/publications/jwks.js")).publicationJwks);
const publicationFile = lazy(async () => (await import("./resources/publications/files.js")).publicationFile);
const pairs = lazy(async () => (await import("./resources/pairs/pairs.js")).pairs);
const statusPage = lazy(async () => (await import("./pages/status-page/page.js")).statusPage);

/**
 * A rates route of one frequency, answered from the source of that frequency: `NBP/WeeklyRates` is
 * NBP's weekly table's (src/feed/sources.ts); any other bank's is its own.
 */
function atSource(frequency: Frequency, handler: Handler): Handler {
  return (ctx, req, res, head, route, query) => {
    const source = sourceIdFor(route.id!, frequency);
    const at = source === route.id ? route : { ...route, id: source };
    return handler(ctx, req, res, head, at, query);
  };
}

/** The frequencies of period sources, each with its own rates path. */
const PERIOD_FREQUENCIES = ["Weekly", "Monthly", "Quarterly"] as const;

// One line per route, whatever its length: the table reads as a table.
// prettier-ignore
export const ROUTES: readonly RouteSpec[] = [
  { method: "GET", path: "/v1/Banks/{bankId}/DailyRates/Latest{.format}", name: "latest", auth: true, handle: latest, query: ["format", "currencies", "base", "asOf", "provenance"] },
  { method: "GET", path: "/v1/Banks/{bankId}/DailyRates/{date}{.format}", name: "dated", auth: true, handle: dated, query: ["format", "currencies", "base", "asOf", "provenance"] },
  { method: "GET", path: "/v1/Banks/{bankId}/DailyRates{.format}", name: "range", auth: true, handle: range, query: ["format", "from", "to", "currencies", "base", "asOf", "provenance", "group"] },
  // A period source's rates, under the path of its frequency (src/serve/resources/periods/).
  ...PERIOD_FREQUENCIES.flatMap((f): RouteSpec[] => [
    { method: "GET", path: `/v1/Banks/{bankId}/${f}Rates/Latest{.format}`, name: "latest", auth: true, handle: atSource(f, latestAt(f)), query: ["format", "currencies", "base", "asOf"] },
    { method: "GET", path: `/v1/Banks/{bankId}/${f}Rates/{date}{.format}`, name: "dated", auth: true, handle: atSource(f, periodDatedAt(f)), query: ["format", "currencies", "asOf"] },
    { method: "GET", path: `/v1/Banks/{bankId}/${f}Rates{.format}`, name: "range", auth: true, handle: atSource(f, periodRangeAt(f)), query: ["format", "from", "to", "currencies", "asOf", "group"] },
  ]),
  { method: "GET", path: "/v1/Banks/{bankId}/Corrections{.format}", name: "corrections", auth: true, handle: corrections, query: ["format", "from", "to"] },
  { method: "GET", path: "/v1/Banks/{bankId}/Convert{.format}", name: "convert", auth: true, handle: convertHandler, query: ["format", "from", "to", "amount", "date"] },
  { method: "GET", path: "/v1/Banks/{bankId}/Calendar{.format}", name: "calendar", auth: true, handle: calendar, query: ["format", "year"] },
  // One pair across banks: /{BASE}/{QUOTE}/Latest, /{BASE}/{QUOTE}/{date}, /{BASE}/{QUOTE}?from&to (read by the handler).
  { method: "GET", path: "/v1/Pairs/{rest...}", name: "pair", auth: true, handle: pairs, query: ["format", "banks", "asOf", "from", "to", "group"] },
  { method: "GET", path: "/v1/banks/{bankId}{.format}", name: "bank", auth: true, handle: bank, query: ["format"] },
  { method: "GET", path: "/v1/banks", name: "banks", auth: true, handle: banksList, query: ["format"] },
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
