import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import type { Document } from "yaml";
import type { Diagnostic } from "../errors.ts";
import type { Env } from "./interpolate.ts";
import { type DocumentInterpolation, interpolateDocument, type UnsetEnv } from "./interpolate-document.ts";
import { type ConfigPath, createLocator, formatPath, isRecord, type Locator } from "./locate.ts";
import { type Normalized, normalize } from "./normalize.ts";
import { parseYaml } from "./parse-yaml.ts";
import { quoteSource } from "./quote-source.ts";
import { createRuleContext, RULES } from "./rules/index.ts";
import { validateSchema } from "./schema.ts";
import type { Config, LoadResult } from "./types.ts";

/** Options of {@link loadConfig}. */
export interface LoadOptions {
  /** Variables for `${VAR}` interpolation; `process.env` when left out. */
  env?: Env;
  /** The file's content, instead of reading `file` (which then only names it in diagnostics). */
  source?: string;
  /** `warning`: an unset `${VAR}` is a note, not an error (`validate` without `--strict-env`). Default `error`. */
  unsetEnv?: UnsetEnv;
  /** Sees each value read from the environment the moment it is read: a secret for masking (issue 12). */
  onSecret?: (value: string) => void;
}

/**
 * Reads, validates and normalizes a config file (DESIGN §2): YAML with positions → `${VAR}` interpolation →
 * JSON Schema → normalization → semantic rules. Every problem of one run is reported together; bad input
 * (a missing file included) never throws but comes back as `{ ok: false, errors }`, each error at
 * `file:line:column`. Only YAML syntax errors stop the pipeline early, since the tree is then unreliable.
 */
export function loadConfig(file: string, options: LoadOptions = {}): LoadResult {
  return loadDocument(file, options).result;
}

/**
 * What {@link loadDocument} read besides the result: the interpolated YAML tree with positions and the
 * normalized entries, for `export --update`, which edits the file that tree came from.
 * @internal
 */
export interface LoadedTree {
  doc: Document;
  locate: Locator;
  normalized: Normalized;
  /** Whether some value holds a `${VAR}`: the tree then depends on the environment it was loaded with. */
  interpolated: boolean;
}

/**
 * `loadConfig`, keeping the tree it parsed (issue 20: `export --update` parsed a 5,000-website file five
 * times). `envFor` picks the variables from the parsed tree, before interpolation, instead of `env`.
 * @internal
 */
export function loadDocument(
  file: string,
  options: LoadOptions & { envFor?: (doc: Document) => Env },
): { result: LoadResult; tree?: LoadedTree } {
  const read = readSource(file, options.source);
  if ("error" in read) return { result: { ok: false, errors: [read.error], warnings: [] } };
  const parsed = parseYaml(file, read.text);
  if (parsed.diagnostics.some((d) => d.severity === "error")) return { result: settle(parsed.diagnostics) };

  const locate = createLocator(parsed.doc, parsed.lineCounter);
  const env = options.envFor?.(parsed.doc) ?? options.env ?? process.env;
  const interpolation = interpolateDocument(parsed.doc, file, read.text, env, locate, options.unsetEnv, options.onSecret);
  const data = toData(parsed.doc, file);
  if ("error" in data) return { result: settle([...parsed.diagnostics, data.error]) };

  const normalized = normalize(data.value, file, locate);
  const { ctx, diagnostics: ruleDiagnostics } = createRuleContext(file, isRecord(data.value) ? data.value : {}, normalized, locate);
  for (const rule of RULES) rule(ctx);
  // A value whose ${VAR} failed still holds the raw reference; checking it further would only add noise.
  const checked = [...validateSchema(data.value, file, locate), ...ruleDiagnostics].filter((d) => !interpolation.failedPaths.has(d.path));
  // A password that is wrong anyway (a number, too long) has its error: the warning would only add noise.
  const wrong = new Set(checked.filter((d) => d.severity === "error").map((d) => d.path));
  const literal = literalPasswords(interpolation.literalPasswords, file, locate).filter((d) => !wrong.has(d.path));
  const diagnostics = quoteSource([...parsed.diagnostics, ...interpolation.diagnostics, ...checked, ...literal], interpolation);
  if (diagnostics.some((d) => d.severity === "error")) return { result: settle(diagnostics) };

  const config = toConfig(file, read.digest, normalized, interpolation);
  return {
    result: { ok: true, config, warnings: sortByPosition(diagnostics) },
    tree: { doc: parsed.doc, locate, normalized, interpolated: interpolation.interpolated.length > 0 },
  };
}

/**
 * The largest config read (DESIGN §12): 4x the export of a 100,000-website account (about 14 MB), so that
 * sitesync never refuses its own export (issue 20). A 14 MB file parses in seconds and about 1 GB of memory
 * (bench/RESULTS.md); the cap keeps a file from running the process out of memory, so no option raises it.
 */
export const MAX_CONFIG_BYTES = 64 * 2 ** 20;
const CONFIG_CAP_NOTE = "4 times the export of a 100,000-website account; the cap is fixed, since a larger file would not fit in memory";

/**
 * A config file's bytes, or why not: every read of a config goes through here, bounded (DESIGN §12).
 * @internal
 */
export function readConfigBytes(file: string): Buffer | string {
  return readBounded(file, MAX_CONFIG_BYTES, "a config", CONFIG_CAP_NOTE);
}

