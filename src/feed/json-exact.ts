// JSON read from a bank's answer bytes, every number's digits kept, within a memory budget.
//
// lossless-json (which this replaces for answers) builds each string one character at a time and the
// whole tree at once: a 64 MiB answer of small rows took 570 MB and 30 s. This reader works on the bytes
// (no decoded copy of the text, which is two bytes a character as soon as one letter is beyond Latin-1),
// makes each string with one slice, shares the values that repeat (short strings and numbers: currency
// codes, dates, names, keys), and reckons what the tree costs as it builds it. A tree that would cost
// more than the budget is refused whole, with its reckoning, before it is built: what parsing takes is
// bounded by the budget whatever the answer's shape (a million empty objects, one huge figure).
//
// Its result is lossless-json's: plain objects and arrays, strings, true/false/null, and a LosslessNumber
// for each number (its exact text). Duplicate keys with different values are an error, as there.
import { Buffer, isUtf8 } from "node:buffer";

import { LosslessNumber } from "lossless-json";

const MiB = 1024 * 1024;

/** What the tree of one answer may be reckoned to cost. */
export const JSON_TREE_BUDGET_BYTES = 160 * MiB;

// The reckoning, in bytes of a 64-bit V8 heap (measured: test/feed/json-exact.test.ts keeps it above
// what the heap really grows by, for the shapes that cost the most per byte of answer).
const COST_OBJECT = 64;
const COST_PROPERTY = 24;
const FAST_PROPERTIES = 16;
const COST_DICTIONARY_PROPERTY = 64;
/** A key not met before: the object shape (V8's map and descriptors) that it makes. */
const COST_NEW_KEY = 256;
const COST_ARRAY = 48;
const COST_ITEM = 16;
const COST_STRING = 32;
const COST_NUMBER = 96;

/** Strings and numbers this short are shared: one copy of each distinct text. */
const SHARED_MAX_LENGTH = 32;
/** Distinct texts remembered for sharing (beyond this, new texts are made anew). */
const SHARED_MAX_ENTRIES = 65_536;

/** The answer's tree would cost more than the budget: refused whole. */
export class JsonTooLarge extends Error {}

type Tree = Record<string, unknown>;
interface Frame {
  /** The object being filled, or undefined for an array (its items wait on the reader's item stack). */
  object: Tree | undefined;
  /** Where the array's items start on the item stack; the object's properties so far. */
  count: number;
  /** The key the next value of an object goes under. */
  key: string;
  /** Where that key started, for the duplicate-key error. */
  keyAt: number;
}

/** The first byte that is neither JSON whitespace nor a byte-order mark, or the length. */
export function jsonStart(bytes: Uint8Array): number {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && isSpace(bytes[i]!)) i++;
  return i;
}

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const isDigit = (c: number | undefined) => c !== undefined && c >= 0x30 && c <= 0x39;

const ESCAPES: Record<number, string> = {
  0x22: '"',
  0x5c: "\\",
  0x2f: "/",
  0x62: "\b",
  0x66: "\f",
  0x6e: "\n",
  0x72: "\r",
  0x74: "\t",
};

/**
 * Parses UTF-8 JSON bytes as lossless-json does. Malformed JSON (or bytes that are not UTF-8) is a
 * SyntaxError; a tree that would cost more than `budget` bytes is a JsonTooLarge.
 */
export function readJsonExact(bytes: Uint8Array, budget = JSON_TREE_BUDGET_BYTES): unknown {
  return readJsonReckoned(bytes, budget).value;
}

/** readJsonExact's value and what its tree was reckoned to cost (bytes). */
export function readJsonReckoned(bytes: Uint8Array, budget = JSON_TREE_BUDGET_BYTES): { value: unknown; cost: number } {
  if (!isUtf8(bytes)) throw new SyntaxError("the bytes are not UTF-8");
  const reader = new Reader(bytes, budget);
  const value = reader.document();
  return { value, cost: reader.cost() };
}

class Reader {
  private readonly buf: Buffer;
  private i = 0;
  private spent = 0;
  /** Short strings by their text (those with escapes or beyond ASCII) or by their bytes' hash (the rest). */
  private readonly strings = new Map<string, string>();
  private readonly asciiStrings = new Map<number, string>();
  /** Short numbers by their bytes' hash. */
  private readonly numbers = new Map<number, LosslessNumber>();
  /**
   * The items of the open arrays, innermost last: an array is made when it closes, at its length (one
   * pushed to item by item would hold room for 17 from its first item on).
   */
  private readonly items: unknown[] = [];

  constructor(
    private readonly b: Uint8Array,
    private readonly budget: number,
  ) {
    this.buf = Buffer.from(b.buffer, b.byteOffset, b.length);
  }

