/**
 * The slips of `npm run mutants` stay plantable as code moves: each slip's text is found exactly once in its
 * file, and each test file it names exists (vitest given a path that matches nothing fails, which the script
 * would count as the slip caught). Milliseconds: it reads files, it runs nothing.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { MUTANTS } from "./mutants.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

describe("test/mutants.ts", () => {
  it("names each slip once", () => {
    const ids = MUTANTS.map((m) => m.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it.each(MUTANTS.map((m) => [m.id, m] as const))("%s: its text is found once, and its tests exist", (_, mutant) => {
    const path = join(ROOT, mutant.file);
    expect(existsSync(path), mutant.file).toBe(true);
    expect(readFileSync(path, "utf8").split(mutant.find).length - 1, `${mutant.file}: ${mutant.find}`).toBe(1);
    expect(mutant.tests.filter((test) => !existsSync(join(ROOT, test)))).toEqual([]);
  });
});
