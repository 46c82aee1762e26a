// The build, one list of steps for `npm run build` and for the tests' build (test/support/build.ts):
// the client package, then the server (tsc's build mode: when no source is newer than its record,
// dist/.tsbuildinfo, half a second instead of a whole compile), then the bundled packages
// (scripts/bundle-vendor.mjs) and the build's tables (scripts/build-tables.mjs).
//   node scripts/build.mjs                        fails at the first step that fails
//   node scripts/build.mjs --despite-type-errors  the tests' form: tsc emits even when a file has a type
//       error, which the type check reports, so a compile's exit code is not a failure here; what it
//       printed is shown only when the built entry points are missing
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const despiteTypeErrors = process.argv.includes("--despite-type-errors");
const tsc = `${root}node_modules/typescript/bin/tsc`;

const COMPILES = [
  { name: "the client package", args: [tsc, "-b", "tsconfig.json"], cwd: `${root}packages/client` },
  { name: "the server", args: [tsc, "-b", "tsconfig.build.json"], cwd: root },
];
const STEPS = [
  { name: "the bundled packages", args: [`${root}scripts/bundle-vendor.mjs`], cwd: root },
  { name: "the build's tables", args: [`${root}scripts/build-tables.mjs`], cwd: root },
];
const BUILT = [`${root}dist/src/cli/main.js`, `${root}packages/client/dist/index.js`];

function fail(message) {
  console.error(`build: ${message}`);
  process.exit(1);
}

const printed = [];
for (const { name, args, cwd } of COMPILES) {
  const run = spawnSync(process.execPath, args, {
    cwd,
    stdio: despiteTypeErrors ? "pipe" : "inherit",
    encoding: "utf8",
  });
  if (despiteTypeErrors) printed.push(run.stdout, run.stderr);
  else if (run.status !== 0) fail(`${name} failed (exit code ${run.status ?? run.signal})`);
}
const missing = BUILT.filter((file) => !existsSync(file));
if (missing.length) fail(`${missing.join(", ")} not built:\n${printed.join("")}`);
for (const { name, args, cwd } of STEPS) {
  const run = spawnSync(process.execPath, args, { cwd, stdio: "inherit" });
  if (run.status !== 0) fail(`${name} failed (exit code ${run.status ?? run.signal})`);
}
