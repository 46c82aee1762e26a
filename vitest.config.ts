import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // better-sqlite3 and child processes behave best in forked workers.
    pool: "forks",
    globalSetup: ["test/support/build.ts"],
  },
});
