/**
 * The slips `npm run mutants` plants (scripts/mutants.ts), one at a time: each is a small, realistic bug in
 * one file, the exact text it replaces (found exactly once, or the slip is reported as an error), and the
 * test files that must catch it. Grow the list with every change that adds a rule worth guarding; when code
 * moves, update `file` and `find` here (the script says which slips no longer apply).
 */
export interface Mutant {
  /** Short and unique: `--only` selects by it. */
  id: string;
  file: string;
  find: string;
  replace: string;
  /** The behaviour a user would lose. */
  description: string;
  /** Test files (from the repository root) that cover it; `test/action/*` runs the rebuilt bundle. */
  tests: string[];
  /** Only the tests whose names match this pattern (vitest `-t`). */
  names?: string;
}

export const MUTANTS: readonly Mutant[] = [
  {
    id: "pacing-pause-reported-per-request",
    file: "src/api/rate-gate.ts",
    find: "if (retryAt > this.#pausedUntil) this.#onWait?.(",
    replace: "this.#onWait?.(",
    description: "a pause is reported once per held request instead of once per pause",
    tests: ["test/api/pacing.test.ts"],
  },
  {
    id: "pacing-headerless-answer-free",
    file: "src/api/rate-gate.ts",
    find: "this.#remaining--; // no count came back",
    replace: "// no count came back",
    description: "an answer without rate headers no longer counts against the budget",
    tests: ["test/api/pacing.test.ts"],
  },
  {
    id: "pacing-post-5xx-wait-ends-run",
    file: "src/api/http.ts",
    find: 'const retried5xx = result.status >= 500 && exchange.method !== "POST";',
    replace: "const retried5xx = result.status >= 500;",
    description: "a POST's 5xx Retry-After beyond --max-wait ends the run although POSTs are not retried",
    tests: ["test/api/pacing.test.ts"],
  },
  {
    id: "pacing-ignores-remaining",
    file: "src/api/rate-gate.ts",
    find: "if (!this.#paced || this.#remaining - this.#inFlight > 0) return 0;",
    replace: "if (!this.#paced || this.#remaining > 0) return 0;",
    description: "the gate forgets the requests in flight and overruns the window",
    tests: ["test/api/pacing.test.ts"],
  },
  {
    id: "pacing-window-not-learned",
    file: "src/api/rate-gate.ts",
    find: "this.#windowMs = Math.max(this.#windowMs, retryAt - this.#windowStart);",
    replace: "void 0;",
    description: "a 429's Retry-After no longer teaches the gate a longer window",
    tests: ["test/api/pacing.test.ts"],
  },
];
