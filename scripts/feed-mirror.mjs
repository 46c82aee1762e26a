#!/usr/bin/env node
// Runs the feed mirror tool that comes with the feed recordings (checked out beside this repository,
// see README.md; --shared points elsewhere) over those recordings, skipping the index entries whose
// `url` is not a URL (a few recordings saved from other projects carry a placeholder the tool cannot
// parse, and it stops on them). Same options as the tool:
//   node scripts/feed-mirror.mjs [--port 9400] [--shared <recordings checkout>]
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const shared = resolve(option("--shared", fileURLToPath(new URL("../../shared", import.meta.url))));
const feeds = join(shared, "feeds");
const dir = mkdtempSync(join(tmpdir(), "exrates-feeds-"));
const index = JSON.parse(readFileSync(join(feeds, "index.json"), "utf8"));
const usable = index.filter((e) => /^https?:\/\//.test(e.url));
if (usable.length < index.length) console.error(`skipping ${index.length - usable.length} index entries without a URL`);
writeFileSync(join(dir, "index.json"), JSON.stringify(usable));
for (const name of readdirSync(feeds)) if (name !== "index.json") symlinkSync(join(feeds, name), join(dir, name));
const child = spawn(
  process.execPath,
  [join(shared, "tools", "feed-mirror.mjs"), "--port", option("--port", "9400"), "--feeds", dir],
  { stdio: "inherit" },
);
const stop = (signal) => child.kill(signal);
process.on("SIGINT", stop).on("SIGTERM", stop);
child.on("exit", (code) => {
  rmSync(dir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
