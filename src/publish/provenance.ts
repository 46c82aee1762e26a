// How a figure's provenance is shown, the same in every door (JSON, XML, the CLI, MCP): a fetch by the
// URL asked (secrets masked) and when it was fetched; an import by its file's base name, who imported it
// and when, never as fetched: the URL the importer declared with --url, if any, is `declaredUrl`. Both
// carry the sha256 of the bytes stored. Imports stored before file names were kept (migration 009) have
// a null file and importer, and the URL they were recorded under (given or the bank's default) as
// `declaredUrl`.
import { redactSecrets } from "../secrets.js";
import type { Provenance } from "../store/as-of.js";

export type SourceJson =
  | { kind: "fetch"; url: string; fetchedAt: string; sha256: string | null }
  | {
      kind: "import";
      file: string | null;
      importedBy: string | null;
      importedAt: string;
      sha256: string | null;
      declaredUrl?: string;
    };

/** The JSON object of a source, members in this order; a secret the stored text still holds is masked. */
export function sourceJson(p: Omit<Provenance, "fetchId">): SourceJson {
  const mask = (s: string | null | undefined) => (s ? redactSecrets(s) : null);
  if (p.kind === "fetch") return { kind: "fetch", url: redactSecrets(p.url), fetchedAt: p.at, sha256: p.sha256 };
  return {
    kind: "import",
    file: mask(p.file),
    importedBy: mask(p.importedBy),
    importedAt: p.at,
    sha256: p.sha256,
    ...(p.url ? { declaredUrl: redactSecrets(p.url) } : {}),
  };
}

const xmlAttr = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");

/**
 * The XML attributes of a source (each with its leading space): `kind` then, for a fetch, `url` (`urlName`
 * names it: `source` in Corrections) and `fetchedAt`; for an import `file`, `importedBy`, `importedAt` and
 * `declaredUrl`; then `sha256`. An absent or null value is no attribute.
 */
export function sourceXml(json: SourceJson, urlName = "url"): string {
  const pairs: Array<[string, string | null | undefined]> =
    json.kind === "fetch"
      ? [
          ["kind", json.kind],
          [urlName, json.url],
          ["fetchedAt", json.fetchedAt],
        ]
      : [
          ["kind", json.kind],
          ["file", json.file],
          ["importedBy", json.importedBy],
          ["importedAt", json.importedAt],
          ["declaredUrl", json.declaredUrl],
        ];
  pairs.push(["sha256", json.sha256]);
  return pairs.map(([name, value]) => (value ? ` ${name}="${xmlAttr(value)}"` : "")).join("");
}

/** One line of text: `fetched <url> at <time>` or `imported <file> by <who> at <time> (URL declared: <url>)`. */
export function sourceText(json: SourceJson): string {
  if (json.kind === "fetch") return `fetched ${json.url} at ${json.fetchedAt}`;
  const declared = json.declaredUrl ? ` (URL declared by the importer: ${json.declaredUrl})` : "";
  return `imported file ${json.file ?? "(name not recorded)"} by ${json.importedBy ?? "(not recorded)"} at ${json.importedAt}${declared}`;
}
