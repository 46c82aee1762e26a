// Shared by the benchmark scripts: run a measurement in fresh child processes, take medians.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { fileURLToPath } from "node:url";

export const RUNS = Number(process.env.BENCH_RUNS ?? 5);

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Runs `node script args` RUNS times; each prints one JSON line of figures. */
export function repeat(script, args) {
  const results = [];
  for (let i = 0; i < RUNS; i++) {
    const out = execFileSync(process.execPath, ["--expose-gc", script, ...args], {
      encoding: "utf8",
      maxBuffer: 1 << 26,
    });
    results.push(JSON.parse(out.trim().split("\n").pop()));
  }
  return results;
}

export function machine() {
  const c = cpus();
  return `${c.length} x ${c[0]?.model ?? "cpu"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
}

export const fmt = (n, digits = 0) =>
  n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** The ECB's 30 quoted currencies, as the generated ECB history of bench/import.mjs lists them. */
export const ECB_CURRENCIES = [
  "AUD",
  "BGN",
  "BRL",
  "CAD",
  "CHF",
  "CNY",
  "CZK",
  "DKK",
  "GBP",
  "HKD",
  "HUF",
  "IDR",
  "ILS",
  "INR",
  "ISK",
  "JPY",
  "KRW",
  "MXN",
  "MYR",
  "NOK",
  "NZD",
  "PHP",
  "PLN",
  "RON",
  "SEK",
  "SGD",
  "THB",
  "TRY",
  "USD",
  "ZAR",
];

/** A generated multi-year ECB SDMX-CSV (live column layout): one row per currency and weekday. */
export function generateEcbCsv(years) {
  const lines = [
    "KEY,FREQ,CURRENCY,CURRENCY_DENOM,EXR_TYPE,EXR_SUFFIX,TIME_PERIOD,OBS_VALUE,OBS_STATUS,OBS_CONF,TITLE",
  ];
  const start = Date.UTC(2026 - years, 0, 1);
  let rows = 0;
  for (const [i, cur] of ECB_CURRENCIES.entries()) {
    for (let t = start; t < Date.UTC(2026, 0, 1); t += 86_400_000) {
      const day = new Date(t).getUTCDay();
      if (day === 0 || day === 6) continue;
      const date = new Date(t).toISOString().slice(0, 10);
      const value = (1 + i * 3.7 + ((t / 86_400_000) % 97) / 1000).toFixed(4);
      lines.push(`EXR.D.${cur}.EUR.SP00.A,D,${cur},EUR,SP00,A,${date},${value},A,F,"${cur}/Euro, daily"`);
      rows++;
    }
  }
  return { body: Buffer.from(`${lines.join("\n")}\n`), rows };
}

const BENCHMARKS = fileURLToPath(new URL("../BENCHMARKS.md", import.meta.url));

/**
 * Writes `section` (text that starts with its "## Title" line) into BENCHMARKS.md in place of the section
 * of that title, up to the next "## " or "### " heading (dated subsections stay), or at the end when there
 * is none yet.
 */
export function writeSection(section) {
  const title = section.slice(0, section.indexOf("\n"));
  const doc = existsSync(BENCHMARKS) ? readFileSync(BENCHMARKS, "utf8") : "# Benchmarks\n";
  let at = doc.indexOf(`\n${title}\n`);
  if (at >= 0) at += 1;
  else if (doc.startsWith(`${title}\n`)) at = 0;
  const body = section.endsWith("\n") ? section : `${section}\n`;
  if (at < 0) writeFileSync(BENCHMARKS, `${doc.trimEnd()}\n\n${body}`);
  else {
    // Up to the next section, or the first of its dated subsections ("### "), which stay as written.
    const ends = [doc.indexOf("\n## ", at), doc.indexOf("\n### ", at)].filter((i) => i >= 0);
    const next = ends.length ? Math.min(...ends) : -1;
    writeFileSync(BENCHMARKS, `${doc.slice(0, at)}${body}${next < 0 ? "" : doc.slice(next)}`);
  }
  console.error(`written to ${BENCHMARKS} (${title})`);
}
