// A step of the build (scripts/build.mjs, run by `npm run build` and by the tests' build): two tables the
// built code would otherwise work out in every process that starts, worked out once here by the built
// code itself and written beside it. Each is only a faster way to the same answers: without it (run from
// source, or a table missing), the code works them out as before.
// - dist/adapters/banks.json: every adapter's descriptor (src/feed/registry.ts's loadBanks), so that
//   publishing and listing banks need not load a hundred adapters and their parsers (about a second).
// - dist/src/calendar/closings-table.json: the closings of every bank's country, and those of a bank's own
//   rules (the ECB's), for the build's year, the year before and the year after
//   (src/calendar/closings-table.ts), about a second more; a process that finds its closings there does
//   not load date-holidays at all.
// Skipped when both are newer than every built file; each is written beside and renamed over, so a
// crash leaves the old table or none.
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const dist = fileURLToPath(new URL("../dist/", import.meta.url));
const bankList = join(dist, "adapters/banks.json");
const closingsTable = join(dist, "src/calendar/closings-table.json");

const year = new Date().getUTCFullYear();
const years = [year - 1, year, year + 1];

/** Every built module under `dir`. */
function builtFiles(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".js"))
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name));
}

function upToDate() {
  if (!existsSync(bankList) || !existsSync(closingsTable)) return false;
  if (JSON.stringify(JSON.parse(readFileSync(closingsTable, "utf8")).years) !== JSON.stringify(years)) return false;
  const written = Math.min(statSync(bankList).mtimeMs, statSync(closingsTable).mtimeMs);
  return [...builtFiles(join(dist, "adapters")), ...builtFiles(join(dist, "src"))].every(
    (file) => statSync(file).mtimeMs <= written,
  );
}

function write(path, value) {
  writeFileSync(`${path}.tmp`, JSON.stringify(value));
  renameSync(`${path}.tmp`, path);
}

if (!upToDate()) {
  const load = (path) => import(pathToFileURL(join(dist, path)).href);
  const { loadAdapters } = await load("src/feed/registry.js");
  const { holidayCountry, liveHolidaysOf, liveOwnClosingsOf } = await load("src/calendar/calendar.js");
  const { ownRulesKey } = await load("src/calendar/closings-table.js");
  const adapters = [...(await loadAdapters()).values()];
  write(
    bankList,
    adapters.map((adapter) => adapter.bank),
  );
  const countries = new Set(adapters.map((adapter) => holidayCountry(adapter.bank)).filter(Boolean));
  const table = { years, countries: {}, rules: {} };
  const byYear = (closingsOf) => Object.fromEntries(years.map((y) => [String(y), Object.fromEntries(closingsOf(y))]));
  for (const country of [...countries].sort()) table.countries[country] = byYear((y) => liveHolidaysOf(country, y));
  for (const { bank } of adapters) {
    const rules = bank.calendar?.closings ?? [];
    if (rules.length > 0) table.rules[ownRulesKey(rules)] = byYear((y) => liveOwnClosingsOf(rules, y));
  }
  write(closingsTable, table);
}
