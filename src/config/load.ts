import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Document } from "yaml";
import type { Diagnostic } from "../errors.ts";
import type { Env } from "./interpolate.ts";
import { interpolateDocument } from "./interpolate-document.ts";
import { createLocator, isRecord } from "./locate.ts";
import { normalize, type Normalized } from "./normalize.ts";
import { parseYaml } from "./parse-yaml.ts";
import { createRuleContext, RULES } from "./rules/index.ts";
import { validateSchema } from "./schema.ts";
import type { Config, LoadResult } from "./types.ts";

/** Options of {@link loadConfig}. */
export interface LoadOptions {
  /** Variables for `${VAR}` interpolation; `process.env` when left out. */
  env?: Env;
  /** The file's content, instead of reading `file` (which then only names it in diagnostics). */
  source?: string;
}

/**
 * Reads, validates and normalizes a config file (DESIGN §2): YAML with positions → `${VAR}` interpolation →
 * JSON Schema → normalization → semantic rules. Every problem of one run is reported together; bad input
 * (a missing file included) never throws but comes back as `{ ok: false, errors }`, each error at
 * `file:line:column`. Only YAML syntax errors stop the pipeline early, since the tree is then unreliable.
 */
export function loadConfig(file: string, options: LoadOptions = {}): LoadResult {
  const read = readSource(file, options.source);
  if ("error" in read) return { ok: false, errors: [read.error], warnings: [] };
  const parsed = parseYaml(file, read.text);
  if (parsed.diagnostics.some((d) => d.severity === "error")) return settle(parsed.diagnostics);

  const locate = createLocator(parsed.doc, parsed.lineCounter);
  const env = options.env ?? process.env;
  const interpolation = interpolateDocument(parsed.doc, file, read.text, env, locate);
  const data = toData(parsed.doc, file);
  if ("error" in data) return settle([...parsed.diagnostics, data.error]);

  const normalized = normalize(data.value, file, locate);
  const { ctx, diagnostics: ruleDiagnostics } = createRuleContext(file, isRecord(data.value) ? data.value : {}, normalized, locate);
  for (const rule of RULES) rule(ctx);
  // A value whose ${VAR} failed still holds the raw reference; checking it further would only add noise.
  const checked = [...validateSchema(data.value, file, locate), ...ruleDiagnostics].filter(
    (d) => !interpolation.failedPaths.has(d.path),
  );
  const diagnostics = [...parsed.diagnostics, ...interpolation.diagnostics, ...checked];
  if (diagnostics.some((d) => d.severity === "error")) return settle(diagnostics);

  const config = toConfig(file, read.digest, normalized, interpolation.passwordEnvValues);
  return { ok: true, config, warnings: sortByPosition(diagnostics) };
}

function readSource(file: string, source: string | undefined): { text: string; digest: string } | { error: Diagnostic } {
  let bytes: Buffer;
  try {
    bytes = source === undefined ? readFileSync(file) : Buffer.from(source, "utf8");
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a directory" : `cannot read it (${code ?? String(cause)})`;
    const message = `cannot read the config: ${why} (pass its path with -c/--config)`;
    return { error: { file, line: 1, column: 1, code: "file.unreadable", path: "", message, severity: "error" } };
  }
  return { text: bytes.toString("utf8"), digest: createHash("sha256").update(bytes).digest("hex") };
}

function toData(doc: Document, file: string): { value: unknown } | { error: Diagnostic } {
  try {
    return { value: doc.toJS() };
  } catch (cause) {
    // yaml refuses documents that expand aliases into a huge tree ("billion laughs").
    const message = `invalid YAML: ${(cause as Error).message}`;
    return { error: { file, line: 1, column: 1, code: "yaml.to-js", path: "", message, severity: "error" } };
  }
}

function toConfig(file: string, digest: string, normalized: Normalized, passwordEnvValues: string[]): Config {
  const passwords = [normalized.defaults.password, ...normalized.websites.map((e) => e.site.password)];
  // Parts of a password taken from the environment are secrets too, but a short one ("1") would mask
  // unrelated output everywhere, so only parts of 4 characters or more are listed.
  const parts = passwordEnvValues.filter((value) => value.length >= 4);
  const secrets = [...new Set([...passwords, ...parts])].filter((value): value is string => !!value);
  const config: Config = {
    file,
    digest,
    policy: normalized.policy,
    websites: normalized.websites.map((entry) => entry.site),
    secrets,
  };
  if (normalized.websitesUrl !== undefined) config.websitesUrl = normalized.websitesUrl;
  if (normalized.projectsUrl !== undefined) config.projectsUrl = normalized.projectsUrl;
  if (normalized.projects) config.projects = normalized.projects.map((entry) => entry.project);
  return config;
}

function settle(diagnostics: Diagnostic[]): LoadResult {
  const sorted = sortByPosition(diagnostics);
  return {
    ok: false,
    errors: sorted.filter((d) => d.severity === "error"),
    warnings: sorted.filter((d) => d.severity === "warning"),
  };
}

function sortByPosition(diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics.map((d, i) => ({ d, i })).sort((a, b) => a.d.line - b.d.line || a.d.column - b.d.column || a.i - b.i).map(({ d }) => d);
}
