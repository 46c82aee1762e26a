import { fileURLToPath } from "node:url";

import { defineConfig } from "vitest/config";

/** The client package (packages/client) is read from its source, as tsc reads it (the `exrates-source` condition). */
const client = (file: string) => fileURLToPath(new URL(`./packages/client/src/${file}`, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@exrates\/client$/, replacement: client("index.ts") },
      { find: /^@exrates\/client\/api-types$/, replacement: client("api-types.ts") },
      { find: /^@exrates\/client\/internal$/, replacement: client("internal.ts") },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // better-sqlite3 and child processes behave best in forked workers.
    pool: "forks",
    globalSetup: ["test/support/build.ts"],
  },
});
