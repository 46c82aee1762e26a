// A step of the build (scripts/build.mjs, run by `npm run build` and by the tests' build): a few packages
// that ship as hundreds of small ES modules are loaded as one module each. Each is imported through one
// re-export module of ours (the list: scripts/vendored.mjs); this replaces tsc's output for that module with a
// bundle of the installed package. kysely alone is 262 modules: loading them was most of every CLI
// command's start-up. The code is the package's own, unchanged; only how it is loaded differs. Each file
// is written beside and renamed over, so a crash leaves tsc's re-export (correct, only slower) or the bundle.
import { createHash } from "node:crypto";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { build } from "rolldown";

import { VENDORED } from "./vendored.mjs";

const root = fileURLToPath(new URL("../", import.meta.url));

/** The package's version: its package.json, found above its ES entry. */
function versionOf(entry, name) {
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
      if (pkg.name === name) return pkg.version;
    } catch {
      // no package.json at this level
    }
  }
  throw new Error(`no package.json of ${name} above ${entry}`);
}

async function bundle({ name, module, external }) {
  // The package's ES entry, as this project's imports resolve it.
  const entry = fileURLToPath(import.meta.resolve(name));
  const target = join(root, "dist", `${module}.js`);
  // The bundle's entry is our module's own re-export, so that the bundle holds what we import of the
  // package and no more. The marker names the package's version and our module's text: a change of
  // either bundles again.
  const source = readFileSync(join(root, `${module}.ts`), "utf8");
  const digest = createHash("sha256").update(source).digest("hex").slice(0, 12);
  const marker = `// ${name} ${versionOf(entry, name)}, bundled by scripts/bundle-vendor.mjs (${module}.ts ${digest})\n`;
  if (readFileSync(target, "utf8").startsWith(marker)) return;
  const input = `${target}.entry.ts`;
  writeFileSync(input, source);
  const { output } = await build({
    input,
    platform: "node",
    external,
    // An external import that nothing we re-export uses is dropped (cheerio's undici, used by fromURL alone).
    treeshake: { moduleSideEffects: (_id, isExternal) => !isExternal },
    write: false,
    logLevel: "warn",
    output: { format: "esm" },
  }).finally(() => rmSync(input));
  if (output.length !== 1 || output[0].type !== "chunk") throw new Error(`${name} did not bundle to one module`);
  writeFileSync(`${target}.tmp`, marker + output[0].code);
  renameSync(`${target}.tmp`, target);
}

for (const vendored of VENDORED) await bundle(vendored);
