// The build's last step (`npm run build`, and the tests' build in test/support/build.ts): replaces
// tsc's output for src/store/kysely.ts, a re-export of the "kysely" package, with one bundle of the
// installed kysely. The package is 262 ES modules; one module loads in a tenth of the time, and every
// CLI command and server loads it at start-up. The code is the package's own, unchanged: only how it is
// loaded differs. Written beside and renamed over, so a crash leaves tsc's re-export or the bundle.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { build } from "rolldown";

const root = fileURLToPath(new URL("../", import.meta.url));
const target = join(root, "dist/src/store/kysely.js");
// The package's ES entry (dist/esm/index.js), as this project's imports resolve it.
const entry = fileURLToPath(import.meta.resolve("kysely"));
const packageDir = join(dirname(entry), "../..");
const { version } = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
const marker = `// kysely ${version}, bundled by scripts/bundle-kysely.mjs\n`;

const current = readFileSync(target, "utf8");
if (!current.startsWith(marker)) {
  const { output } = await build({
    input: entry,
    platform: "node",
    write: false,
    logLevel: "warn",
    output: { format: "esm" },
  });
  if (output.length !== 1 || output[0].type !== "chunk") throw new Error("kysely did not bundle to one module");
  writeFileSync(`${target}.tmp`, marker + output[0].code);
  renameSync(`${target}.tmp`, target);
}
