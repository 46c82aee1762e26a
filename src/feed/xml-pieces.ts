// A large XML answer read piece by piece. The tree parser (fast-xml-parser) costs about 30 times the
// text it is given (a 60 MB answer of 400,000 small elements: 1.7 GB), most of it in its own working
// nodes; the tree it returns costs a fraction of that. So an element larger than a piece is not given to
// the parser whole: its own tag is parsed alone, each child element is parsed (or split again) on its own,
// and the children are put together as the parser would have (one child an object, several an array, in
// document order). The result is the tree the parser gives for the whole text; what it takes at any
// moment is that tree plus one piece's working nodes.
//
// An element whose children stand among text of its own (mixed content) is parsed whole, as is a
// document with an internal DTD subset (its entities would not reach the pieces): the XML feeds have
// neither in a large answer. The text must have been validated first (parseXml does): the scan below
// finds element boundaries, it does not check them.

/** Elements larger than this (characters) are split into their children. */
export const XML_PIECE_CHARS = 256 * 1024;

type Tree = Record<string, unknown>;
type ParseWhole = (xml: string) => Tree;

interface Span {
  start: number;
  /** End of the open tag (just past its `>`). */
  openEnd: number;
  /** Start of the close tag, or `end` for a self-closing element. */
  closeStart: number;
  end: number;
  name: string;
}

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

function hasText(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isSpace(text.charCodeAt(i))) return true;
  return false;
}

/** Just past the `>` that ends the tag opening at `lt`, quotes respected. */
function tagEnd(text: string, lt: number): number {
  let quote = 0;
  for (let i = lt + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quote !== 0) {
      if (c === quote) quote = 0;
    } else if (c === 0x22 || c === 0x27) quote = c;
    else if (c === 0x3e) return i + 1;
  }
  throw new Error("an unclosed tag");
}

function nameAt(text: string, from: number): string {
  let i = from;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (isSpace(c) || c === 0x3e || c === 0x2f) break;
    i++;
  }
  return text.slice(from, i);
}

/** Past the comment, CDATA section, processing instruction or declaration starting at `lt` (`<!` or `<?`). */
function skipMarkup(text: string, lt: number): number {
  const close = text.startsWith("<!--", lt)
    ? "-->"
    : text.startsWith("<![CDATA[", lt)
      ? "]]>"
      : text.startsWith("<?", lt)
        ? "?>"
        : ">";
  const at = text.indexOf(close, lt);
  if (at < 0) throw new Error("unclosed markup");
  return at + close.length;
}

/**
 * The elements directly inside [from, to) (an element's content), or undefined when text or CDATA stands
 * among them (mixed content, parsed whole). Only the direct children's bounds and names are kept: deeper
 * tags are counted, not recorded, so a scan of a large answer allocates one span per child.
 */
function childrenOf(text: string, from: number, to: number): Span[] | undefined {
  const out: Span[] = [];
  let depth = 0;
  let start = 0;
  let openEnd = 0;
  let name = "";
  let i = from;
  for (;;) {
    const lt = text.indexOf("<", i);
    if (lt < 0 || lt >= to) return depth === 0 && !hasText(text, i, to) ? out : undefined;
    if (depth === 0 && hasText(text, i, lt)) return undefined;
    const next = text.charCodeAt(lt + 1);
    if (next === 0x21 || next === 0x3f) {
      // `<!` or `<?`: a comment, CDATA section, declaration or processing instruction.
      if (depth === 0 && text.startsWith("<![CDATA[", lt)) return undefined;
      i = skipMarkup(text, lt);
      continue;
    }
    const end = tagEnd(text, lt);
    if (next === 0x2f) {
      if (depth === 0) throw new Error("a close tag without its open tag");
      if (--depth === 0) out.push({ start, openEnd, closeStart: lt, end, name });
    } else if (text.charCodeAt(end - 2) === 0x2f) {
      if (depth === 0) out.push({ start: lt, openEnd: end, closeStart: end, end, name: nameAt(text, lt + 1) });
    } else {
      if (depth === 0) {
        start = lt;
        openEnd = end;
        name = nameAt(text, lt + 1);
      }
      depth++;
    }
    i = end;
  }
}

/** An element's children put together as the parser does: one of a name an object, several an array. */
class Children {
  readonly value: Tree = {};
  private readonly many = new Set<string>();

  put(name: string, v: unknown): void {
    if (!(name in this.value)) this.value[name] = v;
    else if (this.many.has(name)) (this.value[name] as unknown[]).push(v);
    else {
      this.value[name] = [this.value[name], v];
      this.many.add(name);
    }
  }

  /** The parser's value for a run of siblings: each name once, an array where it stood several times. */
  putAll(values: unknown): void {
    if (typeof values !== "object" || values === null) return;
    for (const [name, v] of Object.entries(values as Tree)) {
      if (Array.isArray(v)) for (const one of v) this.put(name, one);
      else this.put(name, v);
    }
  }
}

