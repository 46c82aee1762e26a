// Folding labels for comparison, so that a bank's spelling variants meet one key.

/**
 * A label folded for comparison: accents and case dropped, punctuation and extra spaces removed
 * (`U.S. Dollar`, `us-dollar` and `US  DOLLAR` all fold to `us dollar`; `Février` to `fevrier`).
 */
export function foldName(label: string): string {
  return label
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}
