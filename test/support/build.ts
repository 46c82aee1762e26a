// vitest globalSetup: builds dist/ once per run (the client package first, as `npm run build` does), for
// tests that run the real `exrates` binary. tsc emits even when a file elsewhere has a type error (the
// typecheck step reports those). The build is tsc's build mode, as `npm run build`'s: when no source is
// newer than the last build's record (dist/.tsbuildinfo, which `npm ci` leaves behind), it takes half a
// second instead of a whole compile (about 40 s of a two-core machine, on every test run).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export default function setup(): void {
  const root = fileURLToPath(new URL("../../", import.meta.url));
  const built = [`${root}/dist/src/cli/main.js`, `${root}/packages/client/dist/index.js`];
  if (process.env.EXRATES_SKIP_BUILD === "1" && built.every((file) => existsSync(file))) return;
  const tsc = (cwd: string, config: string) =>
    spawnSync(process.execPath, [`${root}/node_modules/typescript/bin/tsc`, "-b", config], { cwd, encoding: "utf8" });
  const client = tsc(`${root}/packages/client`, "tsconfig.json");
  const server = tsc(root, "tsconfig.build.json");
  // As `npm run build`: the re-exports of kysely, cheerio and date-holidays become one bundle of each
  // package (scripts/bundle-vendor.mjs).
  const bundle = spawnSync(process.execPath, [`${root}/scripts/bundle-vendor.mjs`], { cwd: root, encoding: "utf8" });
  if (bundle.status !== 0) throw new Error(`bundling the vendored packages failed:\n${bundle.stderr}`);
  // As `npm run build`: the bank list and the closings table (scripts/build-tables.mjs).
  const tables = spawnSync(process.execPath, [`${root}/scripts/build-tables.mjs`], { cwd: root, encoding: "utf8" });
  if (tables.status !== 0) throw new Error(`the build's tables failed:\n${tables.stderr}`);
  const missing = built.filter((file) => !existsSync(file));
  if (missing.length)
    throw new Error(`build failed (${missing.join(", ")}):\n${client.stdout}\n${server.stdout}\n${server.stderr}`);
}
