import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** The client package (packages/client) is read from its source, as tsc reads it (the `exrates-source` condition). */
const client = (file: string) => fileURLToPath(new URL(`./packages/client/src/${file}`, import.meta.url));

// Two tiers, chosen by what a test file does rather than by a list to keep up to date:
//   fast  starts no server, child process or database cluster (`npm run test:fast`); the few files that
//         mock a module run as "fast-isolated";
//   slow  everything else: real servers on 127.0.0.1, the built CLI, the feed mirror, PostgreSQL, Chromium.
// A file is slow when its source, or a test helper it imports (relative imports under test/, followed
// through), mentions one of the things below: the support modules that start processes or servers, or
// Node's own ways of doing so.
const STARTS_SOMETHING =
  /support\/(server|cli|mirror|postgres|endless)|node:child_process|node:worker_threads|playwright|startServer|\.listen\(|createServer\(|spawn|dist\/src/;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

const RELATIVE_IMPORT = /from "(\.{1,2}\/[^"]+)"/g;

function startsSomething(file: string, seen = new Set<string>()): boolean {
  if (seen.has(file)) return false;
  seen.add(file);
  const source = readFileSync(file, "utf8");
  if (STARTS_SOMETHING.test(source)) return true;
  return [...source.matchAll(RELATIVE_IMPORT)].some(([, spec]) => {
    const target = resolve(dirname(file), spec!.replace(/\.js$/, ".ts"));
    return target.includes("/test/") && target.endsWith(".ts") && startsSomething(target, seen);
  });
}

const all = testFiles("test");
const slow = all.filter((file) => startsSomething(file));
// vi.mock replaces a module for one file only when that file has its own module graph. Both other tiers
// share one graph per worker, so a mocking file runs isolated, and must not start anything.
const mocks = all.filter((file) => /vi\.(do)?[mM]ock\(/.test(readFileSync(file, "utf8")));
const mockingSlow = mocks.filter((file) => slow.includes(file));
if (mockingSlow.length > 0)
  throw new Error(`${mockingSlow.join(", ")}: mocks a module and starts a server or process; split the file`);
const fast = all.filter((file) => !slow.includes(file) && !mocks.includes(file));

// The files that take longest (their durations in a fresh clone's `npm test`, 2026-12-03), for a run with
// no durations from an earlier one (every CI run): they start first in their tier, longest first.
const LONG_POLES = [
  "test/e2e/daemon.test.ts",
  "test/feed/large-answers.test.ts",
  "test/cli/import-publish.test.ts",
  "test/client/matrix.test.ts",
  "test/e2e/operator.test.ts",
  "test/e2e/leader.test.ts",
  "test/e2e/history.test.ts",
  "test/cli/edges.test.ts",
  "test/security/secrets.test.ts",
  "test/client/events.test.ts",
  "test/feed/big-workbooks.test.ts",
  "test/e2e/replicas.test.ts",
  "test/publish/s3.test.ts",
  "test/cli/postgres.test.ts",
  "test/cli/backfill.test.ts",
  "test/mcp/mcp.test.ts",
  "test/cli/anomalies.test.ts",
  "test/publish/all-banks.test.ts",
  "test/feed/xlsx-reader.test.ts",
  "test/conformance.test.ts",
];

/**
 * The tiers in the order they run: the slow tier first (it mostly waits on servers and child processes,
 * which leaves the cores to the type check and the lint running beside it), then the fast tier, which uses
 * the CPU throughout, then the isolated files.
 */
const TIER_ORDER = ["slow", "fast", "fast-isolated"];

/**
 * One tier after the other, longest file first within each. vitest keeps a worker for the next file only
 * when that file is of the same project (tier): a queue that alternates tiers stops a worker after almost
 * every file and starts another, which loads the whole module graph again (a run ordered by duration alone
 * started 49 workers, 287 s of their CPU, instead of a few). A file's duration is the last run's (vitest
 * keeps them under node_modules/.vite); without one, the long poles come first, then the larger files.
 */
class TierByTier extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const estimate = (spec: TestSpecification) => {
      const file = relative(root, spec.moduleId);
      const key = `${spec.project.name}:${file}`;
      const last = this.ctx.cache.getFileTestResults(key);
      if (last) return last.duration;
      const pole = LONG_POLES.indexOf(file);
      if (pole >= 0) return 1_000_000 - pole * 1000;
      return this.ctx.cache.getFileStats(key)?.size ?? 0;
    };
    const tier = (spec: TestSpecification) => TIER_ORDER.indexOf(spec.project.name);
    const weights = new Map(files.map((spec) => [spec, estimate(spec)]));
    return Promise.resolve([...files].sort((a, b) => tier(a) - tier(b) || weights.get(b)! - weights.get(a)!));
  }
}

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@exrates\/client$/, replacement: client("index.ts") },
      { find: /^@exrates\/client\/api-types$/, replacement: client("api-types.ts") },
      { find: /^@exrates\/client\/internal$/, replacement: client("internal.ts") },
    ],
  },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // better-sqlite3 and child processes behave best in forked workers.
    pool: "forks",
    sequence: { sequencer: TierByTier },
    // Most slow tests wait on a child process or a socket, not the CPU: more workers than cores pays.
    maxWorkers: 4,
    projects: [
      {
        extends: true,
        test: {
          name: "fast",
          include: fast,
          // Pure units share one module graph per worker: loading the feed kit, CLDR and the adapter
          // registry once per worker instead of once per file is most of this tier's time.
          isolate: false,
        },
      },
      { extends: true, test: { name: "fast-isolated", include: mocks } },
      {
        extends: true,
        test: {
          name: "slow",
          include: slow,
          // Files share a worker's module graph, as the fast tier's do: each file's servers, stores and child
          // processes are its own and stopped by it, and a test that changes the environment or a timer
          // restores it. Isolating each file cost a run of this tier 863 s of CPU instead of 680 s
          // (`npx vitest run --project slow`, 2026-12-03, two cores).
          isolate: false,
          // The built CLI is what these tests run: build dist/ once per run.
          globalSetup: ["test/support/build.ts"],
          // Four workers on two cores: a test that runs the CLI several times can take more than the
          // fast tier's 30 s while the machine is busy, without hanging.
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
