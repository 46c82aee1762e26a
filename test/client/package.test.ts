// `exrates/client` as a user's code gets it: the package's `exports` resolve it to the built module
// (ESM) and its declarations; the module reaches no server code and no package beyond its two small
// ones; a consumer's TypeScript sees rates as strings, not `any`.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { afterAll, describe, expect, it } from "vitest";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** Every module file and package reached by static imports (`import type` aside) from `entry`. */
function reach(entry: string): { files: string[]; packages: string[] } {
  const files = new Set([entry]);
  const packages = new Set<string>();
  const queue = [entry];
  const statement = /^\s*(?:import|export)\s+(?!type\b)(?:[^;"']*?\sfrom\s+)?["']([^"']+)["']/gm;
  while (queue.length) {
    const file = queue.shift()!;
    for (const [, spec] of readFileSync(file, "utf8").matchAll(statement)) {
      if (spec!.startsWith(".")) {
        const target = resolve(dirname(file), spec!);
        if (!files.has(target)) {
          files.add(target);
          queue.push(target);
        }
      } else packages.add(spec!.startsWith("@") ? spec!.split("/").slice(0, 2).join("/") : spec!.split("/")[0]!);
    }
  }
  return { files: [...files].map((f) => relative(ROOT, f)).sort(), packages: [...packages].sort() };
}

describe("the exrates/client package entry", () => {
  const work = join(ROOT, ".build-client-check");
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("resolves through package.json exports to the built ESM module", () => {
    const script = `import { ExratesClient, ExratesError, ResponseCache } from "exrates/client";
const c = new ExratesClient({ baseUrl: "http://127.0.0.1:9", clientId: "a", clientSecret: "bbbbbbbb" });
console.log(typeof ExratesClient, typeof ResponseCache, new ExratesError({ type: "about:blank", title: "T", status: 404, detail: "d" }).message, c.baseUrl);`;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.stdout.trim()).toBe("function function 404 T: d http://127.0.0.1:9");
  });

  it("reaches only its own modules, the shared types and two small packages", () => {
    const { files, packages } = reach(join(ROOT, "dist/src/client/index.js"));
    expect(files.filter((f) => !f.startsWith("dist/src/client/"))).toEqual([]);
    expect(packages).toEqual(["lossless-json", "lru-cache"]);
    // The declarations name the shared types and nothing of the server.
    const types = readFileSync(join(ROOT, "dist/src/client/types.d.ts"), "utf8");
    expect([...types.matchAll(/from "([^"]+)"/g)].map((m) => m[1])).toEqual(["../types.js"]);
  });

  it("gives a TypeScript consumer real types: rates are strings", { timeout: 120_000 }, () => {
    mkdirSync(work, { recursive: true });
    writeFileSync(
      join(work, "consumer.ts"),
      `import { ExratesClient, ExratesError, type DailyRates } from "exrates/client";
export async function read(client: ExratesClient): Promise<string> {
  const latest = await client.latest("CNB", { currencies: ["EUR"] });
  const rate: string = latest.rates[0]!.rate;
  // @ts-expect-error a rate is a decimal string, never a number
  const wrong: number = latest.rates[0]!.rate;
  void wrong;
  for await (const day of client.range("CNB", { from: "2025-01-01" })) {
    const d: DailyRates = day;
    void d;
  }
  try {
    await client.banks();
  } catch (e) {
    if (e instanceof ExratesError) return e.type + e.title + e.status + e.detail;
  }
  return rate;
}
`,
    );
    writeFileSync(
      join(work, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          noUncheckedIndexedAccess: true,
          noEmit: true,
          types: ["node"],
          // The declarations tsc wrote are not checked again (that is @types/node whole, a minute here).
          skipLibCheck: true,
        },
        files: ["consumer.ts"],
      }),
    );
    const tsc = spawnSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", work], {
      cwd: work,
      encoding: "utf8",
    });
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);
  });
});
