// `npm run bench`: builds, runs every benchmark RUNS times (median), prints the figures and writes
// them to bench/results.json. BENCHMARKS.md records them with the command and the machine.
//   BENCH_RUNS=5 npm run bench [-- import publish store-pg serve latest-s3 hot-keys workbooks soak]
import { execFileSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { postgresBinDir } from "../scripts/test-postgres.mjs";
import { fmt, machine, median, repeat, RUNS } from "./lib.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const root = fileURLToPath(new URL("..", import.meta.url));
const only = process.argv.slice(2);
const want = (name) => only.length === 0 || only.includes(name);

execFileSync("npm", ["run", "build"], { cwd: root, stdio: "ignore" });
const results = { machine: machine(), runs: RUNS, date: new Date().toISOString() };
console.log(`machine: ${results.machine}; median of ${RUNS} runs`);

if (want("import")) {
  const pipeline = repeat(`${here}/import.mjs`, ["pipeline", "26"]);
  const baseline = repeat(`${here}/import.mjs`, ["baseline", "26"]);
  const rps = median(pipeline.map((r) => r.rowsPerSecond));
  const base = median(baseline.map((r) => r.rowsPerSecond));
  results.import = {
    rows: pipeline[0].rows,
    rowsPerSecond: rps,
    parseMs: median(pipeline.map((r) => r.parseMs)),
    storeMs: median(pipeline.map((r) => r.storeMs)),
    maxRssMB: median(pipeline.map((r) => r.maxRssMB)),
    baselineRowsPerSecond: base,
    ratio: rps / base,
  };
  console.log(
    `import: ${fmt(rps)} rows/s (${results.import.rows} rows, parse ${fmt(results.import.parseMs)} ms + store ${fmt(results.import.storeMs)} ms, peak RSS ${fmt(results.import.maxRssMB)} MB); bare INSERT baseline ${fmt(base)} rows/s; ratio ${fmt(rps / base, 2)}`,
  );
}

if (want("publish")) {
  const full = repeat(`${here}/publish.mjs`, ["full"]);
  const one = repeat(`${here}/publish.mjs`, ["one"]);
  const baseline = repeat(`${here}/publish.mjs`, ["baseline"]);
  results.publish = {
    banks: full[0].banks,
    fullMs: median(full.map((r) => r.ms)),
    msPerBank: median(full.map((r) => r.msPerBank)),
    oneChangedMs: median(one.map((r) => r.ms)),
    maxRssMB: median(full.map((r) => r.maxRssMB)),
    baselineMs: median(baseline.map((r) => r.ms)),
  };
  results.publish.ratio = results.publish.fullMs / results.publish.baselineMs;
  const p = results.publish;
  console.log(
    `publish: ${p.banks} banks x 4 formats in ${fmt(p.fullMs)} ms (${fmt(p.msPerBank, 1)} ms/bank), one changed bank ${fmt(p.oneChangedMs)} ms, peak RSS ${fmt(p.maxRssMB)} MB; JSON-only baseline ${fmt(p.baselineMs)} ms; ratio ${fmt(p.ratio, 1)}x`,
  );
}

// The store on PostgreSQL vs SQLite (needs Debian's postgresql binaries; skipped with a note without).
if (want("store-pg")) {
  if (postgresBinDir() === undefined)
    console.log("store-pg: skipped (no PostgreSQL server binaries; apt-get install postgresql)");
  else {
    const run = (what, engine) => repeat(`${here}/store-pg.mjs`, [what, engine, "26"]);
    const figures = {};
    for (const what of ["import", "publish"]) {
      for (const engine of ["sqlite", "postgres"]) {
        const r = run(what, engine);
        figures[`${what}-${engine}`] = {
          ms: median(r.map((x) => x.ms)),
          ...(what === "import"
            ? {
                rows: r[0].rows,
                rowsPerSecond: median(r.map((x) => x.rowsPerSecond)),
                storeMs: median(r.map((x) => x.storeMs)),
              }
            : { banks: r[0].banks, msPerBank: median(r.map((x) => x.msPerBank)) }),
        };
      }
    }
    results.storePg = figures;
    const i = (e) => figures[`import-${e}`];
    const p = (e) => figures[`publish-${e}`];
    console.log(
      `store-pg: import ${fmt(i("postgres").rowsPerSecond)} rows/s on PostgreSQL vs ${fmt(i("sqlite").rowsPerSecond)} on SQLite (${i("sqlite").rows} rows; store ${fmt(i("postgres").storeMs)} vs ${fmt(i("sqlite").storeMs)} ms); publish ${fmt(p("postgres").msPerBank, 1)} vs ${fmt(p("sqlite").msPerBank, 1)} ms/bank (${p("sqlite").banks} banks)`,
    );
  }
}

if (want("serve") && existsSync(`${here}/serve.mjs`)) {
  execFileSync(process.execPath, [`${here}/serve.mjs`], { stdio: "inherit" });
}

// Latest req/s with the tree loaded from a bucket vs from disk (bench/latest-s3.mjs).
if (want("latest-s3")) {
  execFileSync(process.execPath, [`${here}/latest-s3.mjs`], { stdio: "inherit" });
}

if (want("hot-keys")) {
  execFileSync(process.execPath, [`${here}/hot-keys.mjs`], { stdio: "inherit" });
}

// Workbooks parsed under a 512 MB heap: time and peak RSS per MB of answer (bench/workbooks.mjs);
// baseline: exceljs loading the history workbook whole (the reader the streaming one replaced).
if (want("workbooks")) {
  results.workbooks = {};
  const cases = { "huge-range": [], "huge-range-50MB": ["18"], history: [], "daily-xls": [] };
  for (const [name, extra] of Object.entries(cases)) {
    const kind = name.replace(/-50MB$/, "");
    const runs = repeat(`${here}/workbooks.mjs`, ["bench", kind, ...extra]);
    const figures = {
      answerMB: runs[0].answerMB,
      records: runs[0].records,
      ms: median(runs.map((r) => r.ms)),
      msPerMB: median(runs.map((r) => r.msPerMB)),
      maxRssMB: median(runs.map((r) => r.maxRssMB)),
      rssPerMB: median(runs.map((r) => r.rssPerMB)),
    };
    results.workbooks[name] = figures;
    console.log(
      `workbooks ${name}: ${fmt(figures.answerMB, 1)} MB, ${fmt(figures.records)} figures, ${fmt(figures.ms)} ms (${fmt(figures.msPerMB)} ms/MB), peak RSS ${fmt(figures.maxRssMB)} MB (${fmt(figures.rssPerMB, 1)} MB per MB)`,
    );
  }
  const base = repeat(`${here}/workbooks.mjs`, ["baseline", "history"]);
  results.workbooks.exceljsHistory = {
    ms: median(base.map((r) => r.ms)),
    maxRssMB: median(base.map((r) => r.maxRssMB)),
  };
  console.log(
    `workbooks baseline (exceljs loads the history workbook, no adapter): ${fmt(results.workbooks.exceljsHistory.ms)} ms, peak RSS ${fmt(results.workbooks.exceljsHistory.maxRssMB)} MB`,
  );
}

// The soak takes 3.5 minutes: only when named (`npm run bench -- soak`).
if (only.includes("soak")) {
  execFileSync(process.execPath, [`${here}/soak.mjs`], { stdio: "inherit" });
}

writeFileSync(`${here}/results.json`, `${JSON.stringify(results, null, 2)}\n`);
