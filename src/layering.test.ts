/**
 * Imports run downward only (DESIGN §9, STYLE: the layering of changesets): model ← {config, api, plan} ←
 * apply, render reads plan and apply data, and the adapters sit on top. This reads every import of src/ and
 * fails on an edge that runs upward.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = dirname(new URL(import.meta.url).pathname);

/** What each layer may import besides itself; a layer not listed here (cli, action, run, the root files) is a top. */
const ALLOWED: Record<string, readonly string[]> = {
  "errors.ts": [],
  model: ["errors.ts"],
  config: ["model", "errors.ts"],
  api: ["model", "errors.ts"],
  plan: ["model", "errors.ts"],
  apply: ["model", "errors.ts", "config", "api", "plan"],
  render: ["model", "errors.ts", "plan", "apply"],
  adopt: ["model", "errors.ts", "config", "plan"],
  // STYLE 18: the imitation keeps its own counsel; it imports nothing of the client it checks.
  sandbox: [],
};

interface Edge {
  from: string;
  to: string;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    // Tests may exercise a module together with what consumes it (a plan test renders, to check for secrets).
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

/** Every import of one of our modules: `import … from`, `export … from`, `import("…")`, relative paths only. */
function importsOf(file: string): Edge[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}\/[^"']+)["']/g)].map((m) => m[1]!);
  const inside = specifiers.map((s) => relative(SRC, resolve(dirname(file), s))).filter((p) => !p.startsWith(".."));
  return inside.map((to) => ({ from: relative(SRC, file).split(sep).join("/"), to: to.split(sep).join("/") }));
}

function layerOf(path: string): string {
  return path.split("/")[0]!;
}

function upward(edge: Edge): boolean {
  const from = layerOf(edge.from);
  const to = layerOf(edge.to);
  const allowed = ALLOWED[from];
  if (allowed === undefined || from === to) return false;
  return !allowed.includes(to);
}

describe("layering (DESIGN §9)", () => {
  const edges = sources(SRC).flatMap(importsOf);

  it("reads the imports of every layer", () => {
    const layers = new Set(edges.map((e) => layerOf(e.from)));
    expect([...Object.keys(ALLOWED)].filter((l) => l !== "errors.ts" && !layers.has(l))).toEqual([]);
  });

  it("has no import that runs upward", () => {
    expect(edges.filter(upward).map((e) => `${e.from} imports ${e.to}`)).toEqual([]);
  });

  it("keeps the sandbox apart: no import of the client's validation, decoding or model (STYLE 18)", () => {
    const shared = edges.filter((e) => layerOf(e.from) === "sandbox" && layerOf(e.to) !== "sandbox");
    expect(shared.map((e) => `${e.from} imports ${e.to}`)).toEqual([]);
    expect(upward({ from: "sandbox/_website-rules.ts", to: "model/website.ts" })).toBe(true);
  });

  it("names an upward import when there is one", () => {
    expect(upward({ from: "plan/plan.ts", to: "config/types.ts" })).toBe(true);
    expect(upward({ from: "model/website.ts", to: "plan/types.ts" })).toBe(true);
    expect(upward({ from: "apply/apply.ts", to: "plan/types.ts" })).toBe(false);
  });
});
