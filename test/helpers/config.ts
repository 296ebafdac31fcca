import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadText } from "../../src/config/load.ts";
import { createLocator, isRecord } from "../../src/config/locate.ts";
import { normalize } from "../../src/config/normalize.ts";
import { parseYaml } from "../../src/config/parse-yaml.ts";
import { createRuleContext, type Rule } from "../../src/config/rules/index.ts";
import type { Config, LoadResult } from "../../src/config/types.ts";
import type { Diagnostic } from "../../src/errors.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

/** Every YAML file of test/fixtures and examples/, as `[path from the repository, text]`. */
export function fixtureAndExampleFiles(): [string, string][] {
  return [...yamlFiles(join(ROOT, "test/fixtures")), ...yamlFiles(join(ROOT, "examples"))].map((path) => [
    path.slice(ROOT.length),
    readFileSync(path, "utf8"),
  ]);
}

/** `3:5 websites[0].privacy: must be ...`, with `(warning)` before the path of a warning. */
function formatLine(d: Diagnostic): string {
  const severity = d.severity === "warning" ? "(warning) " : "";
  return `${d.line}:${d.column} ${severity}${d.path ? `${d.path}: ` : ""}${d.message}`;
}

/** Every diagnostic of a load, errors first, in the form of `formatLine`. */
export function diagnosticsOf(result: LoadResult): string[] {
  return [...(result.ok ? [] : result.errors), ...result.warnings].map(formatLine);
}

/** Loads one config text, as `loadConfig` loads a root file that includes no other (its pure steps alone). */
export function load(source: string, env: Record<string, string | undefined> = {}): LoadResult {
  return loadText("sitesync.yaml", source, { env }).result;
}

/** Loads a config that must be valid, failing the test with its diagnostics otherwise. */
export function loadOk(source: string, env: Record<string, string | undefined> = {}): Config {
  const result = load(source, env);
  if (!result.ok) throw new Error(`expected a valid config:\n${diagnosticsOf(result).join("\n")}`);
  return result.config;
}

/** Runs one semantic rule alone over a (schema-valid) config, as `loadConfig` would. */
export function checkRule(rule: Rule, source: string): string[] {
  const { doc, lineCounter } = parseYaml("sitesync.yaml", source);
  const locate = createLocator(doc, lineCounter);
  const data: unknown = doc.toJS();
  const normalized = normalize(data, "sitesync.yaml", locate);
  const { ctx, diagnostics } = createRuleContext("sitesync.yaml", isRecord(data) ? data : {}, normalized, locate);
  rule(ctx);
  return diagnostics.map(formatLine);
}

/** Indents a block of YAML lines, so tests can write `websites:` entries flush left. */
export function yaml(strings: TemplateStringsArray, ...values: unknown[]): string {
  const text = String.raw({ raw: strings }, ...values).replace(/^\n/, "");
  const indent = /^ */.exec(text)?.[0].length ?? 0;
  return text
    .split("\n")
    .map((line) => line.slice(indent))
    .join("\n");
}
