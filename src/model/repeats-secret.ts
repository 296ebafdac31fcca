/**
 * Finding a secret in text as a server (or a config diagnostic) may repeat it: the test behind withholding
 * (DESIGN §12). Shared by the API client, the config loader and the run's redactor.
 */

/**
 * Whether `text` holds a secret, in any of the forms a server may echo it in, outside the values we sent
 * ourselves. Compared without case: withholding too much hides a message, too little leaks a secret.
 */
export function repeatsSecret(text: string, secrets: Iterable<string>, ours: readonly string[] = []): boolean {
  const haystack = text.toLowerCase();
  const secretSet = new Set(secrets);
  // Found only once a secret is: a config's diagnostics each search a text for its 100,000 values otherwise.
  let covered: [number, number][] | undefined;
  for (const secret of secretSet) {
    for (const form of encodings(secret)) {
      const needle = form.toLowerCase();
      for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) {
        covered ??= coveredRanges(
          haystack,
          ours.filter((value) => value && !secretSet.has(value)),
        );
        if (!covered.some(([start, end]) => start <= at && at + needle.length <= end)) return true;
      }
    }
  }
  return false;
}

function coveredRanges(haystack: string, ours: readonly string[]): [number, number][] {
  const ranges: [number, number][] = [];
  for (const value of new Set(ours.map((v) => v.toLowerCase()))) {
    for (let at = haystack.indexOf(value); at !== -1; at = haystack.indexOf(value, at + 1)) ranges.push([at, at + value.length]);
  }
  return ranges;
}

/** The secret as sent and as a server may write it back: URL or form encoded, JSON (PHP's too) or HTML escaped. */
function encodings(secret: string): Set<string> {
  const json = JSON.stringify(secret).slice(1, -1);
  const php = json.replaceAll("/", "\\/").replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  const html = secret.replace(
    /[&<>"']/g,
    (c) => `&${({ "&": "amp", "<": "lt", ">": "gt", '"': "quot", "'": "#039" } as Record<string, string>)[c]};`,
  );
  return new Set([secret, encodeURIComponent(secret), new URLSearchParams({ v: secret }).toString().slice(2), json, php, html]);
}
