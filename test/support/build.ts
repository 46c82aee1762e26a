// vitest globalSetup: builds dist/ once per run, for tests that run the real `exrates` binary, with the
// build's own steps (scripts/build.mjs, as `npm run build`). tsc emits even when a file elsewhere has a
// type error (the typecheck step reports those), so type errors do not stop it here. tsc's build mode
// takes half a second when nothing changed since `npm ci` built dist/, instead of a whole compile.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export default function setup(): void {
  const root = fileURLToPath(new URL("../../", import.meta.url));
  const built = [`${root}/dist/src/cli/main.js`, `${root}/packages/client/dist/index.js`];
  if (process.env.EXRATES_SKIP_BUILD === "1" && built.every((file) => existsSync(file))) return;
  const build = spawnSync(process.execPath, [`${root}/scripts/build.mjs`, "--despite-type-errors"], {
    cwd: root,
    encoding: "utf8",
  });
  if (build.status !== 0) throw new Error(`the build failed:\n${build.stdout}\n${build.stderr}`);
}
