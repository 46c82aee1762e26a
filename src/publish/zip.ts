// A ZIP written as it goes (deflate, no zip64), for the history XLSX of a long range: an entry's data
// may be an iterable of text pieces, read once and deflated in blocks of BLOCK characters, so that
// neither the entry nor the archive is ever held whole. Each block is deflated on its own and ends on
// a sync flush (byte-aligned, not final); a final empty block closes the entry. Raw deflate streams
// chained that way are one valid stream (a fresh compressor refers to nothing before its block). The
// sizes and CRC of a streamed entry follow its data (a data descriptor, general-purpose flag bit 3) and
// are repeated in the central directory, which readers use. The same entries give the same bytes.
import { constants, crc32, deflateRawSync } from "node:zlib";

export interface StreamedZipEntry {
  name: string;
  /** The whole data, or its pieces (iterated once, when the entry's turn comes). */
  data: string | Buffer | Iterable<string>;
}

/** MS-DOS time and date of a UTC instant (two-second resolution, years 1980-2107). */
function dosTime(stamp: Date): { time: number; date: number } {
  const year = Math.min(2107, Math.max(1980, stamp.getUTCFullYear()));
  return {
    time: (stamp.getUTCHours() << 11) | (stamp.getUTCMinutes() << 5) | Math.floor(stamp.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((stamp.getUTCMonth() + 1) << 5) | stamp.getUTCDate(),
  };
}

/** Text deflated per block: the compressor's window is 32 KB, so larger blocks lose next to nothing. */
const BLOCK = 256 * 1024;
const SYNC = { level: 6, finishFlush: constants.Z_SYNC_FLUSH };
/** A final, empty fixed-Huffman block: what ends the chain of blocks. */
const FINAL_BLOCK = deflateRawSync(Buffer.alloc(0));

/** The archive's parts, written entry by entry: the local header, deflated blocks, the descriptor, the directory. */
class ZipWriter {
  private readonly time: number;
  private readonly date: number;
  private readonly centrals: Buffer[] = [];
  private offset = 0;
  private count = 0;
  private name = Buffer.alloc(0);
  private crc = 0;
  private raw = 0;
  private packed = 0;

  constructor(stamp: Date) {
    ({ time: this.time, date: this.date } = dosTime(stamp));
  }

  /** An entry's local header. */
  start(entryName: string): Buffer {
    this.name = Buffer.from(entryName, "utf8");
    this.crc = 0;
    this.raw = 0;
    this.packed = 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0808, 6); // UTF-8 names, sizes and CRC in a data descriptor
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(this.time, 10);
    local.writeUInt16LE(this.date, 12);
    local.writeUInt16LE(this.name.length, 26);
    return Buffer.concat([local, this.name]);
  }

  /** One block of the entry's data, deflated. */
  deflate(text: string | Buffer): Buffer {
    const bytes = typeof text === "string" ? Buffer.from(text, "utf8") : text;
    this.crc = crc32(bytes, this.crc);
    this.raw += bytes.length;
    const out = deflateRawSync(bytes, SYNC);
    this.packed += out.length;
    return out;
  }

  /** The final block and the data descriptor; the entry's central directory record is kept. */
  end(): Buffer {
    this.packed += FINAL_BLOCK.length;
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(this.crc, 4);
    descriptor.writeUInt32LE(this.packed, 8);
    descriptor.writeUInt32LE(this.raw, 12);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // made by
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0808, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(this.time, 12);
    central.writeUInt16LE(this.date, 14);
    central.writeUInt32LE(this.crc, 16);
    central.writeUInt32LE(this.packed, 20);
    central.writeUInt32LE(this.raw, 24);
    central.writeUInt16LE(this.name.length, 28);
    central.writeUInt32LE(this.offset, 42);
    this.centrals.push(central, this.name);
    this.offset += 30 + this.name.length + this.packed + descriptor.length;
    this.count++;
    return Buffer.concat([FINAL_BLOCK, descriptor]);
  }

  /** The central directory and its end record. */
  finish(): Buffer {
    const directory = Buffer.concat(this.centrals);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.count, 8);
    end.writeUInt16LE(this.count, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(this.offset, 16);
    return Buffer.concat([directory, end]);
  }
}

/** The archive's bytes, piece by piece. */
export function* zipStream(entries: Iterable<StreamedZipEntry>, stamp: Date): Generator<Buffer> {
  const zip = new ZipWriter(stamp);
  for (const entry of entries) {
    yield zip.start(entry.name);
    if (typeof entry.data === "string" || Buffer.isBuffer(entry.data)) yield zip.deflate(entry.data);
    else {
      let text = "";
      for (const piece of entry.data) {
        text += piece;
        if (text.length >= BLOCK) {
          yield zip.deflate(text);
          text = "";
        }
      }
      if (text) yield zip.deflate(text);
    }
    yield zip.end();
  }
  yield zip.finish();
}

/** zipStream with entries whose pieces come asynchronously (rows read from PostgreSQL). */
export async function* zipStreamAsync(
  entries: Iterable<{ name: string; data: string | Buffer | Iterable<string> | AsyncIterable<string> }>,
  stamp: Date,
): AsyncGenerator<Buffer> {
  const zip = new ZipWriter(stamp);
  for (const entry of entries) {
    yield zip.start(entry.name);
    if (typeof entry.data === "string" || Buffer.isBuffer(entry.data)) yield zip.deflate(entry.data);
    else {
      let text = "";
      for await (const piece of entry.data) {
        text += piece;
        if (text.length >= BLOCK) {
          yield zip.deflate(text);
          text = "";
        }
      }
      if (text) yield zip.deflate(text);
    }
    yield zip.end();
  }
  yield zip.finish();
}