/**
 * The value the parser gives an element, split when it is larger than `piece`: runs of small children
 * are parsed together (a piece's worth at a time), a large child is split in turn.
 */
function elementValue(text: string, span: Span, parse: ParseWhole, piece: number): unknown {
  const whole = () => parse(text.slice(span.start, span.end))[span.name];
  if (span.end - span.start <= piece || span.closeStart === span.end) return whole();
  const children = childrenOf(text, span.openEnd, span.closeStart);
  if (children === undefined || children.length === 0) return whole();
  const out = new Children();
  let run = -1;
  let runEnd = -1;
  const flush = () => {
    if (run >= 0) out.putAll(parse(`<${span.name}>${text.slice(run, runEnd)}</${span.name}>`)[span.name]);
    run = -1;
  };
  for (const child of children) {
    if (child.end - child.start > piece) {
      flush();
      out.put(child.name, elementValue(text, child, parse, piece));
      continue;
    }
    if (run < 0) run = child.start;
    runEnd = child.end;
    if (runEnd - run >= piece) flush();
  }
  flush();
  // The element's own tag alone gives its attributes ("" when it has none); the parser puts them last.
  const own = parse(`${text.slice(span.start, span.openEnd)}</${span.name}>`)[span.name];
  if (typeof own === "object" && own !== null) Object.assign(out.value, own);
  return out.value;
}

/**
 * The tree `parse` gives for the whole of `text`, built piece by piece (see the head of this file).
 * `parse` must be the very parser used whole, with the same options.
 */
export function parseXmlInPieces(text: string, parse: ParseWhole, piece = XML_PIECE_CHARS): Tree {
  if (text.length <= piece || /<!DOCTYPE[^>]*\[/i.test(text.slice(0, 4096))) return parse(text);
  const top = childrenOf(text, 0, text.length);
  const root = top?.length === 1 ? top[0]! : undefined;
  if (root === undefined || root.closeStart === root.end) return parse(text);
  // The prolog and the root's own tag, parsed together, give the document's keys in the parser's order.
  const skeleton = parse(`${text.slice(0, root.openEnd)}</${root.name}>${text.slice(root.end)}`);
  skeleton[root.name] = elementValue(text, root, parse, piece);
  return skeleton;
}

/** A document read element by element: its root's own attributes, then each child of the root on its own. */
export interface XmlRoot {
  /** The root element's name. */
  name: string;
  /** The root's attributes in the parser's form (`{"@Date": "..."}`), `{}` when it has none. */
  attributes: Tree;
  /** The root's children of that name, each parsed alone, in document order. */
  elements(name: string): Generator<unknown>;
}

/**
 * A document whose root holds many elements, read one element at a time so that no tree of the whole
 * is ever built: what it takes is the text, one element's parse, and what the caller keeps.
 */
export function xmlRoot(text: string, parse: ParseWhole, piece = XML_PIECE_CHARS): XmlRoot {
  const top = childrenOf(text, 0, text.length);
  const root = top?.length === 1 ? top[0]! : undefined;
  if (root === undefined) throw new Error("no single root element");
  const own = parse(`${text.slice(root.start, root.openEnd).replace(/\/>$/, ">")}</${root.name}>`)[root.name];
  const attributes = typeof own === "object" && own !== null ? (own as Tree) : {};
  const children = root.closeStart === root.end ? [] : childrenOf(text, root.openEnd, root.closeStart);
  if (children === undefined) throw new Error(`text among the elements of <${root.name}>`);
  return {
    name: root.name,
    attributes,
    *elements(name: string) {
      // Runs of small elements are parsed together, a piece's worth at a time: one parse per element
      // would cost the parser's set-up half a million times in a large history.
      let run: Span[] = [];
      let runChars = 0;
      for (const child of children) {
        if (child.name !== name) continue;
        if (child.end - child.start > piece) {
          yield* valuesOfRun(text, root.name, name, run, parse);
          run = [];
          runChars = 0;
          yield elementValue(text, child, parse, piece);
          continue;
        }
        run.push(child);
        runChars += child.end - child.start;
        if (runChars >= piece) {
          yield* valuesOfRun(text, root.name, name, run, parse);
          run = [];
          runChars = 0;
        }
      }
      yield* valuesOfRun(text, root.name, name, run, parse);
    },
  };
}

/** The values of a run of sibling elements named `name`, parsed as one text inside their parent's tags. */
function valuesOfRun(text: string, parent: string, name: string, run: readonly Span[], parse: ParseWhole): unknown[] {
  if (run.length === 0) return [];
  const inner = run.map((span) => text.slice(span.start, span.end)).join("");
  const parsed = parse(`<${parent}>${inner}</${parent}>`)[parent] as Tree;
  const value = parsed[name];
  return run.length === 1 ? [value] : (value as unknown[]);
}
