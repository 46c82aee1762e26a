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

/** The archive's bytes, piece by piece. */
export function* zipStream(entries: Iterable<StreamedZipEntry>, stamp: Date): Generator<Buffer> {
  const { time, date } = dosTime(stamp);
  const centrals: Buffer[] = [];
  let offset = 0;
  let count = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8");
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0808, 6); // UTF-8 names, sizes and CRC in a data descriptor
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt16LE(name.length, 26);
    yield Buffer.concat([local, name]);

    let crc = 0;
    let raw = 0;
    let packed = 0;
    const deflate = (text: string | Buffer): Buffer => {
      const bytes = typeof text === "string" ? Buffer.from(text, "utf8") : text;
      crc = crc32(bytes, crc);
      raw += bytes.length;
      const out = deflateRawSync(bytes, SYNC);
      packed += out.length;
      return out;
    };
    if (typeof entry.data === "string" || Buffer.isBuffer(entry.data)) yield deflate(entry.data);
    else {
      let text = "";
      for (const piece of entry.data) {
        text += piece;
        if (text.length >= BLOCK) {
          yield deflate(text);
          text = "";
        }
      }
      if (text) yield deflate(text);
    }
    packed += FINAL_BLOCK.length;
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(crc, 4);
    descriptor.writeUInt32LE(packed, 8);
    descriptor.writeUInt32LE(raw, 12);
    yield Buffer.concat([FINAL_BLOCK, descriptor]);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // made by
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0808, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed, 20);
    central.writeUInt32LE(raw, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + packed + descriptor.length;
    count++;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  yield Buffer.concat([directory, end]);
}
