/**
 * Imports run downward only (DESIGN §9, STYLE: the layering of changesets): model ← {config, api} ←
 * {change, plan} ← {apply, adopt} ← run ← render ← {cli, action}. This reads every import of src/ (type-only
 * ones included) and fails on an edge that runs upward, on a circle of modules, and on two modules that
 * share a name for different jobs (DESIGN §9). It also holds src/ to STYLE's sizes: no file over 300 lines, no
 * function over 60, and at most 7 functions over STYLE's 40 (the sandbox, an imitation, aside).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SRC = dirname(new URL(import.meta.url).pathname);

/** What each layer may import besides itself; a layer not listed here (cli, action, the root files) is a top. */
const ALLOWED: Record<string, readonly string[]> = {
  "errors.ts": [],
  model: ["errors.ts"],
  config: ["model", "errors.ts"],
  api: ["model", "errors.ts"],
  change: ["model", "errors.ts", "config", "api"],
  plan: ["model", "errors.ts"],
  apply: ["model", "errors.ts", "config", "api", "plan"],
  adopt: ["model", "errors.ts", "config", "plan"],
  run: ["model", "errors.ts", "config", "api", "change", "plan", "apply", "adopt"],
  render: ["model", "errors.ts", "config", "plan", "apply", "adopt", "run"],
  // STYLE 18: the imitation keeps its own counsel; it imports nothing of the client it checks.
  sandbox: [],
};

/**
 * File names that say a role every folder may have, not a job: a folder's types, its re-exports, an
 * adapter's entry. The CLI's command files are named after their command (`cli/plan.ts` runs `sitesync plan`),
 * and the sandbox's after the part of the API it imitates (`sandbox/_websites.ts` answers what
 * `api/websites.ts` asks): the imitation is compared with itself only.
 */
const ROLE_NAMES = new Set(["types.ts", "index.ts", "main.ts"]);

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

