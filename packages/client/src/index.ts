// `import { ExratesClient } from "@exrates/client"`: the typed client of the exrates API (docs/API.md,
// README "Calling the service"). ESM, Node >= 20, two small pure-JavaScript dependencies.
export { ExratesClient, type ExratesClientOptions } from "./client.js";
export { ExratesError, type ProblemExtensions, type ProblemFields } from "./errors.js";
export { ResponseCache, type ResponseCacheOptions } from "./cache.js";
export type { DebugEvent } from "./http.js";
export type { ProvidedToken, TokenProvider } from "./tokens.js";
export type * from "./types.js";
