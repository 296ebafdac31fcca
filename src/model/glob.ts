const compiled = new Map<string, RegExp>();

/**
 * Whether `name` matches a `policy.protect`/`policy.ignore` glob: case-insensitive, `*` matches any run of
 * characters (dots included, so `*.example.com` matches `a.b.example.com` but not `example.com`), `?` exactly
 * one character; every other character stands for itself.
 */
export function matchGlob(pattern: string, name: string): boolean {
  let regex = compiled.get(pattern);
  if (!regex) {
    const body = [...pattern.trim()]
      .map((char) => (char === "*" ? ".*" : char === "?" ? "." : char.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&")))
      .join("");
    regex = new RegExp(`^${body}$`, "is");
    compiled.set(pattern, regex);
  }
  return regex.test(name);
}

/** The first of `patterns` that `name` matches, to say which one applied. */
export function firstMatch(patterns: readonly string[], name: string): string | undefined {
  return patterns.find((pattern) => matchGlob(pattern, name));
}
