// The import-cycle check of `npm run lint`: no module of src/ may import itself through others (type-only
// imports count too). madge reads src/ with the project's TypeScript config, so the ESM `.js`
// specifiers resolve to the `.ts` files; an import it could not resolve would hide a cycle, so one is an
// error as well. Exit code 1 on either, with the cycles or the imports named.
import { fileURLToPath } from "node:url";

import madge from "madge";

const root = fileURLToPath(new URL("..", import.meta.url));
const result = await madge(`${root}src`, {
  baseDir: `${root}src`,
  fileExtensions: ["ts"],
  tsConfig: `${root}tsconfig.json`,
});
const modules = Object.keys(result.obj()).length;
const cycles = result.circular();
// The client package (packages/client, `@exrates/client`) imports nothing of src/: no cycle can pass through it.
const skipped = result.warnings().skipped.filter((spec) => !/^@exrates\/client(\/|$)/.test(spec));
for (const cycle of cycles) console.error(`import cycle: ${[...cycle, cycle[0]].join(" -> ")}`);
for (const file of skipped) console.error(`import not resolved (a cycle through it would go unseen): ${file}`);
if (cycles.length || skipped.length) {
  console.error(`${cycles.length} import cycle(s), ${skipped.length} unresolved import(s) in src/`);
  process.exitCode = 1;
} else {
  console.log(`no import cycles in src/ (${modules} modules)`);
}
