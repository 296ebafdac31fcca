/** Code-point order of two strings: the same everywhere, unlike `localeCompare` (plans, diffs and exports sort by it). */
export function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The index in a sorted list of numbers (line starts, offsets) where a value falls: the last entry at most the
 * value, or 0 when none is. Binary search, so a 100,000-line file costs about 17 steps an offset.
 */
export function lastAtMost(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((sorted[middle] as number) <= value) low = middle;
    else high = middle - 1;
  }
  return low;
}
