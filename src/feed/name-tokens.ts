// Currency names cut into comparable words, for the resolver (currency-names.ts). Both sides of every
// comparison (the bank's label and the names we know) go through the same rules, so a rule only has to
// be consistent, not linguistically right:
// - accents, case and punctuation are folded (foldName), parentheses included ("Pound Sterling (G.B.)"
//   is "pound sterling gb");
// - a run of single letters is one abbreviation ("U.S.A." and "USA" are "usa", "U. K." is "uk");
// - small words that carry no meaning in a currency name are dropped (of, the, and, de, des, du, la...);
// - inflections meet one stem: a final plural s is dropped, then a final e ("dollars" and "dollar",
//   "couronnes" and "couronne", "bolívares" and "bolívar"), and the Nordic crown's forms (krone, krona,
//   kroner, kronor, krónur) are one word.
import { foldName } from "./fold.js";

/** Words dropped from names: articles, prepositions and conjunctions (English, French, Spanish, Portuguese, German). */
const FILLERS: ReadonlySet<string> = new Set(
  "of the and de des du d la le les l el los las del da das do dos e et y und".split(" "),
);

/** The Nordic crown in its Danish, Norwegian, Swedish, Icelandic and Faroese forms, singular and plural. */
const CROWN = /^kron(?:e|a|er|or|ur|en)?$/;

/** The stem of one folded word. */
export function stemWord(word: string): string {
  if (CROWN.test(word)) return "kron";
  let stem = word;
  if (stem.length > 4 && stem.endsWith("s") && !/(?:ss|us)$/.test(stem)) stem = stem.slice(0, -1);
  if (stem.length > 4 && stem.endsWith("e")) stem = stem.slice(0, -1);
  return stem;
}

/** The folded words of a label, single-letter runs joined, fillers dropped, not yet stemmed. */
export function nameWords(label: string): string[] {
  const words: string[] = [];
  let letters = "";
  for (const word of foldName(label).split(" ")) {
    if (word === "") continue;
    if (word.length === 1 && /\p{L}/u.test(word)) {
      letters += word;
      continue;
    }
    if (letters) words.push(letters);
    letters = "";
    words.push(word);
  }
  if (letters) words.push(letters);
  return words.filter((w) => !FILLERS.has(w));
}

/** The stems of a label, in its order: `U.S.A. Dollars` is ["usa", "dollar"]. */
export function nameStems(label: string): string[] {
  return nameWords(label).map(stemWord);
}

/** A key that ignores word order: the stems sorted and joined. */
export function stemKey(stems: readonly string[]): string {
  return [...stems].sort().join(" ");
}

/**
 * The optimal-string-alignment distance of two words (Levenshtein with adjacent transpositions counted
 * as one edit: "bhat" is one edit from "baht"), or `limit + 1` as soon as it must exceed `limit`.
 */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      row.push(d);
      best = Math.min(best, d);
    }
    if (best > limit) return limit + 1;
    prev2 = prev;
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * How many edits a word may be from a known one and still count as a misspelling of it: none for a word
 * of three letters or fewer (an abbreviation: "ec" is not "us"), one up to six letters, two from seven.
 */
export function editsAllowed(word: string): number {
  return word.length <= 3 ? 0 : word.length <= 6 ? 1 : 2;
}
