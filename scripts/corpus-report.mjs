#!/usr/bin/env node
// What the pipeline keeps of every recorded answer: every adapter's parse over every recording of its
// bank (index.json of a recordings folder, as the conformance test reads them), then the ingest gate.
// Prints per bank and per recording the records kept and the rows held by kind; `--json` prints the
// same as JSON for diffing two runs, `--figures` adds every kept figure, and `--compare OLD.json` (a
// `--json --figures` run of another commit) lists the figures lost, changed or gained and the held rows
// before and after, per bank.
//
// Runs the built code: `npm run build && node scripts/corpus-report.mjs [--feeds DIR] [--json] ...`.
// DIR defaults to EXRATES_SHARED_FEEDS, else the feeds folder beside the clone's parent.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const dist = (path) => import(pathToFileURL(`${ROOT}dist/src/${path}`).href);

const { values: opts } = parseArgs({
  options: {
    feeds: { type: "string" },
    json: { type: "boolean", default: false },
    figures: { type: "boolean", default: false },
    compare: { type: "string" },
    bank: { type: "string", multiple: true },
  },
});

const FEEDS = opts.feeds ?? process.env.EXRATES_SHARED_FEEDS ?? fileURLToPath(new URL("../../shared/feeds/", ROOT));
if (!existsSync(`${FEEDS}/index.json`)) {
  console.error(`corpus-report: no index.json in ${FEEDS} (give --feeds DIR)`);
  process.exit(1);
}
if (!existsSync(`${ROOT}dist/src/feed/registry.js`)) {
  console.error("corpus-report: dist/ is not built (npm run build)");
  process.exit(1);
}

const { loadAdapters } = await dist("feed/registry.js");
const { baseCurrencyOf } = await dist("feed/adapter.js");
const { asParsedAnswer } = await dist("feed/rows.js");
const { gateRecords } = await dist("ingest/validate.js");
const { isNavigation } = await dist("ingest/ingest.js");

const figureKey = (r) => `${r.effectiveDate} ${r.currency}`;
const figureText = (r) =>
  `${r.rate}${r.unitMultiplier ? ` x10^${r.unitMultiplier}` : ""}${r.derivation ? ` (${r.derivation})` : ""}`;

/** One recording through parse and the gate: what was kept and what was held, by kind and reason. */
async function readRecording(adapter, r) {
  const body = readFileSync(`${FEEDS}/${r.file}`);
  const out = { bank: r.bank, file: r.file, kept: 0, held: {}, heldRows: [] };
  try {
    const context = { url: r.url, contentType: r.contentType, method: r.method, requestBody: r.requestBody };
    const answer = asParsedAnswer(await adapter.parse(body, context));
    const gated = gateRecords(baseCurrencyOf(adapter.bank), answer.records, answer.held);
    out.kept = gated.records.length;
    for (const h of gated.held) {
      out.held[h.kind] = (out.held[h.kind] ?? 0) + 1;
      out.heldRows.push({ kind: h.kind, currency: h.currency, reason: h.reason });
    }
    if (opts.figures || opts.compare)
      out.figures = Object.fromEntries(gated.records.map((x) => [figureKey(x), figureText(x)]));
  } catch (error) {
    out.refused = error instanceof Error ? error.message : String(error);
  }
  return out;
}

async function report() {
  const adapters = await loadAdapters();
  const index = JSON.parse(readFileSync(`${FEEDS}/index.json`, "utf8"));
  const wanted = opts.bank ? new Set(opts.bank.map((b) => b.toUpperCase())) : undefined;
  const results = [];
  for (const r of index) {
    const adapter = adapters.get(r.bank);
    if (!adapter || (wanted && !wanted.has(r.bank))) continue;
    const answer = {
      url: r.url,
      method: r.method ?? "GET",
      contentType: r.contentType,
      body: readFileSync(`${FEEDS}/${r.file}`),
    };
    if (isNavigation(adapter, answer)) continue;
    results.push(await readRecording(adapter, r));
  }
  return results;
}

