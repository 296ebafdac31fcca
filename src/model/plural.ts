/**
 * Every plural of every message, in one place (DESIGN §9: words are chosen once): `plural(2, "website")` is `"2 websites"`, and
 * `agree(n, "was", "were")` picks the word that agrees with a count (`it`/`them`, `its`/`their`...).
 */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** `one` for a count of one, else `many`. */
export function agree(count: number, one: string, many: string): string {
  return count === 1 ? one : many;
}
