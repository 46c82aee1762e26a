// Access to the feed recordings (the real recorded answers of the banks' endpoints), when present.
// The project carries none of them; CI has them beside the clone (README.md, "Adding a bank"), and
// EXRATES_SHARED_FEEDS points elsewhere.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const FEEDS_DIR =
  process.env.EXRATES_SHARED_FEEDS ?? fileURLToPath(new URL("../../../shared/feeds/", import.meta.url));
export const sharedFeedsPresent = existsSync(`${FEEDS_DIR}/index.json`);

export interface Recording {
  bank: string;
  file: string;
  url: string;
  method: string;
  status: number;
  contentType: string;
  requestBody?: string;
  note?: string;
}

export function recordings(bank?: string): Recording[] {
  if (!sharedFeedsPresent) return [];
  const all = JSON.parse(readFileSync(`${FEEDS_DIR}/index.json`, "utf8")) as Recording[];
  return bank ? all.filter((r) => r.bank === bank) : all;
}

export function recordingBody(r: Pick<Recording, "file">): Buffer {
  return readFileSync(`${FEEDS_DIR}/${r.file}`);
}

/** The recording of a bank whose file name is given (e.g. "CBR/056.xml"). */
export function recording(file: string): Recording & { body: Buffer } {
  const r = recordings().find((x) => x.file === file);
  if (!r) throw new Error(`no recording ${file} in ${FEEDS_DIR}/index.json`);
  return { ...r, body: recordingBody(r) };
}
