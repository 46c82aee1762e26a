// Compressed answers (XLSX and other zip archives, gzip bodies) inflated within bounds. A small
// archive can inflate to gigabytes (a "zip bomb"): the sizes an archive declares are checked before
// anything is inflated (per part, in total, and against the compressed size), and inflation stops as
// soon as a part outgrows what it declared, since the declared sizes can lie. The zip is read from
// its central directory, parts are checked against their CRC-32, and large parts are inflated as a
// stream, so memory stays bounded whatever the archive holds.
import { Readable } from "node:stream";
import { brotliDecompressSync, crc32, createInflateRaw, gunzipSync, inflateRawSync, inflateSync } from "node:zlib";

import { FeedError, HttpError } from "../errors.js";

export interface InflateLimits {
  /** Largest inflated size of one part (or of a gzip body). */
  maxPartBytes: number;
  /** Largest inflated size of all the parts of an archive together. */
  maxTotalBytes: number;
  /** Highest inflated:compressed ratio, checked once a part inflates past `graceBytes`. */
  maxRatio: number;
  graceBytes: number;
  /** Most parts an archive may list. */
  maxParts: number;
}

const MiB = 1024 * 1024;

/**
 * Real workbooks inflate 5 to 25 times (a sheet of 65,536 formatted empty rows about 23 times); a
 * bomb about 1,000 times. 1 GiB in all bounds the time a legitimate 50 MB answer may take.
 */
export const INFLATE_LIMITS: Readonly<InflateLimits> = {
  maxPartBytes: 512 * MiB,
  maxTotalBytes: 1024 * MiB,
  maxRatio: 200,
  graceBytes: 1 * MiB,
  maxParts: 10_000,
};

/** An inflation past a bound; callers turn it into their layer's error (FeedError, HttpError). */
export class InflateLimitError extends Error {}

const size = (n: number) => (n >= MiB ? `${(n / MiB).toFixed(1)} MiB` : `${Math.ceil(n / 1024)} KiB`);

/** Why inflating `compressed` bytes to `inflated` bytes is refused, or undefined when it is within bounds. */
export function inflationProblem(
  compressed: number,
  inflated: number,
  limits: InflateLimits = INFLATE_LIMITS,
): string | undefined {
  if (inflated > limits.maxPartBytes)
    return `inflates to ${size(inflated)}, over the ${size(limits.maxPartBytes)} bound`;
  if (inflated > limits.graceBytes && inflated > limits.maxRatio * Math.max(compressed, 1))
    return `inflates to ${size(inflated)} from ${size(compressed)}, over ${limits.maxRatio}:1 (a zip bomb?)`;
  return undefined;
}

/** The most bytes `compressed` bytes may inflate to. */
export function inflationBound(compressed: number, limits: InflateLimits = INFLATE_LIMITS): number {
  return Math.min(limits.maxPartBytes, Math.max(limits.graceBytes, limits.maxRatio * compressed));
}

/**
 * Inflates a gzip, zlib-deflate (or raw deflate) or brotli body, stopping at `maxBytes`, at the ratio
 * bound, or at the size a gzip trailer declares, whichever comes first. Throws InflateLimitError past a
 * bound, a plain Error for corrupt data.
 */
