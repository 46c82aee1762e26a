// Content negotiation (DESIGN §2): URL suffix, then `?format=`, then `Accept` (RFC 9110 §12.5.1,
// q-values and wildcards), then JSON. A suffix and a query naming different formats: 400. An unknown
// suffix or format value, or an Accept that admits none of the offered types: 406.

import { clipped, quoted } from "../../quote.js";

export type Format = "json" | "xml" | "csv" | "xlsx";

/** A body's content coding: as is, gzip or brotli. */
export type Encoding = "identity" | "gzip" | "br";

/** What every negotiated answer varies by. */
export const VARY = "Accept, Accept-Encoding";

/** In the server's order of preference (ties in Accept go to the earlier one). */
export const FORMATS: readonly Format[] = ["json", "xml", "csv", "xlsx"];

export const MEDIA_TYPES: Record<Format, string> = {
  json: "application/json",
  xml: "application/xml",
  csv: "text/csv",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
};

export type Negotiation =
  { ok: true; format: Format } | { ok: false; status: 400 | 406; detail: string; supported: string[] };

interface Range {
  type: string;
  subtype: string;
  q: number;
  /** Parameters other than q (a range with parameters is more specific). */
  params: number;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Parses an Accept value; undefined when no range in it is well-formed. */
export function parseAccept(value: string): Range[] | undefined {
  const ranges: Range[] = [];
  for (const part of value.split(",")) {
    const pieces = part.split(";").map((p) => p.trim());
    const media = pieces.shift();
    if (!media) continue;
    const full = media === "*" ? "*/*" : media;
    const slash = full.indexOf("/");
    if (slash <= 0) continue;
    const type = full.slice(0, slash).toLowerCase();
    const subtype = full.slice(slash + 1).toLowerCase();
    if (!TOKEN.test(type) || !TOKEN.test(subtype) || (type === "*" && subtype !== "*")) continue;
    let q = 1;
    let params = 0;
    let bad = false;
    for (const p of pieces) {
      if (p === "") continue;
      const eq = p.indexOf("=");
      const name = (eq < 0 ? p : p.slice(0, eq)).trim().toLowerCase();
      const val = eq < 0 ? "" : p.slice(eq + 1).trim();
      if (name === "q") {
        if (!/^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(val)) {
          bad = true;
          break;
        }
        q = Number(val);
        break; // accept-ext after q is ignored
      }
      params++;
    }
    if (bad) continue;
    ranges.push({ type, subtype, q, params });
  }
  return ranges.length ? ranges : undefined;
}

/** The q-value the ranges give a media type: that of the most specific matching range, else 0. */
export function qualityOf(ranges: Range[], mediaType: string): number {
  const [type, subtype] = mediaType.split("/") as [string, string];
  let best: { specificity: number; q: number } | undefined;
  for (const r of ranges) {
    let specificity: number;
    if (r.type === type && r.subtype === subtype)
      specificity = 2; // parameters (charset...) are not told apart
    else if (r.type === type && r.subtype === "*") specificity = 1;
    else if (r.type === "*" && r.subtype === "*") specificity = 0;
    else continue;
    if (!best || specificity > best.specificity || (specificity === best.specificity && r.q > best.q))
      best = { specificity, q: r.q };
  }
  return best?.q ?? 0;
}

/** Picks among `offered` by an Accept header; null when it admits none of them. */
export function pickByAccept(accept: string | undefined, offered: readonly Format[]): Format | null {
  if (accept === undefined || accept.trim() === "") return offered[0]!;
  const ranges = parseAccept(accept);
  if (!ranges) return offered[0]!;
  let chosen: Format | null = null;
  let chosenQ = 0;
  for (const f of offered) {
    const q = qualityOf(ranges, MEDIA_TYPES[f]);
    if (q > chosenQ) {
      chosen = f;
      chosenQ = q;
    }
  }
  return chosen;
}

function asFormat(value: string, offered: readonly Format[]): Format | undefined {
  const v = value.toLowerCase();
  return (offered as readonly string[]).includes(v) ? (v as Format) : undefined;
}

/**
 * Negotiates the format of a resource offered in `offered` formats.
 * `suffix`: the extension in the path without the dot (undefined when none);
 * `formatValues`: every `format` query value; `accept`: the header.
 */
export function negotiate(
  suffix: string | undefined,
  formatValues: string[],
  accept: string | undefined,
  offered: readonly Format[],
): Negotiation {
  const supported = offered.map((f) => MEDIA_TYPES[f]);
  const unknown = (what: string): Negotiation => ({
    ok: false,
    status: 406,
    detail: `${what} is not a supported format; supported: ${supported.join(", ")}`,
    supported,
  });
  let fromSuffix: Format | undefined;
  if (suffix !== undefined) {
    fromSuffix = asFormat(suffix, offered);
    if (!fromSuffix) return unknown(`The suffix ${quoted(`.${suffix}`)}`);
  }
  let fromQuery: Format | undefined;
  if (formatValues.length) {
    const distinct = [...new Set(formatValues.map((v) => v.toLowerCase()))];
    for (const v of distinct) if (!asFormat(v, offered)) return unknown(`format=${quoted(v)}`);
    if (distinct.length > 1)
      return {
        ok: false,
        status: 400,
        detail: `The format parameter is given more than once with different values (${clipped(distinct.join(", "))})`,
        supported,
      };
    fromQuery = distinct[0] as Format;
  }
  if (fromSuffix && fromQuery && fromSuffix !== fromQuery) {
    return {
      ok: false,
      status: 400,
      detail: `The URL suffix ${quoted(`.${suffix}`)} and format=${fromQuery} name different formats`,
      supported,
    };
  }
  const explicit = fromSuffix ?? fromQuery;
  if (explicit) return { ok: true, format: explicit };
  const picked = pickByAccept(accept, offered);
  if (!picked)
    return {
      ok: false,
      status: 406,
      detail: `The Accept header admits none of the supported media types: ${supported.join(", ")}`,
      supported,
    };
  return { ok: true, format: picked };
}

/** The q-values an Accept-Encoding gives br and gzip (`*` applied). */
interface EncodingQualities {
  br: number;
  gzip: number;
}

/** Accept-Encoding values read, kept (clients send a few spellings); cleared when full. */
const encodingQualities = new Map<string, EncodingQualities>();
const ENCODINGS_KEPT = 256;

function qualitiesOf(acceptEncoding: string): EncodingQualities {
  let qualities = encodingQualities.get(acceptEncoding);
  if (qualities === undefined) {
    qualities = readAcceptEncoding(acceptEncoding);
    if (acceptEncoding.length <= 256) {
      if (encodingQualities.size >= ENCODINGS_KEPT) encodingQualities.clear();
      encodingQualities.set(acceptEncoding, qualities);
    }
  }
  return qualities;
}

function readAcceptEncoding(acceptEncoding: string): EncodingQualities {
  let star = -1;
  let br = -1;
  let gzip = -1;
  for (const part of acceptEncoding.split(",")) {
    const [name, ...params] = part.split(";").map((p) => p.trim());
    if (!name) continue;
    let q = 1;
    for (const p of params) {
      const m = /^q\s*=\s*([01](?:\.\d{0,3})?)$/i.exec(p);
      if (m) q = Number(m[1]);
    }
    const n = name.toLowerCase();
    if (n === "br") br = q;
    else if (n === "gzip" || n === "x-gzip") gzip = Math.max(gzip, q);
    else if (n === "*") star = q;
  }
  if (br < 0) br = star < 0 ? 0 : star;
  if (gzip < 0) gzip = star < 0 ? 0 : star;
  return { br, gzip };
}

/** br, then gzip, by Accept-Encoding q-values; identity when neither is acceptable or available. */
export function pickEncoding(acceptEncoding: string | undefined, available: { br: boolean; gzip: boolean }): Encoding {
  if (!acceptEncoding || (!available.br && !available.gzip)) return "identity";
  const { br, gzip } = qualitiesOf(acceptEncoding);
  const brOk = available.br && br > 0;
  const gzOk = available.gzip && gzip > 0;
  if (brOk && (!gzOk || br >= gzip)) return "br";
  if (gzOk) return "gzip";
  return "identity";
}
