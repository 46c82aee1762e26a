// What `exrates serve` loads at start: the static imports reachable from the server module. The heavy
// packages only some paths need (exceljs and its zip stack, pg, the AWS SDK, the feed parsers) are
// imported where they are used, so a server on SQLite and a local tree never loads them: exceljs and pg
// once cost it 33 MB of resident memory at start (BENCHMARKS.md, Serve).
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { describe, expect, it } from "vitest";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** The packages reachable by static imports (not `import type`, not `await import()`) from `entry`. */
function staticPackages(entry: string): Map<string, string[]> {
  const packages = new Map<string, string[]>();
  const seen = new Map<string, string[]>([[entry, [entry]]]);
  const queue = [entry];
  const statement = /^\s*(?:import|export)\s+(?!type\b)(?:[^;"']*?\sfrom\s+)?["']([^"']+)["']/gm;
  while (queue.length) {
    const file = queue.shift()!;
    const path = seen.get(file)!;
    for (const [, spec] of readFileSync(file, "utf8").matchAll(statement)) {
      if (spec!.startsWith(".")) {
        const target = resolve(dirname(file), spec!.replace(/\.js$/, ".ts"));
        if (existsSync(target) && !seen.has(target)) {
          seen.set(target, [...path, target]);
          queue.push(target);
        }
      } else {
        const name = spec!.startsWith("@") ? spec!.split("/").slice(0, 2).join("/") : spec!.split("/")[0]!;
        if (!packages.has(name))
          packages.set(
            name,
            path.map((p) => p.slice(ROOT.length + 1)),
          );
      }
    }
  }
  return packages;
}

describe("the modules exrates serve loads", () => {
  const packages = staticPackages(resolve(ROOT, "src/cli/commands/serve.ts"));

  it("reaches the server's own packages (the walk follows the imports)", () => {
    for (const name of ["better-sqlite3", "jose", "kysely", "lru-cache"]) expect(packages.has(name)).toBe(true);
  });

  // date-holidays (the calendars' holiday rules, ~30 MB resident with its data) is imported with the
  // routes that read a calendar, at their first request (src/serve/routes.ts); prom-client with the
  // metrics' exposition, at the first scrape (src/serve/metrics-export.ts).
  it.each([
    "exceljs",

    "pg",
    "@aws-sdk/client-s3",
    "cheerio",
    "pdfjs-dist",
    "papaparse",
    "undici",
    "date-holidays",
    "@modelcontextprotocol/sdk",
    "prom-client",
  ])("does not import %s at start", (name) => {
    // The path that would reach it, to say where the import came from.
    expect(packages.get(name)).toBeUndefined();
  });
});
