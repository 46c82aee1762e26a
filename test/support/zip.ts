// Zip archives in tests, through the project's own reader and writer (src/feed/archive.ts,
// src/publish/zip.ts): one zip library for the house.
import { ZipArchive } from "../../src/feed/archive.js";
import { zipStream } from "../../src/publish/zip.js";

/** A deflated zip of the given parts, in the given order, stamped 2026-03-02T00:00:00Z. */
export function zipOf(parts: Record<string, string | Buffer>): Buffer {
  const entries = Object.entries(parts).map(([name, data]) => ({ name, data }));
  return Buffer.concat([...zipStream(entries, new Date("2026-03-02T00:00:00Z"))]);
}

/** An archive opened for reading: its part names, a part's text, a part's stamp (CRC-32 checked on reading). */
export function unzip(bytes: Buffer) {
  const zip = ZipArchive.open("TEST", bytes);
  const part = (name: string) => {
    const found = zip.part(name);
    if (!found) throw new Error(`no part ${name} in the zip`);
    return found;
  };
  return {
    names: zip.parts.map((p) => p.name),
    text: (name: string) => zip.read(part(name)).toString("utf8"),
    /** The MS-DOS time and date of the part's local header, as a UTC instant. */
    date: (name: string) => {
      const at = part(name).localOffset;
      const time = bytes.readUInt16LE(at + 10);
      const day = bytes.readUInt16LE(at + 12);
      return new Date(
        Date.UTC(1980 + (day >> 9), ((day >> 5) & 15) - 1, day & 31, time >> 11, (time >> 5) & 63, (time & 31) * 2),
      );
    },
  };
}
