// Reading the text layer of banks' PDF bulletins with pdfjs-dist (legacy build, Node): every text
// run with its position, and the runs grouped into visual lines. Figures stay the text the PDF
// draws; nothing here turns them into numbers. A body that is not a PDF, or that pdfjs cannot
// open (truncated, damaged), is a FeedError naming the bank.
import { FeedError } from "../errors.js";
import { looksLikeHtml } from "./body.js";

/** One run of text as the PDF draws it: x and y of its origin (PDF units, y grows upwards). */
export interface PdfTextRun {
  page: number;
  text: string;
  x: number;
  y: number;
  width: number;
}

/** One visual line: the runs sharing a baseline, left to right (blank runs dropped). */
export interface PdfLine {
  page: number;
  y: number;
  runs: PdfTextRun[];
  /** The runs' texts joined by single spaces. */
  text: string;
}

/** True when the bytes start like a PDF file (`%PDF-`), allowing leading whitespace. */
export function looksLikePdf(body: Uint8Array): boolean {
  const head = Buffer.from(body.subarray(0, 1024)).toString("latin1");
  return /^\s*%PDF-/.test(head);
}

/** Every non-blank text run of every page, in the PDF's drawing order. */
export async function pdfTextRuns(bankId: string, body: Uint8Array): Promise<PdfTextRun[]> {
  if (body.length === 0) throw new FeedError(bankId, "empty body where a PDF was expected");
  if (!looksLikePdf(body)) {
    const text = Buffer.from(body.subarray(0, 2048)).toString("utf8");
    if (looksLikeHtml(text))
      throw new FeedError(bankId, "an HTML page where a PDF was expected (an error or WAF page?)");
    throw new FeedError(bankId, "not a PDF document (no %PDF- header)");
  }
  // pdfjs (and the canvas it loads) is imported at the first PDF read, not with the adapters that may
  // read one: every command that loads the adapters would otherwise pay for it.
  const { getDocument, VerbosityLevel } = await import("pdfjs-dist/legacy/build/pdf.mjs");
  let doc;
  try {
    // pdfjs takes ownership of (and detaches) the buffer it is given: hand it a copy.
    doc = await getDocument({
      data: new Uint8Array(body),
      isEvalSupported: false,
      useSystemFonts: false,
      disableFontFace: true,
      verbosity: VerbosityLevel.ERRORS,
    }).promise;
  } catch (error) {
    throw new FeedError(bankId, `unreadable PDF (${(error as Error).message})`);
  }
  const runs: PdfTextRun[] = [];
  try {
    for (let p = 1; p <= doc.numPages; p++) {
      const page = await doc.getPage(p);
      const content = await page.getTextContent();
      for (const item of content.items) {
        if (!("str" in item) || item.str.trim() === "") continue;
        runs.push({
          page: p,
          text: item.str,
          x: item.transform[4] as number,
          y: item.transform[5] as number,
          width: item.width,
        });
      }
    }
  } catch (error) {
    throw new FeedError(bankId, `unreadable PDF page (${(error as Error).message})`);
  } finally {
    await doc.destroy();
  }
  return runs;
}

/**
 * The runs grouped into lines: runs of one page whose baselines differ by at most `tolerance`
 * units share a line. Lines run top to bottom, runs left to right.
 */
export function pdfLines(runs: PdfTextRun[], tolerance = 2): PdfLine[] {
  const sorted = [...runs].sort((a, b) => a.page - b.page || b.y - a.y || a.x - b.x);
  const lines: PdfLine[] = [];
  for (const run of sorted) {
    const last = lines.at(-1);
    if (last && last.page === run.page && Math.abs(last.y - run.y) <= tolerance) last.runs.push(run);
    else lines.push({ page: run.page, y: run.y, runs: [run], text: "" });
  }
  for (const line of lines) {
    line.runs.sort((a, b) => a.x - b.x);
    line.text = line.runs.map((r) => r.text.trim()).join(" ");
  }
  return lines;
}