function readSource(file: string, source: string | undefined): { text: string; digest: string } | { error: Diagnostic } {
  const bytes = source === undefined ? readConfigBytes(file) : Buffer.from(source, "utf8");
  if (typeof bytes === "string") {
    const message = `cannot read the config: ${bytes} (${bytes === "no such file" ? `pass another path with -c/--config, or write one from the account: sitesync export --out ${file}` : "pass its path with -c/--config"})`;
    // The file as a whole: line 0 prints no position (a missing file has no line 1).
    return { error: { file, line: 0, column: 0, code: "file.unreadable", path: "", message, severity: "error" } };
  }
  if (source !== undefined && bytes.length > MAX_CONFIG_BYTES) {
    const message = `the config is ${mib(bytes.length)}, more than the ${mib(MAX_CONFIG_BYTES)} a config may be (${CONFIG_CAP_NOTE})`;
    return { error: { file, line: 0, column: 0, code: "file.unreadable", path: "", message, severity: "error" } };
  }
  const text = utf8(bytes);
  if (text === undefined || text.includes("\0")) {
    const message = "the config is not a UTF-8 text file (a binary file?): pass the YAML file with -c/--config";
    return { error: { file, line: 0, column: 0, code: "file.binary", path: "", message, severity: "error" } };
  }
  return { text, digest: configDigest(bytes) };
}

/**
 * A password written into the file itself (issue 20): the file is meant for git, where everyone who can read
 * the repository, now or in its history, reads the password too. A warning, since it works; `${VAR}` is the fix.
 */
function literalPasswords(paths: readonly ConfigPath[], file: string, locate: Locator): Diagnostic[] {
  return paths.map((path) => ({
    file,
    ...locate.value(path),
    code: "password.literal",
    path: formatPath(path),
    message:
      "the password is written in the file, so everyone who can read the repository (and its history) can read it: " +
      "write password: ${SITE_PASSWORD} and set that variable in the environment or as a CI secret",
    severity: "warning" as const,
  }));
}

function utf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The config's digest (DESIGN §3: saved plans and reviews record it): the sha256 of the file's bytes. */
export function configDigest(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * The file's bytes, or why not. Only a regular file of at most `maxBytes` is read (issue 12: a
 * path to /dev/zero or /dev/urandom crashed or hung `validate`). Opened non-blocking, so a FIFO cannot hang
 * the open; the checks are on the opened file, and the read stops one byte past the cap whatever it says.
 * @internal Not part of the library: its `Buffer` would need @types/node in every consumer.
 */
export function readBounded(file: string, maxBytes: number, what: string, capNote?: string): Buffer | string {
  const over = `more than the ${mib(maxBytes)} ${what} may be${capNote ? ` (${capNote})` : ""}`;
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    const stat = fstatSync(fd);
    if (stat.isDirectory()) return "it is a directory";
    if (!stat.isFile()) return "it is not a regular file (a device, a FIFO or a socket)";
    if (stat.size > maxBytes) return `it is ${mib(stat.size)}, ${over}`;
    // One byte more than the file said it holds: a file that grows while it is read is caught below.
    const buffer = Buffer.allocUnsafe(Math.min(stat.size, maxBytes) + 1);
    let length = 0;
    for (let n = -1; n !== 0 && length < buffer.length; length += n) n = readSync(fd, buffer, length, buffer.length - length, null);
    if (length > maxBytes) return `it is ${over}`;
    if (length > stat.size) return "it changed while it was read: try again";
    return buffer.subarray(0, length);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    return code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a directory" : `cannot read it (${code ?? String(cause)})`;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function mib(bytes: number): string {
  return `${Number((bytes / 2 ** 20).toFixed(1))} MiB`;
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

function toConfig(file: string, digest: string, normalized: Normalized, interpolation: DocumentInterpolation): Config {
  const { passwordEnvValues } = interpolation;
  const passwords = [normalized.defaults.password, ...normalized.websites.map((e) => e.site.password)];
  // Parts of a password taken from the environment are secrets too, but a short one ("1") would mask
  // unrelated output everywhere, so only parts of 4 characters or more are listed.
  const parts = passwordEnvValues.filter((value) => value.length >= 4);
  const secrets = [...new Set([...passwords, ...parts])].filter((value): value is string => !!value);
  const config: Config = {
    file,
    digest,
    policy: normalized.policy,
    defaults: normalized.defaults,
    websites: normalized.websites.map((entry) => entry.site),
    secrets,
  };
  notePasswordRefs(config, normalized, interpolation);
  if (normalized.websitesUrl !== undefined) config.websitesUrl = normalized.websitesUrl;
  if (normalized.projectsUrl !== undefined) config.projectsUrl = normalized.projectsUrl;
  if (normalized.projects) config.projects = normalized.projects.map((entry) => entry.project);
  return config;
}

/**
 * Where a password is written with `${VAR}`, what is written (the reference) beside the value: the change
 * between two revisions compares the reference, so a base needs no secret (DESIGN §3). A password that
 * comes from `defaults` has the reference written there.
 */
function notePasswordRefs(config: Config, normalized: Normalized, interpolation: DocumentInterpolation): void {
  const written = new Map(interpolation.interpolated.map((entry) => [entry.path, entry.source]));
  const defaultsRef = written.get("defaults.password");
  if (defaultsRef !== undefined) config.defaults = { ...config.defaults, passwordRef: defaultsRef };
  for (const entry of normalized.websites) {
    const ref = entry.fromDefaults.has("password") ? defaultsRef : written.get(`${formatPath(entry.path)}.password`);
    if (ref !== undefined && entry.site.password !== undefined) entry.site.passwordRef = ref;
  }
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
  return diagnostics
    .map((d, i) => ({ d, i }))
    .sort((a, b) => a.d.line - b.d.line || a.d.column - b.d.column || a.i - b.i)
    .map(({ d }) => d);
}
