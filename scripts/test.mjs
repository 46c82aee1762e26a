// `npm test`: the type check and the lint steps (ESLint, Prettier, the import cycles, knip) run one
// after the other beside vitest, instead of before it: most of vitest's time is spent waiting on
// servers and child processes, which leaves room on the cores. vitest's output is shown as it comes;
// each other step's output is kept and shown once it ends, under its name, so that the two do not mix.
// Every step runs to its end; the exit code is 1 when any of them failed. Arguments go to vitest.
import { spawn } from "node:child_process";

const npx = process.platform === "win32" ? "npx.cmd" : "npx";

/** The steps `npm run typecheck` and `npm run lint` take, in their order. */
const CHECKS = [
  ["typecheck", "npm", ["run", "--silent", "typecheck"]],
  ["eslint", npx, ["eslint", "--cache", "--cache-location", "node_modules/.cache/exrates/eslint", "."]],
  ["prettier", npx, ["prettier", "--check", "--cache", "**/*.{ts,mjs,js}"]],
  ["cycles", process.execPath, ["scripts/check-cycles.mjs"]],
  ["knip", npx, ["knip"]],
];

const started = Date.now();
const seconds = (since) => `${Math.round((Date.now() - since) / 1000)} s`;

/** Runs a command; resolves with its exit code and, unless `live`, its output. */
function run(command, args, live) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: live ? "inherit" : ["ignore", "pipe", "pipe"] });
    let output = "";
    if (!live) {
      child.stdout.on("data", (chunk) => (output += chunk));
      child.stderr.on("data", (chunk) => (output += chunk));
    }
    child.on("error", (error) => resolve({ code: 1, output: `${output}${error.message}\n` }));
    child.on("close", (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

async function checks() {
  const results = [];
  for (const [name, command, args] of CHECKS) {
    const begun = Date.now();
    const { code, output } = await run(command, args, false);
    const took = seconds(begun);
    results.push({ name, code, took });
    const heading = `── ${name}: ${code === 0 ? "passed" : `FAILED (exit code ${code})`} in ${took}`;
    process.stdout.write(`\n${heading}\n${output.trim() ? `${output.trimEnd()}\n` : ""}`);
  }
  return results;
}

async function vitest() {
  const begun = Date.now();
  const { code } = await run(npx, ["vitest", "run", ...process.argv.slice(2)], true);
  return [{ name: "vitest", code, took: seconds(begun) }];
}

const results = (await Promise.all([checks(), vitest()])).flat();
process.stdout.write(`\nnpm test, ${seconds(started)}:\n`);
for (const { name, code, took } of results)
  process.stdout.write(`  ${name.padEnd(9)} ${code === 0 ? "passed" : "FAILED"}  ${took}\n`);
process.exitCode = results.every((r) => r.code === 0) ? 0 : 1;