export function inflateBody(
  body: Uint8Array,
  encoding: "gzip" | "deflate" | "br",
  maxBytes = INFLATE_LIMITS.maxPartBytes,
  limits: InflateLimits = INFLATE_LIMITS,
): Buffer {
  const ratioBound = inflationBound(body.length, limits);
  let bound = Math.min(maxBytes, ratioBound);
  let why =
    bound === maxBytes
      ? `the ${size(maxBytes)} bound`
      : `${size(bound)}, ${limits.maxRatio} times its ${size(body.length)} (a bomb?)`;
  // A gzip trailer declares the size (modulo 2^32, of the last member): never inflate past it.
  if (encoding === "gzip" && body.length >= 18 && gzipDeclaredSize(body) < bound) {
    bound = Math.max(gzipDeclaredSize(body), 1);
    why = `the ${size(bound)} its trailer declares`;
  }
  const options = { maxOutputLength: bound };
  try {
    if (encoding === "gzip") return gunzipSync(body, options);
    if (encoding === "br") return brotliDecompressSync(body, options);
    // "deflate" is meant as zlib-wrapped; some servers send it raw.
    return body[0] !== undefined && (body[0] & 0x0f) === 8 ? inflateSync(body, options) : inflateRawSync(body, options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE")
      throw new InflateLimitError(`inflates past ${why}`);
    throw error;
  }
}

const gzipDeclaredSize = (body: Uint8Array) =>
  Buffer.from(body.buffer, body.byteOffset, body.length).readUInt32LE(body.length - 4);

/**
 * An HTTP body as the server meant it: a server that compresses despite `accept-encoding: identity`
 * is inflated here, within the body cap and the ratio bound, never past them. `shownUrl` is redacted.
 */
export function decodeContentEncoding(
  shownUrl: string,
  contentEncoding: string | undefined,
  body: Buffer,
  maxBytes: number,
): Buffer {
  const encoding = contentEncoding?.trim().toLowerCase();
  if (!encoding || encoding === "identity") return body;
  const kinds: Record<string, "gzip" | "deflate" | "br"> = {
    gzip: "gzip",
    "x-gzip": "gzip",
    deflate: "deflate",
    br: "br",
  };
  const kind = kinds[encoding];
  if (!kind) throw new HttpError(`${shownUrl}: unknown content-encoding "${encoding}"`);
  try {
    return inflateBody(body, kind, maxBytes);
  } catch (error) {
    throw new HttpError(`${shownUrl}: the ${encoding} body ${(error as Error).message}`, undefined, { cause: error });
  }
}

/** A gzip body (a `.gz` file) inflated within the bounds; anything else, or a bomb, is a FeedError. */
export function gunzipBody(bankId: string, body: Uint8Array, what = "gzip file"): Buffer {
  if (body.length < 18 || body[0] !== 0x1f || body[1] !== 0x8b) throw new FeedError(bankId, `not a ${what}`);
  // The trailer declares the size: a declared bomb is refused before inflating.
  const problem = inflationProblem(body.length, gzipDeclaredSize(body));
  if (problem) throw new FeedError(bankId, `the ${what} ${problem}: refused`);
  try {
    return inflateBody(body, "gzip");
  } catch (error) {
    if (error instanceof InflateLimitError) throw new FeedError(bankId, `the ${what} ${error.message}: refused`);
    throw new FeedError(bankId, `malformed or truncated ${what} (${(error as Error).message})`, { cause: error });
  }
}

/** One part of a zip archive, as its central directory describes it. */
export interface ZipPart {
  name: string;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const INPUT_SLICE = 16 * 1024;

/** Where the central directory is and how many parts it lists. */
function directoryOf(buf: Buffer): { count: number; offset: number; bytes: number } {
  const lowest = Math.max(0, buf.length - 22 - 0xffff);
  let at = -1;
  for (let i = buf.length - 22; i >= lowest; i--) {
    if (buf.readUInt32LE(i) === EOCD) {
      at = i;
      break;
    }
  }
  if (at < 0) throw new Error("no end of central directory (truncated?)");
  let count = buf.readUInt16LE(at + 10);
  let bytes = buf.readUInt32LE(at + 12);
  let offset = buf.readUInt32LE(at + 16);
  if ((count === 0xffff || offset === 0xffffffff || bytes === 0xffffffff) && at >= 20) {
    if (buf.readUInt32LE(at - 20) === ZIP64_LOCATOR) {
      const z = Number(buf.readBigUInt64LE(at - 12));
      if (z + 56 > buf.length || buf.readUInt32LE(z) !== ZIP64_EOCD) throw new Error("bad zip64 directory record");
      count = Number(buf.readBigUInt64LE(z + 32));
      bytes = Number(buf.readBigUInt64LE(z + 40));
      offset = Number(buf.readBigUInt64LE(z + 48));
    }
  }
  if (offset + bytes > buf.length) throw new Error("the central directory lies past the end (truncated?)");
  return { count, offset, bytes };
}

/** The zip64 extra field's sizes and offset, for the fields the header marks 0xFFFFFFFF. */
function zip64Extra(buf: Buffer, from: number, to: number, part: ZipPart): void {
  for (let i = from; i + 4 <= to;) {
    const id = buf.readUInt16LE(i);
    const len = buf.readUInt16LE(i + 2);
    if (id === 0x0001) {
      let p = i + 4;
      const next = () => {
        const v = Number(buf.readBigUInt64LE(p));
        p += 8;
        return v;
      };
      if (part.size === 0xffffffff) part.size = next();
      if (part.compressedSize === 0xffffffff) part.compressedSize = next();
      if (part.localOffset === 0xffffffff) part.localOffset = next();
      return;
    }
    i += 4 + len;
  }
}

function readDirectory(buf: Buffer, limits: InflateLimits): ZipPart[] {
  const { count, offset } = directoryOf(buf);
  if (count > limits.maxParts) throw new InflateLimitError(`lists ${count} parts, over the ${limits.maxParts} bound`);
  const parts: ZipPart[] = [];
  let p = offset;
  for (let n = 0; n < count; n++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== CENTRAL) throw new Error("a broken central directory entry");
    const flags = buf.readUInt16LE(p + 8);
    const nameLength = buf.readUInt16LE(p + 28);
    const extraLength = buf.readUInt16LE(p + 30);
    const commentLength = buf.readUInt16LE(p + 32);
    const nameBytes = buf.subarray(p + 46, p + 46 + nameLength);
    const part: ZipPart = {
      name: nameBytes.toString(flags & 0x800 ? "utf8" : "latin1"),
      method: buf.readUInt16LE(p + 10),
      crc: buf.readUInt32LE(p + 16),
      compressedSize: buf.readUInt32LE(p + 20),
      size: buf.readUInt32LE(p + 24),
      localOffset: buf.readUInt32LE(p + 42),
    };
    zip64Extra(buf, p + 46 + nameLength, p + 46 + nameLength + extraLength, part);
    if (flags & 0x1) throw new Error(`part "${part.name}" is encrypted`);
    parts.push(part);
    p += 46 + nameLength + extraLength + commentLength;
  }
  return parts;
}

/**
 * A zip archive read through its central directory, every declared size checked against the bounds
 * before any part is inflated. Errors name the bank and say what the archive was meant to be.
 */
export class ZipArchive {
  readonly parts: readonly ZipPart[];
  private readonly byName = new Map<string, ZipPart>();

  private constructor(
    private readonly bankId: string,
    private readonly buf: Buffer,
    private readonly what: string,
    parts: ZipPart[],
  ) {
    this.parts = parts;
    for (const part of parts) this.byName.set(part.name.toLowerCase(), part);
  }

  /** Opens an archive; a malformed or truncated one, or one declaring a bomb, is a FeedError. */
  static open(bankId: string, body: Uint8Array, what = "zip archive", limits = INFLATE_LIMITS): ZipArchive {
    const buf = Buffer.from(body.buffer, body.byteOffset, body.length);
    let parts: ZipPart[];
    try {
      parts = readDirectory(buf, limits);
    } catch (error) {
      if (error instanceof InflateLimitError) throw new FeedError(bankId, `the ${what} ${error.message}: refused`);
      throw new FeedError(bankId, `malformed or truncated ${what} (${(error as Error).message})`, { cause: error });
    }
    let total = 0;
    for (const part of parts) {
      const problem = inflationProblem(part.compressedSize, part.size, limits);
      if (problem) throw new FeedError(bankId, `the ${what}'s part "${part.name}" ${problem}: refused`);
      total += part.size;
    }
    if (total > limits.maxTotalBytes)
      throw new FeedError(
        bankId,
        `the ${what} inflates to ${size(total)} in all, over the ${size(limits.maxTotalBytes)} bound: refused`,
      );
    return new ZipArchive(bankId, buf, what, parts);
  }

  /** The part of that name (a zip's names are compared without case, as Excel does). */
  part(name: string): ZipPart | undefined {
    return this.byName.get(name.replace(/^\/+/, "").toLowerCase());
  }

  /** A whole part, inflated (for the small ones: a workbook's styles, relationships, one CSV). */
  read(part: ZipPart): Buffer {
    const data = this.compressed(part);
    let out: Buffer;
    try {
      out =
        part.method === 0
          ? data
          : inflateRawSync(data, { maxOutputLength: Math.max(part.size, 1) }); /* declared sizes can lie */
    } catch (error) {
      throw this.inflateError(part, error);
    }
    this.check(part, out.length, crc32(out));
    return out;
  }

  /** A part inflated piece by piece, never more than it declared: for the big ones (a worksheet). */
  async *stream(part: ZipPart): AsyncGenerator<Buffer> {
    const data = this.compressed(part);
    if (part.method === 0) {
      this.check(part, data.length, crc32(data));
      for (let i = 0; i < data.length; i += 1024 * 1024) yield data.subarray(i, i + 1024 * 1024);
      return;
    }
    // The input goes in small slices, so the inflater never holds more than a slice's worth of output.
    const input = Readable.from(
      (function* () {
        for (let i = 0; i < data.length; i += INPUT_SLICE) yield data.subarray(i, i + INPUT_SLICE);
      })(),
      { objectMode: false },
    );
    const inflater = createInflateRaw({ chunkSize: 64 * 1024 });
    input.on("error", (error) => inflater.destroy(error));
    input.pipe(inflater);
    let inflated = 0;
    let crc = 0;
    try {
      for await (const chunk of inflater as AsyncIterable<Buffer>) {
        inflated += chunk.length;
        if (inflated > part.size) throw new InflateLimitError(`inflates past the ${size(part.size)} it declares`);
        crc = crc32(chunk, crc);
        yield chunk;
      }
    } catch (error) {
      throw this.inflateError(part, error);
    } finally {
      input.destroy();
      inflater.destroy();
    }
    this.check(part, inflated, crc);
  }

  private compressed(part: ZipPart): Buffer {
    const at = part.localOffset;
    if (at + 30 > this.buf.length || this.buf.readUInt32LE(at) !== LOCAL)
      throw new FeedError(this.bankId, `malformed or truncated ${this.what} (no local header for "${part.name}")`);
    const start = at + 30 + this.buf.readUInt16LE(at + 26) + this.buf.readUInt16LE(at + 28);
    if (start + part.compressedSize > this.buf.length)
      throw new FeedError(this.bankId, `malformed or truncated ${this.what} ("${part.name}" is cut short)`);
    if (part.method !== 0 && part.method !== 8)
      throw new FeedError(this.bankId, `the ${this.what}'s part "${part.name}" uses compression method ${part.method}`);
    return this.buf.subarray(start, start + part.compressedSize);
  }

  private check(part: ZipPart, inflated: number, crc: number): void {
    if (inflated !== part.size || crc !== part.crc)
      throw new FeedError(
        this.bankId,
        `malformed or truncated ${this.what} ("${part.name}" fails its size or CRC check)`,
      );
  }

  private inflateError(part: ZipPart, error: unknown): FeedError {
    if (error instanceof FeedError) return error;
    const tooLarge =
      error instanceof InflateLimitError || (error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE";
    if (tooLarge)
      return new FeedError(
        this.bankId,
        `the ${this.what}'s part "${part.name}" inflates past the ${size(part.size)} it declares: refused`,
      );
    return new FeedError(
      this.bankId,
      `malformed or truncated ${this.what} ("${part.name}": ${(error as Error).message})`,
      {
        cause: error,
      },
    );
  }
}

/** The text of the one part of a zip whose name matches (a zipped CSV); none or several is a FeedError. */
export function unzipOne(bankId: string, body: Uint8Array, name: RegExp, what = "zip archive"): Buffer {
  const zip = ZipArchive.open(bankId, body, what);
  const found = zip.parts.filter((p) => name.test(p.name) && !p.name.endsWith("/"));
  if (found.length !== 1)
    throw new FeedError(
      bankId,
      `the ${what} holds ${found.length} parts named like ${name} (${zip.parts
        .map((p) => p.name)
        .join(", ")
        .slice(0, 120)})`,
    );
  return zip.read(found[0]!);
}
