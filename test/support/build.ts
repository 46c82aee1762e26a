// vitest globalSetup: builds dist/ once per run, for tests that run the real `exrates` binary.
// tsc emits even when a file elsewhere has a type error (the typecheck step reports those).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export default function setup(): void {
  const root = fileURLToPath(new URL("../../", import.meta.url));
  if (process.env.EXRATES_SKIP_BUILD === "1" && existsSync(`${root}/dist/src/cli/main.js`)) return;
  const tsc = spawnSync(process.execPath, [`${root}/node_modules/typescript/bin/tsc`, "-p", "tsconfig.build.json"], {
    cwd: root,
    encoding: "utf8",
  });
  if (!existsSync(`${root}/dist/src/cli/main.js`)) throw new Error(`build failed:\n${tsc.stdout}\n${tsc.stderr}`);
}
