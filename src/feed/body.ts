// Turning a feed's bytes into something to parse, and refusing what is plainly not the feed:
// an empty body, an HTML error or WAF page served with status 200, a truncated document.
import { isAscii, isUtf8 } from "node:buffer";

import { XMLParser, XMLValidator } from "fast-xml-parser";
import { isLosslessNumber } from "lossless-json";

import { FeedError } from "../errors.js";
import { jsonStart, JsonTooLarge, readJsonExact } from "./json-exact.js";
import { parseXmlInPieces, xmlRoot, type XmlRoot } from "./xml-pieces.js";

/** Decodes bytes in the feed's encoding (utf-8, windows-1251, iso-8859-2 …); invalid UTF-8 is an error. */
export function decodeText(bankId: string, body: Uint8Array, encoding = "utf-8"): string {
  // Plain ASCII reads the same in every ASCII-based encoding: read as latin1 it is a one-byte string
  // made in one pass, where the decoder would hold a two-byte copy beside it (60 MB of text: 120 MB more).
  if (!/^(utf-?16|ucs-?2)/i.test(encoding) && isAscii(body))
    return Buffer.from(body.buffer, body.byteOffset, body.length).toString("latin1");
  let text: string;
  try {
    text = new TextDecoder(encoding, { fatal: encoding.toLowerCase().replace("-", "") === "utf8" }).decode(body);
  } catch {
    throw new FeedError(bankId, `body is not valid ${encoding} text`);
  }
  return text.replace(/^\uFEFF/, "");
}

/** True when a body is an HTML page rather than data. */
export function looksLikeHtml(text: string): boolean {
  return /^\s*(<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>])/i.test(text);
}

/** Rejects an empty body or an HTML page before any format-specific parsing. */
export function expectFeedText(bankId: string, text: string, what: string): string {
  if (text.trim() === "") throw new FeedError(bankId, `empty body where ${what} was expected`);
  if (looksLikeHtml(text))
    throw new FeedError(bankId, `an HTML page where ${what} was expected (an error or WAF page?)`);
  return text;
}

/** How every XML answer is read: values kept as text, attributes as `@name`. */
export const XML_PARSER_OPTIONS = {
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  // No callback reads the element's path: without this the parser builds the path's text at every tag.
  jPath: false,
  // Feeds repeat elements; callers use asArray() to read one-or-many uniformly.
} as const;

const xmlParser = new XMLParser(XML_PARSER_OPTIONS);

/** Parses XML with every value kept as text. A malformed or truncated document is a FeedError. */
export function parseXml(bankId: string, text: string): Record<string, unknown> {
  expectFeedText(bankId, text, "XML");
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new FeedError(bankId, `malformed XML (${valid.err.msg} at line ${valid.err.line})`);
  // A large answer is parsed piece by piece (src/feed/xml-pieces.ts): the same tree, a fraction of the memory.
  return parseXmlInPieces(text, parseXmlWhole);
}

/**
 * A validated XML document read one element of its root at a time (src/feed/xml-pieces.ts), for answers
 * that can run to many megabytes: no tree of the whole is built. Malformed XML is a FeedError.
 */
export function readXmlRoot(bankId: string, text: string): XmlRoot {
  expectFeedText(bankId, text, "XML");
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new FeedError(bankId, `malformed XML (${valid.err.msg} at line ${valid.err.line})`);
  try {
    return xmlRoot(text, parseXmlWhole);
  } catch (error) {
    throw new FeedError(bankId, `XML not read as one root of elements (${(error as Error).message})`);
  }
}

const parseXmlWhole = (xml: string) => xmlParser.parse(xml) as Record<string, unknown>;

/** One-or-many, as XML-to-object mappings give it. */
export function asArray<T>(value: T | T[] | undefined | null): T[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

/**
 * Parses JSON keeping every number's digits (`24.170` stays `24.170`); read them with jsonNumberText.
 * Give an answer's bytes (UTF-8) rather than its decoded text: no copy of the text is made. What the
 * tree may cost is bounded (src/feed/json-exact.ts): an answer whose tree would cost more is refused whole.
 */
export function parseJsonExact(bankId: string, input: string | Uint8Array): unknown {
  const bytes = typeof input === "string" ? Buffer.from(input, "utf8") : input;
  if (typeof input !== "string" && !isUtf8(bytes)) throw new FeedError(bankId, "body is not valid utf-8 text");
  const start = jsonStart(bytes);
  const head = Buffer.from(bytes.buffer, bytes.byteOffset + start, Math.min(64, bytes.length - start));
  expectFeedText(bankId, head.toString("latin1"), "JSON");
  try {
    return readJsonExact(bytes);
  } catch (error) {
    if (error instanceof JsonTooLarge) throw new FeedError(bankId, error.message);
    throw new FeedError(bankId, `malformed JSON (${(error as Error).message})`);
  }
}

/** The exact text of a JSON number (or of a string holding one); undefined for anything else. */
export function jsonNumberText(value: unknown): string | undefined {
  if (isLosslessNumber(value)) return value.value;
  if (typeof value === "string") return value;
  return undefined;
}

/** A JSON object (not an array, not null), to read fields from. */
export const isJsonObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === "object" && x !== null && !Array.isArray(x);

/** What a JSON field said, as text (numbers with their digits); undefined when absent or null. */
export const jsonFieldText = (x: unknown): string | undefined =>
  x === undefined || x === null ? undefined : typeof x === "string" ? x : (jsonNumberText(x) ?? JSON.stringify(x));

/** An HTTP 404 thrown by the fetch client (an API's "nothing in this window", for the sources that say so). */
export const isHttpNotFound = (error: unknown): boolean =>
  error instanceof Error && error.name === "HttpError" && (error as { status?: number }).status === 404;