/** A path's layer: its top folder, or a root file; `errors/` holds the parts that `errors.ts` re-exports. */
function layerOf(path: string): string {
  const top = path.split("/")[0]!;
  return top === "errors" ? "errors.ts" : top;
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
    const present = Object.keys(ALLOWED).filter((l) => l !== "errors.ts" && existsSync(join(SRC, l)));
    expect(present.filter((l) => !layers.has(l))).toEqual([]);
  });

  it("has no import that runs upward", () => {
    expect(edges.filter(upward).map((e) => `${e.from} imports ${e.to}`)).toEqual([]);
  });

  it("has no circle of imports, type-only ones included", () => {
    expect(circles(edges)).toEqual([]);
  });

  it("finds a circle when there is one", () => {
    const circle = [
      { from: "a.ts", to: "b.ts" },
      { from: "b.ts", to: "c.ts" },
      { from: "c.ts", to: "a.ts" },
    ];
    expect(circles(circle)).toEqual([["a.ts", "b.ts", "c.ts"]]);
    expect(circles(circle.slice(0, 2))).toEqual([]);
  });

  it("gives no two modules the same name (the leading _ aside), but for role names and the CLI's commands", () => {
    expect(sameNames(sources(SRC).map((file) => relative(SRC, file).split(sep).join("/")))).toEqual([]);
    const pairs = [
      "api/client.ts",
      "run/client.ts",
      "api/redact.ts",
      "run/_redact.ts",
      "api/paginate.ts",
      "sandbox/_paginate.ts",
      "cli/plan.ts",
      "plan/plan.ts",
    ];
    expect(sameNames(pairs)).toEqual(["client.ts: api/client.ts, run/client.ts", "redact.ts: api/redact.ts, run/_redact.ts"]);
  });

  it("exports no internal (_) module from the package: _ means internal, never exported", () => {
    const reexports = sources(SRC)
      .filter((file) => basename(file) === "index.ts")
      .flatMap(importsOf)
      .filter((edge) => basename(edge.to).startsWith("_"));
    expect(reexports.map((e) => `${e.from} exports ${e.to}`)).toEqual([]);
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

/** The limits: a file, a function, and how many functions may pass STYLE's 40 lines. */
const MAX_FILE_LINES = 300;
const MAX_FUNCTION_LINES = 60;
const LONG_FUNCTION_LINES = 40;
const MAX_LONG_FUNCTIONS = 7;

interface Size {
  /** `api/http.ts:12 send`: where it starts and its name, or `(anonymous)`. */
  where: string;
  lines: number;
}

/** The lines of every function-like node of one file (its first token to its last; a leading comment aside). */
function functionSizes(path: string, text: string): Size[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const sizes: Size[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      sizes.push({ where: `${path}:${first + 1} ${nameOf(node)}`, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return sizes;
}

function nameOf(node: ts.Node): string {
  const named = node as { name?: ts.Node };
  if (named.name && ts.isIdentifier(named.name)) return named.name.text;
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && ts.isIdentifier(parent.name))
    return parent.name.text;
  return "(anonymous)";
}

/** What breaks the limits in `files` (path → text): long files, over-long functions, too many long functions. */
function oversized(files: ReadonlyMap<string, string>): string[] {
  const problems: string[] = [];
  const long: Size[] = [];
  for (const [path, text] of files) {
    const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    if (lines > MAX_FILE_LINES) problems.push(`${path}: ${lines} lines (at most ${MAX_FILE_LINES})`);
    for (const size of functionSizes(path, text)) {
      if (size.lines > MAX_FUNCTION_LINES) problems.push(`${size.where}: ${size.lines} lines (at most ${MAX_FUNCTION_LINES})`);
      if (size.lines > LONG_FUNCTION_LINES) long.push(size);
    }
  }
  if (long.length > MAX_LONG_FUNCTIONS) {
    const list = long.map((s) => `${s.where} (${s.lines})`).join(", ");
    problems.push(`${long.length} functions over ${LONG_FUNCTION_LINES} lines (at most ${MAX_LONG_FUNCTIONS}): ${list}`);
  }
  return problems;
}

describe("sizes (STYLE: short functions, files of one job)", () => {
  it("has no file over 300 lines, no function over 60, and at most 7 over 40 in src/, the sandbox aside", () => {
    const files = sources(SRC)
      .map((file) => relative(SRC, file).split(sep).join("/"))
      .filter((path) => layerOf(path) !== "sandbox");
    expect(oversized(new Map(files.map((path) => [path, readFileSync(join(SRC, path), "utf8")])))).toEqual([]);
  });

  it("names a file, a function and a crowd of long functions when they pass the limits", () => {
    const body = (n: number) => Array.from({ length: n - 2 }, (_, i) => `  const a${i} = ${i};`).join("\n");
    const fn = (name: string, n: number) => `function ${name}() {\n${body(n)}\n}\n`;
    expect(oversized(new Map([["a.ts", fn("fine", 60)]]))).toEqual([]);
    expect(oversized(new Map([["a.ts", fn("long", 61)]]))).toEqual(["a.ts:1 long: 61 lines (at most 60)"]);
    expect(oversized(new Map([["a.ts", `${"\n".repeat(300)}`]]))).toEqual([]);
    expect(oversized(new Map([["a.ts", `${"\n".repeat(301)}`]]))).toEqual(["a.ts: 301 lines (at most 300)"]);
    const crowd = new Map(Array.from({ length: 8 }, (_, i) => [`f${i}.ts`, `const g = () => {\n${body(41)}\n};\n`]));
    expect(oversized(crowd)).toEqual([expect.stringMatching(/^8 functions over 40 lines \(at most 7\): f0.ts:1 g \(41\)/)]);
    crowd.delete("f7.ts");
    expect(oversized(crowd)).toEqual([]);
  });
});

/** Every strongly connected set of more than one module, each sorted, found by Tarjan's algorithm. */
function circles(edges: readonly Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (stack.includes(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      group.push(member);
    } while (member !== node);
    if (group.length > 1) found.push(group.sort());
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** `name: path, path` for each file name (without a leading `_`) that two modules share. */
function sameNames(paths: readonly string[]): string[] {
  const byName = new Map<string, string[]>();
  for (const path of paths) {
    const name = `${path.startsWith("sandbox/") ? "sandbox " : ""}${basename(path).replace(/^_/, "")}`;
    if (ROLE_NAMES.has(basename(path)) || path.startsWith("cli/")) continue;
    byName.set(name, [...(byName.get(name) ?? []), path]);
  }
  return [...byName].filter(([, all]) => all.length > 1).map(([name, all]) => `${name}: ${all.sort().join(", ")}`);
}
