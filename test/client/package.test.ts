// `@exrates/client` as a user's code gets it: the workspace package's `exports` resolve it to the built
// module (ESM) and its declarations; the module reaches no server code and no package beyond its two
// small ones; a consumer's TypeScript sees rates as strings, not `any`; its packed tarball installs alone
// (no native build, a few hundred kB). And the server package (`npm pack` of the root) ships the built
// code and the docs, never a test, a fixture or a stray file.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { afterAll, describe, expect, it, onTestFinished } from "vitest";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const PACKAGE = join(ROOT, "packages/client");
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";

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

/** Every file under `dir`, with its size. */
function walk(dir: string): Array<{ path: string; size: number }> {
  const out: Array<{ path: string; size: number }> = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(path));
    else if (entry.isFile()) out.push({ path, size: statSync(path).size });
  }
  return out;
}

const USE = `import { ExratesClient, ExratesError, ResponseCache } from "@exrates/client";
const c = new ExratesClient({ baseUrl: "http://127.0.0.1:9", clientId: "a", clientSecret: "bbbbbbbb" });
console.log(typeof ExratesClient, typeof ResponseCache, new ExratesError({ type: "about:blank", title: "T", status: 404, detail: "d" }).message, c.baseUrl);`;

describe("the @exrates/client package", () => {
  const work = mkdtempSync(join(tmpdir(), "exrates-client-"));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("resolves through the package's exports to the built ESM module", () => {
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", USE], { cwd: ROOT, encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.stdout.trim()).toBe("function function 404 T: d http://127.0.0.1:9");
  });

  it("reaches only its own modules and two small packages, which it declares", () => {
    const { files, packages } = reach(join(PACKAGE, "dist/index.js"));
    expect(files.filter((f) => !f.startsWith("packages/client/dist/"))).toEqual([]);
    expect(packages).toEqual(["lossless-json", "lru-cache"]);
    const manifest = JSON.parse(readFileSync(join(PACKAGE, "package.json"), "utf8")) as Record<string, unknown>;
    expect(Object.keys(manifest.dependencies as object).sort()).toEqual(packages);
    // The declarations name their own modules only.
    for (const file of readdirSync(join(PACKAGE, "dist")).filter((f) => f.endsWith(".d.ts")))
      for (const [, spec] of readFileSync(join(PACKAGE, "dist", file), "utf8").matchAll(/from "([^"]+)"/g))
        expect(spec, file).toMatch(/^\.\/[\w-]+\.js$/);
  });

  it("packs its built code alone and installs without a native build, under 10 MB", { timeout: 180_000 }, () => {
    const pack = spawnSync(NPM, ["pack", "--json", "--ignore-scripts", "--pack-destination", work], {
      cwd: PACKAGE,
      encoding: "utf8",
    });
    expect(pack.status, pack.stderr).toBe(0);
    const [packed] = JSON.parse(pack.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const paths = packed!.files.map((f) => f.path);
    expect(paths.filter((p) => !/^(dist\/[\w-]+\.(js|d\.ts)|package\.json|README\.md)$/.test(p))).toEqual([]);
    expect(paths).toContain("dist/index.js");

    const app = join(work, "app");
    mkdirSync(app);
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
    const install = spawnSync(
      NPM,
      ["install", "--no-audit", "--no-fund", "--prefer-offline", join(work, packed!.filename)],
      { cwd: app, encoding: "utf8" },
    );
    expect(install.status, install.stderr).toBe(0);
    const installed = walk(join(app, "node_modules"));
    // No compiled addon, no package that builds one or runs a script at install.
    expect(installed.filter((f) => f.path.endsWith(".node") || f.path.endsWith("binding.gyp"))).toEqual([]);
    for (const f of installed.filter((f) => f.path.endsWith("package.json"))) {
      const scripts = (JSON.parse(readFileSync(f.path, "utf8")) as { scripts?: Record<string, string> }).scripts ?? {};
      expect(
        Object.keys(scripts).filter((s) => /^(pre|post)?install$/.test(s)),
        f.path,
      ).toEqual([]);
    }
    const bytes = installed.reduce((sum, f) => sum + f.size, 0);
    expect(bytes).toBeLessThan(10 * 1024 * 1024);

    const run = spawnSync(process.execPath, ["--input-type=module", "-e", USE], { cwd: app, encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.stdout.trim()).toBe("function function 404 T: d http://127.0.0.1:9");
  });

  it("gives a TypeScript consumer real types: rates are strings", { timeout: 180_000 }, () => {
    // Inside the project, so that the package resolves as an app resolves its own: node_modules, then exports.
    const dir = join(ROOT, ".build-client-check");
    mkdirSync(dir, { recursive: true });
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(
      join(dir, "consumer.ts"),
      `import { ExratesClient, ExratesError, type DailyRates } from "@exrates/client";
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
      join(dir, "tsconfig.json"),
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
    const tsc = spawnSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", dir], {
      cwd: dir,
      encoding: "utf8",
    });
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);
  });
});

describe("the server package", () => {
  it("ships the built code, the docs and the deployment files, never a test, a fixture or a stray file", () => {
    const pack = spawnSync(NPM, ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: ROOT, encoding: "utf8" });
    expect(pack.status, pack.stderr).toBe(0);
    const [packed] = JSON.parse(pack.stdout) as Array<{ files: Array<{ path: string }> }>;
    const paths = packed!.files.map((f) => f.path);
    expect(paths).toContain("dist/src/cli/main.js");
    expect(paths).toContain("package.json");
    // The build's two tables (scripts/build-tables.mjs): without them the installed code works their
    // answers out at every start.
    expect(paths).toContain("dist/adapters/banks.json");
    expect(paths).toContain("dist/src/calendar/closings-table.json");
    const allowed =
      /^(dist\/(src|adapters)\/.+\.js|dist\/adapters\/banks\.json|dist\/src\/calendar\/closings-table\.json|package\.json|README\.md|SECURITY\.md|LICENSE|docs\/[\w-]+\.md|deploy\/.+)$/;
    expect(paths.filter((p) => !allowed.test(p))).toEqual([]);
  });
});
