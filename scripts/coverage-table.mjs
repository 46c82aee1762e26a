#!/usr/bin/env node
// Rewrites the README's coverage table (the section between its coverage-table markers) from the
// adapters' descriptors; `--check` only says whether it is current (exit 1 when not).
// Runs the built code: `npm run build && node scripts/coverage-table.mjs [--check]`.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const dist = (path) => import(pathToFileURL(`${ROOT}dist/src/${path}`).href);

const { loadAdapters } = await dist("feed/registry.js");
const { coverageTable, withCoverageTable } = await dist("feed/coverage-table.js");

const readmePath = `${ROOT}README.md`;
const readme = readFileSync(readmePath, "utf8");
const banks = [...(await loadAdapters()).values()].map((adapter) => adapter.bank);
const next = withCoverageTable(readme, coverageTable(banks));
if (process.argv.includes("--check")) {
  if (next !== readme) {
    console.error("README.md: the coverage table is not current; run node scripts/coverage-table.mjs");
    process.exit(1);
  }
  console.log(`README.md: the coverage table lists all ${banks.length} sources`);
} else if (next !== readme) {
  writeFileSync(readmePath, next);
  console.log(`README.md: coverage table rewritten (${banks.length} sources)`);
} else {
  console.log(`README.md: coverage table already current (${banks.length} sources)`);
}
