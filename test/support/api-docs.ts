// docs/API.md's samples, read by the tests that compare them with the real answers.
import { readFileSync } from "node:fs";

const API_DOC = readFileSync(new URL("../../docs/API.md", import.meta.url), "utf8");

/** The first fenced JSON block after `marker` in docs/API.md, parsed. */
export function apiSample(marker: string): Record<string, unknown> {
  const at = API_DOC.indexOf(marker);
  if (at < 0) throw new Error(`no "${marker}" in docs/API.md`);
  const block = /```json\n([\s\S]*?)```/.exec(API_DOC.slice(at));
  if (!block) throw new Error(`no JSON sample after "${marker}" in docs/API.md`);
  return JSON.parse(block[1]!) as Record<string, unknown>;
}