  cost(): number {
    return this.spent;
  }

  document(): unknown {
    this.i = jsonStart(this.b);
    const stack: Frame[] = [];
    for (;;) {
      let value = this.value(stack);
      if (value === OPENED) continue;
      // Put the value in its container; close every container that ends after it.
      for (;;) {
        const top = stack[stack.length - 1];
        if (top === undefined) {
          this.space();
          if (this.i < this.b.length) this.fail("Expected end of input");
          return value;
        }
        const object = top.object;
        if (object === undefined) {
          this.charge(COST_ITEM);
          this.items.push(value);
        } else this.put(top, object, value);
        this.space();
        const c = this.b[this.i];
        if (c === 0x2c) {
          this.i++;
          if (object !== undefined) this.key(top);
          break;
        }
        if (c !== (object === undefined ? 0x5d : 0x7d)) {
          this.fail(
            object === undefined ? "Comma ',' or end of array ']' expected" : "Comma ',' or end of object '}' expected",
          );
        }
        this.i++;
        stack.pop();
        if (object !== undefined) value = object;
        else {
          value = this.items.slice(top.count);
          this.items.length = top.count;
        }
      }
    }
  }

  /** A value, or OPENED when a non-empty object or array was opened (pushed on the stack). */
  private value(stack: Frame[]): unknown {
    this.space();
    const c = this.b[this.i];
    if (c === 0x22) return this.string(false);
    if (c === 0x2d || isDigit(c)) return this.number();
    if (c === 0x7b || c === 0x5b) {
      this.i++;
      const isArray = c === 0x5b;
      this.charge(isArray ? COST_ARRAY : COST_OBJECT);
      this.space();
      if (this.b[this.i] === (isArray ? 0x5d : 0x7d)) {
        this.i++;
        return isArray ? [] : {};
      }
      const frame: Frame = {
        object: isArray ? undefined : {},
        count: isArray ? this.items.length : 0,
        key: "",
        keyAt: 0,
      };
      if (!isArray) this.key(frame);
      stack.push(frame);
      return OPENED;
    }
    if (this.word("true")) return true;
    if (this.word("false")) return false;
    if (this.word("null")) return null;
    return this.fail(stack.length === 0 ? "JSON value expected" : "Value expected");
  }

  private key(frame: Frame): void {
    this.space();
    if (this.b[this.i] !== 0x22) this.fail("Quoted object key expected");
    frame.keyAt = this.i;
    frame.key = this.string(true);
    this.space();
    if (this.b[this.i] !== 0x3a) this.fail("Colon ':' expected after property name");
    this.i++;
  }

  private put(frame: Frame, object: Tree, value: unknown): void {
    const key = frame.key;
    if (Object.hasOwn(object, key)) {
      if (!deepEqual(object[key], value)) {
        throw new SyntaxError(`Duplicate key '${key}' encountered at position ${frame.keyAt + 1}`);
      }
      return;
    }
    // Past a few properties, V8 keeps an object's properties in a dictionary: several times the cost.
    const count = ++frame.count;
    this.charge(
      count <= FAST_PROPERTIES
        ? COST_PROPERTY
        : count === FAST_PROPERTIES + 1
          ? COST_DICTIONARY_PROPERTY * count // the properties so far move to the dictionary
          : COST_DICTIONARY_PROPERTY,
    );
    if (key === "__proto__") {
      Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
    } else object[key] = value;
  }

  /** A string; a key not met before is charged for the object shape it makes too. */
  private string(isKey: boolean): string {
    const b = this.b;
    const start = this.i + 1;
    let j = start;
    let escaped = false;
    let ascii = true;
    let hash = 0x811c9dc5;
    for (;;) {
      const c = b[j];
      if (c === undefined) this.fail(`End of string '"' expected`, j);
      if (c === 0x22) break;
      if (c === 0x5c) {
        escaped = true;
        j += 2;
        continue;
      }
      if (c < 0x20) this.fail(`Invalid character '\\u${c.toString(16).padStart(4, "0")}'`, j);
      if (c >= 0x80) ascii = false;
      hash = Math.imul(hash ^ c, 0x01000193);
      j++;
    }
    this.i = j + 1;
    const n = j - start;
    if (n > SHARED_MAX_LENGTH) {
      // A long string is charged for before it is made (at most two bytes a character): not shared.
      this.charge(COST_STRING + (ascii ? n : 2 * n) + (isKey ? COST_NEW_KEY : 0));
      return escaped ? this.unescape(start, j) : this.buf.toString(ascii ? "latin1" : "utf8", start, j);
    }
    if (ascii && !escaped) {
      // Found by its bytes' hash and compared byte by byte: a repeated string is not even made.
      const known = this.asciiStrings.get(hash);
      if (known !== undefined && this.sameBytes(known, start, n)) return known;
      const made = this.buf.toString("latin1", start, j);
      this.charge(COST_STRING + n + (isKey ? COST_NEW_KEY : 0));
      if (this.asciiStrings.size < SHARED_MAX_ENTRIES) this.asciiStrings.set(hash, made);
      return made;
    }
    const text = escaped ? this.unescape(start, j) : this.buf.toString("utf8", start, j);
    const known = this.strings.get(text);
    if (known !== undefined) return known;
    this.charge(COST_STRING + 2 * n + (isKey ? COST_NEW_KEY : 0));
    if (this.strings.size < SHARED_MAX_ENTRIES) this.strings.set(text, text);
    return text;
  }

