// cheerio, as this project loads it: adapters and src/ import it from here, never from "cheerio". The
// build replaces this file's output with one bundle of the installed package (scripts/bundle-vendor.mjs):
// the same code, loaded as one module instead of about a hundred. From source, it is the package itself.
export * from "cheerio";