const sum = (counts) => Object.values(counts).reduce((a, b) => a + b, 0);
const kinds = (counts) =>
  Object.entries(counts)
    .sort()
    .map(([k, n]) => `${k} ${n}`)
    .join(", ");

/** Per bank: recordings, kept, held by kind, refused answers. */
function byBank(results) {
  const banks = new Map();
  for (const x of results) {
    const b = banks.get(x.bank) ?? { recordings: 0, kept: 0, held: {}, refused: 0 };
    b.recordings++;
    b.kept += x.kept;
    if (x.refused) b.refused++;
    for (const [k, n] of Object.entries(x.held)) b.held[k] = (b.held[k] ?? 0) + n;
    banks.set(x.bank, b);
  }
  return banks;
}

function printText(results) {
  const banks = byBank(results);
  let kept = 0;
  let held = 0;
  console.log("bank      recordings       kept   held  (by kind)");
  for (const [bank, b] of banks) {
    kept += b.kept;
    held += sum(b.held);
    const refused = b.refused ? `; ${b.refused} refused` : "";
    console.log(
      `${bank.padEnd(8)} ${String(b.recordings).padStart(11)} ${String(b.kept).padStart(10)} ${String(sum(b.held)).padStart(6)}  ${kinds(b.held)}${refused}`,
    );
  }
  console.log(
    `total    ${String(results.length).padStart(11)} ${String(kept).padStart(10)} ${String(held).padStart(6)}`,
  );
  console.log("\nrecording                     kept   held  (by kind)");
  for (const x of results) {
    const tail = x.refused ? `refused: ${x.refused}` : kinds(x.held);
    console.log(`${x.file.padEnd(26)} ${String(x.kept).padStart(7)} ${String(sum(x.held)).padStart(6)}  ${tail}`);
  }
}

/** Figures lost, changed or gained against an older run, and held rows per bank before and after. */
function printComparison(before, after) {
  const old = new Map(before.map((x) => [x.file, x]));
  let worse = 0;
  console.log("figures that differ (recording, date and currency: before -> after)");
  for (const x of after) {
    const was = old.get(x.file);
    if (!was?.figures || !x.figures) continue;
    for (const [key, text] of Object.entries(was.figures)) {
      const now = x.figures[key];
      if (now === undefined) {
        worse++;
        console.log(`  LOST     ${x.file} ${key}: ${text}`);
      } else if (now !== text) console.log(`  CHANGED  ${x.file} ${key}: ${text} -> ${now}`);
    }
    const gained = Object.keys(x.figures).filter((k) => !(k in was.figures));
    if (gained.length) {
      const shown = gained.slice(0, 3).map((k) => `${k} ${x.figures[k]}`);
      console.log(`  GAINED   ${x.file}: ${gained.length} (${shown.join("; ")}${gained.length > 3 ? "; ..." : ""})`);
    }
    if (x.kept < was.kept) worse++;
  }
  const b0 = byBank(before);
  const b1 = byBank(after);
  console.log("\nheld rows per bank, before -> after (kept before -> after)");
  for (const [bank, b] of b1) {
    const a = b0.get(bank) ?? { kept: 0, held: {} };
    if (sum(a.held) === 0 && sum(b.held) === 0 && a.kept === b.kept) continue;
    console.log(
      `  ${bank.padEnd(8)} held ${sum(a.held)} -> ${sum(b.held)}  (${kinds(a.held) || "none"} -> ${kinds(b.held) || "none"}); kept ${a.kept} -> ${b.kept}`,
    );
  }
  console.log(worse ? `\n${worse} recording figures lost` : "\nno figure lost");
  return worse;
}

const results = await report();
if (opts.compare) {
  const before = JSON.parse(readFileSync(opts.compare, "utf8"));
  process.exitCode = printComparison(before, results) ? 1 : 0;
} else if (opts.json) {
  process.stdout.write(`${JSON.stringify(results, null, 1)}\n`);
} else printText(results);
