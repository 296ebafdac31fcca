/** The longest word told what it may be a typo of: every key and name it is compared with is far shorter. */
const MAX_TYPO_LENGTH = 64;

/**
 * The closest candidate to a mistyped word, or `undefined` when none is close enough to be a likely typo.
 * Case, `-` for `_` and camelCase (`maxDeletes`) are forgiven before distances are measured.
 */
export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  // A word this long is no slip of a key or a name; its distance would cost its length times theirs in memory.
  if (word.length > MAX_TYPO_LENGTH) return undefined;
  const wanted = canonical(word);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(wanted, canonical(candidate));
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  // Allow about one slip per three letters: "privcy" → "privacy", but "url" is not "email".
  const limit = Math.max(1, Math.floor(wanted.length / 3));
  return bestDistance <= limit ? best : undefined;
}

function canonical(word: string): string {
  return word
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replaceAll("-", "_");
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours cost 1. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => rows[i]?.[j] ?? Infinity;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      row[j] = best;
    }
  }
  return at(a.length, b.length);
}
