// The Corrections document (GET /v1/Banks/{id}/Corrections): every revision of a stored figure, with
// both figures, when each was stored and the provenance of both (the bank's answer: URL with secrets
// masked, when fetched; or an imported file: its name, who imported it, when, the URL declared; and the
// sha256), in the four formats. JSON and XML nest the two figures; CSV and XLSX are one row per revision
// with the same columns (an import's own columns come last, so that the first fifteen keep their places).
import type { Correction } from "../store/as-of.js";
import type { IsoDate } from "../types.js";
import { sourceJson, sourceXml } from "./provenance.js";
import { XML_NAMESPACE } from "./xsd.js";
import { zipStream } from "./zip.js";

export interface CorrectionsDocument {
  bankId: string;
  from: IsoDate;
  to: IsoDate;
  corrections: Correction[];
}

export const CORRECTIONS_HEADER = [
  "BankId",
  "Effective Date",
  "Currency",
  "Previous Rate",
  "Previous Unit",
  "Previous Stored At",
  "Previous Source",
  "Previous Fetched At",
  "Previous SHA-256",
  "Rate",
  "Unit",
  "Corrected At",
  "Source",
  "Fetched At",
  "SHA-256",
  "Previous Kind",
  "Previous File",
  "Previous Imported By",
  "Previous Imported At",
  "Kind",
  "File",
  "Imported By",
  "Imported At",
] as const;

function figureJson(f: Correction["previous"]) {
  return {
    rate: f.rate,
    ...(f.unitMultiplier ? { unitMultiplier: f.unitMultiplier } : {}),
    storedAt: f.storedAt,
    source: sourceJson(f.source),
  };
}

/** JSON: figures as decimal text (strings), exactly as stored. */
export function correctionsJson(doc: CorrectionsDocument): string {
  const body = {
    bankId: doc.bankId,
    from: doc.from,
    to: doc.to,
    corrections: doc.corrections.map((c) => ({
      effectiveDate: c.effectiveDate,
      currency: c.currency,
      previous: figureJson(c.previous),
      current: figureJson(c.current),
    })),
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}

const xmlAttr = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");

function figureXml(name: string, f: Correction["previous"]): string {
  const unit = f.unitMultiplier ? ` unitMultiplier="${f.unitMultiplier}"` : "";
  return `    <${name} value="${xmlAttr(f.rate)}"${unit} storedAt="${f.storedAt}"${sourceXml(sourceJson(f.source), "source")}/>\n`;
}

/** XML in the exrates namespace (the `Corrections` element of the published XSD). */
export function correctionsXml(doc: CorrectionsDocument): string {
  let out = `<?xml version="1.0" encoding="UTF-8"?>\n<Corrections xmlns="${XML_NAMESPACE}" bankId="${xmlAttr(doc.bankId)}" from="${doc.from}" to="${doc.to}">\n`;
  for (const c of doc.corrections)
    out +=
      `  <Correction effectiveDate="${c.effectiveDate}" currency="${xmlAttr(c.currency)}">\n` +
      figureXml("Previous", c.previous) +
      figureXml("Current", c.current) +
      "  </Correction>\n";
  return `${out}</Corrections>\n`;
}

/**
 * One row per correction, the columns of CORRECTIONS_HEADER. An import's Source is the URL its importer
 * declared ("" for none) and its Fetched At is empty: its own columns say the file, who and when.
 */
export function correctionRows(doc: CorrectionsDocument): string[][] {
  const figure = (f: Correction["previous"]) => {
    const s = sourceJson(f.source);
    return s.kind === "fetch"
      ? [f.rate, `1${"0".repeat(f.unitMultiplier)}`, f.storedAt, s.url, s.fetchedAt, s.sha256 ?? ""]
      : [f.rate, `1${"0".repeat(f.unitMultiplier)}`, f.storedAt, s.declaredUrl ?? "", "", s.sha256 ?? ""];
  };
  const origin = (f: Correction["previous"]) => {
    const s = sourceJson(f.source);
    return s.kind === "fetch" ? ["fetch", "", "", ""] : ["import", s.file ?? "", s.importedBy ?? "", s.importedAt];
  };
  return doc.corrections.map((c) => [
    doc.bankId,
    c.effectiveDate,
    c.currency,
    ...figure(c.previous),
    ...figure(c.current),
    ...origin(c.previous),
    ...origin(c.current),
  ]);
}

const csvField = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

export function correctionsCsv(doc: CorrectionsDocument): string {
  return [CORRECTIONS_HEADER as readonly string[], ...correctionRows(doc)]
    .map((row) => `${row.map(csvField).join(",")}\n`)
    .join("");
}

const xmlText = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const column = (i: number) => String.fromCharCode(65 + i);

/** XLSX: one sheet "Corrections", every cell text (a figure is its stored decimal text). */
export function correctionsXlsx(doc: CorrectionsDocument): Buffer {
  const rows = [CORRECTIONS_HEADER as readonly string[], ...correctionRows(doc)];
  const sheet =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' +
    rows
      .map(
        (row, r) =>
          `<row r="${r + 1}">${row.map((v, i) => `<c r="${column(i)}${r + 1}" t="inlineStr"><is><t>${xmlText(v)}</t></is></c>`).join("")}</row>`,
      )
      .join("") +
    "</sheetData></worksheet>";
  const xml = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
  const entries = [
    {
      name: "[Content_Types].xml",
      data: `${xml}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
    },
    {
      name: "_rels/.rels",
      data: `${xml}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    },
    {
      name: "xl/_rels/workbook.xml.rels",
      data: `${xml}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    },
    {
      name: "xl/workbook.xml",
      data: `${xml}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Corrections" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    },
    { name: "xl/worksheets/sheet1.xml", data: sheet },
  ];
  const newest = doc.corrections.at(-1)?.current.storedAt;
  return Buffer.concat([...zipStream(entries, new Date(newest ?? `${doc.to}T00:00:00Z`))]);
}