  /** True when `text` is the ASCII bytes at [start, start + n). */
  private sameBytes(text: string, start: number, n: number): boolean {
    if (text.length !== n) return false;
    for (let k = 0; k < n; k++) if (text.charCodeAt(k) !== this.b[start + k]) return false;
    return true;
  }

  private unescape(start: number, end: number): string {
    const parts: string[] = [];
    let from = start;
    for (let j = start; j < end; j++) {
      if (this.b[j] !== 0x5c) continue;
      parts.push(this.buf.toString("utf8", from, j));
      const e = this.b[j + 1]!;
      const simple = ESCAPES[e];
      if (simple !== undefined) {
        parts.push(simple);
        j += 1;
      } else if (e === 0x75 && /^[0-9a-fA-F]{4}$/.test(this.buf.toString("latin1", j + 2, j + 6))) {
        parts.push(String.fromCharCode(Number.parseInt(this.buf.toString("latin1", j + 2, j + 6), 16)));
        j += 5;
      } else {
        this.fail(`Invalid escape character '\\${String.fromCharCode(e)}'`, j);
      }
      from = j + 1;
    }
    parts.push(this.buf.toString("utf8", from, end));
    return parts.join("");
  }

  private number(): LosslessNumber {
    const b = this.b;
    const start = this.i;
    let j = start;
    if (b[j] === 0x2d) j++;
    if (b[j] === 0x30) j++;
    else if (isDigit(b[j])) while (isDigit(b[j])) j++;
    else this.fail("Invalid number, expecting a digit", j);
    if (b[j] === 0x2e) {
      j++;
      if (!isDigit(b[j])) this.fail("Invalid number, expecting a digit", j);
      while (isDigit(b[j])) j++;
    }
    if (b[j] === 0x65 || b[j] === 0x45) {
      j++;
      if (b[j] === 0x2d || b[j] === 0x2b) j++;
      if (!isDigit(b[j])) this.fail("Invalid number, expecting a digit", j);
      while (isDigit(b[j])) j++;
    }
    this.i = j;
    const n = j - start;
    if (n > SHARED_MAX_LENGTH) {
      // Charged for before its text is made: a number of 64 million digits is refused unmade.
      this.charge(COST_NUMBER + n);
      return new LosslessNumber(this.buf.toString("latin1", start, j));
    }
    let hash = 0x811c9dc5;
    for (let k = start; k < j; k++) hash = Math.imul(hash ^ b[k]!, 0x01000193);
    const known = this.numbers.get(hash);
    if (known !== undefined && this.sameBytes(known.value, start, n)) return known;
    this.charge(COST_NUMBER + n);
    const made = new LosslessNumber(this.buf.toString("latin1", start, j));
    if (this.numbers.size < SHARED_MAX_ENTRIES) this.numbers.set(hash, made);
    return made;
  }

  private word(w: string): boolean {
    for (let k = 0; k < w.length; k++) if (this.b[this.i + k] !== w.charCodeAt(k)) return false;
    this.i += w.length;
    return true;
  }

  private space(): void {
    const b = this.b;
    while (this.i < b.length && isSpace(b[this.i]!)) this.i++;
  }

  private charge(bytes: number): void {
    this.spent += bytes;
    if (this.spent > this.budget) {
      throw new JsonTooLarge(
        `the JSON answer (${mib(this.b.length)}) would take more than ${mib(this.budget)} once read ` +
          `(reckoned at byte ${this.i} of it): refused whole`,
      );
    }
  }

  private fail(message: string, at = this.i): never {
    const got = at < this.b.length ? `but got '${String.fromCharCode(this.b[at]!)}'` : "but reached end of input";
    throw new SyntaxError(`${message} ${got} at position ${at}`);
  }
}

const OPENED = Symbol("opened");

const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof LosslessNumber && b instanceof LosslessNumber) return a.value === b.value;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, k) => deepEqual(x, b[k]));
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => deepEqual((a as Tree)[k], (b as Tree)[k]));
}
