/**
 * StoreWebsiteRequest's domain regex (API-NOTES §2.4), ported here on purpose and not shared with the client
 * (STYLE 18: an oracle that shares code with what it checks passes the same bug):
 *
 *     ^(?!:\/\/)(?=.{1,255}$)((.{1,63}\.){1,127}(?![0-9]*$)[a-z0-9-]+\.?)$
 *     |^((25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)(\.|$)){4}$                        (case-insensitive)
 *
 * The second alternative runs as written: it cannot backtrack far. The first backtracks exponentially on a
 * name with many dots that fails at its end (20 `a..` take a minute), so it is simulated instead: the set of
 * positions `(.{1,63}\.)` repetitions can reach, each with the fewest repetitions that reach it, then the tail
 * checked at each. `.` is JavaScript's, as the regex would run here: anything but a line terminator.
 */
const DOTTED_QUAD = /^((25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)(\.|$)){4}$/i;
const TAIL = /^[a-z0-9-]+\.?$/i;
const ALL_DIGITS = /^[0-9]*$/;
const LINE_TERMINATOR = /[\n\r\u2028\u2029]/;

export function matchesDomainRule(name: string): boolean {
  return matchesName(name) || DOTTED_QUAD.test(name);
}

function matchesName(name: string): boolean {
  // (?!:\/\/)(?=.{1,255}$): and since `.` never crosses a line terminator, none may appear anywhere.
  if (name.startsWith("://") || name.length < 1 || name.length > 255 || LINE_TERMINATOR.test(name)) return false;
  // repetitions[i]: the fewest `(.{1,63}\.)` that match name[0, i), or undefined when none do.
  const repetitions: (number | undefined)[] = [0];
  for (let start = 0; start < name.length; start++) {
    const before = repetitions[start];
    if (before === undefined) continue;
    for (let dot = start + 1; dot <= Math.min(start + 63, name.length - 1); dot++) {
      if (name[dot] !== ".") continue;
      const next = dot + 1;
      repetitions[next] = Math.min(repetitions[next] ?? Infinity, before + 1);
    }
  }
  for (let end = 1; end < name.length; end++) {
    const count = repetitions[end];
    if (count === undefined || count > 127) continue;
    const rest = name.slice(end);
    if (!ALL_DIGITS.test(rest) && TAIL.test(rest)) return true;
  }
  return false;
}
