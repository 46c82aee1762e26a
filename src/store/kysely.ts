// Kysely, as this project loads it: every module imports it from here, never from "kysely".
// The package ships as 262 ES modules, and loading them was most of every CLI command's start-up
// (about 300 of 450 ms on a quiet two-core machine). The build replaces this file's output with one
// bundle of the installed kysely (scripts/bundle-vendor.mjs): the same code, loaded as one module.
// Run from source (the tests, the type check), it is the package itself.
export * from "kysely";
