// cheerio, as this project loads it: adapters and src/ import it from here, never from "cheerio". The
// build replaces this file's output with one bundle of the installed package (scripts/bundle-vendor.mjs):
// the same code, loaded as one module instead of about a hundred. From source, it is the package itself.
// Only what the adapters use: the bundle then leaves out the rest of the package (fromURL, and with it
// undici, which the feed client loads only when it fetches).
export { load } from "cheerio";
export type { CheerioAPI } from "cheerio";
