import { readFileSync } from "node:fs";
import { pdfTextRuns, pdfLines } from "/work/main/dist/src/feed/pdf-text.js";
const runs = await pdfTextRuns("BM", readFileSync(process.argv[2]));
for (const r of runs) console.log(JSON.stringify([r.x.toFixed(2), r.y.toFixed(2), r.width.toFixed(1), r.text]));
console.log("----");
for (const l of pdfLines(runs)) console.log(l.y.toFixed(1), "|", l.text);
