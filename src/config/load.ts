import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { dirname, relative } from "node:path";
import type { Document } from "yaml";
import type { Diagnostic } from "../errors.ts";
import { readIncludes } from "./include.ts";
import type { Env } from "./interpolate.ts";
import { type DocumentInterpolation, interpolateDocument, type UnsetEnv } from "./interpolate-document.ts";
import { createLocator, formatPath, isRecord, type Locator } from "./locate.ts";
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
  /** Reads an included file (bytes, or why not); from disk, bounded, when left out. */
  readFile?: (file: string) => Buffer | string;
}

/**
 * Reads, validates and normalizes a config (DESIGN §2): YAML with positions → `${VAR}` interpolation →
 * JSON Schema → normalization → semantic rules, for the root file and each file its `include:` names, then
 * the checks across files (a domain listed twice, wherever). Every problem of one run is reported together;
 * bad input (a missing file included) never throws but comes back as `{ ok: false, errors }`, each error at
 * its own `file:line:column`. Only YAML syntax errors stop a file early, since its tree is then unreliable.
 */
export function loadConfig(file: string, options: LoadOptions = {}): LoadResult {
  const read = readSource(file, options.source);
  if ("error" in read) return { ok: false, errors: [read.error], warnings: [] };
  const root = checkFile(file, read.text, options, undefined);
  if (root.part === undefined) return settle(root.diagnostics);

  const includes = readIncludes(file, root.part.data, root.locate, options.readFile ?? ((path) => readBounded(path)), configDigest);
  const inherited = { defaults: root.part.data.defaults, policy: root.part.data.policy };
  const parts = [root.part];
  const diagnostics = [...root.diagnostics, ...includes.diagnostics];
  for (const included of includes.files) {
    const checked = checkFile(included.file, included.text, options, inherited);
    diagnostics.push(...checked.diagnostics);
    if (checked.part) parts.push(checked.part);
  }
  diagnostics.push(...duplicatesAcrossFiles(parts));
  if (diagnostics.some((d) => d.severity === "error")) return settle(diagnostics);

  const digest = includes.files.length === 0 ? read.digest : digestOfAll(file, read.digest, includes.files);
  const config = toConfig(file, digest, parts);
  if (includes.files.length > 0) config.includes = includes.files.map(({ file: path, digest: d }) => ({ file: path, digest: d }));
  return { ok: true, config, warnings: sortByPosition(diagnostics) };
}

/** One file of the config, checked: what it says, normalized, beside how it was read. */
interface FilePart {
  file: string;
  data: Record<string, unknown>;
  normalized: Normalized;
  interpolation: DocumentInterpolation;
}

/**
 * The pipeline of one file. An included file (`inherited` given) is checked against the included-file
 * shape, and normalized under the root's policy and its defaults (its own `defaults` over them).
 */
function checkFile(
  file: string,
  text: string,
  options: LoadOptions,
  inherited: { defaults: unknown; policy: unknown } | undefined,
): { diagnostics: Diagnostic[]; part?: FilePart; locate: Locator } {
  const parsed = parseYaml(file, text);
  const locate = createLocator(parsed.doc, parsed.lineCounter);
  if (parsed.diagnostics.some((d) => d.severity === "error")) return { diagnostics: parsed.diagnostics, locate };
  const env = options.env ?? process.env;
  const interpolation = interpolateDocument(parsed.doc, file, text, env, locate, options.unsetEnv, options.onSecret);
  const data = toData(parsed.doc, file);
  if ("error" in data) return { diagnostics: [...parsed.diagnostics, data.error], locate };
  const own = isRecord(data.value) ? data.value : {};

  const view =
    inherited === undefined ? own : { ...own, defaults: mergedDefaults(inherited.defaults, own.defaults), policy: inherited.policy };
  const normalized = normalize(view, file, locate);
  const { ctx, diagnostics: ruleDiagnostics } = createRuleContext(file, own, normalized, locate);
  for (const rule of RULES) rule(ctx);
  // A root that includes other files may list no websites itself.
  const schemaData =
    inherited === undefined && own.include !== undefined && own.websites === undefined ? { ...own, websites: [] } : data.value;
  const schema = validateSchema(schemaData, file, locate, inherited === undefined ? "root" : "included");
  // A value whose ${VAR} failed still holds the raw reference; checking it further would only add noise.
  const checked = [...schema, ...ruleDiagnostics].filter((d) => !interpolation.failedPaths.has(d.path));
  const diagnostics = quoteSource([...parsed.diagnostics, ...interpolation.diagnostics, ...checked], interpolation);
  return { diagnostics, part: { file, data: own, normalized, interpolation }, locate };
}

function mergedDefaults(root: unknown, own: unknown): Record<string, unknown> {
  return { ...(isRecord(root) ? root : {}), ...(isRecord(own) ? own : {}) };
}

/**
 * A domain (or project) listed in two files of one account: an error at the later one, naming the first
 * place (`clients/acme.yaml:7:5`). Two entries in one file are the file's own rule (rules/domains.ts).
 */
function duplicatesAcrossFiles(parts: FilePart[]): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const seen = new Map<string, { file: string; line: number; column: number }>();
  const check = (key: string, part: FilePart, source: { line: number; column: number } | undefined, path: string, what: string) => {
    if (source === undefined) return;
    const first = seen.get(key);
    if (first === undefined) return void seen.set(key, { file: part.file, ...source });
    if (first.file === part.file) return;
    const message = `duplicate ${what}: already listed at ${first.file}:${first.line}:${first.column}; keep one entry`;
    diagnostics.push({ file: part.file, ...source, code: `${what.split(" ")[0]}.duplicate`, path, message, severity: "error" });
  };
  for (const part of parts) {
    for (const entry of part.normalized.websites) {
      check(`w:${entry.site.domain}`, part, entry.site.source, `${formatPath(entry.path)}.domain`, `website "${entry.site.domain}"`);
    }
    for (const entry of part.normalized.projects ?? []) {
      const name = entry.project.project;
      check(`p:${name.toLowerCase()}`, part, entry.project.source, `${formatPath(entry.path)}.project`, `project "${name}"`);
    }
  }
  return diagnostics;
}

/** The digest of a config of many files (DESIGN §2): each file's name and digest, in the order they are read. */
function digestOfAll(rootFile: string, rootDigest: string, files: readonly { file: string; digest: string }[]): string {
  // Names relative to the root's folder: the same repository checked out elsewhere has the same digest.
  const name = (file: string) => relative(dirname(rootFile), file).replaceAll("\\", "/");
  const lines = [`${name(rootFile)}\0${rootDigest}`, ...files.map((f) => `${name(f.file)}\0${f.digest}`)];
  return createHash("sha256").update(lines.join("\n")).digest("hex");
}

/** The largest config read (DESIGN §12): a real one is a few KiB, and a big one still parses in well under a second. */
export const MAX_CONFIG_BYTES = 10 * 2 ** 20;

function readSource(file: string, source: string | undefined): { text: string; digest: string } | { error: Diagnostic } {
  const bytes = source === undefined ? readBounded(file) : Buffer.from(source, "utf8");
  if (typeof bytes === "string") {
    const message = `cannot read the config: ${bytes} (${bytes === "no such file" ? `pass another path with -c/--config, or write one from the account: sitesync export --out ${file}` : "pass its path with -c/--config"})`;
    return { error: { file, line: 1, column: 1, code: "file.unreadable", path: "", message, severity: "error" } };
  }
  const text = utf8(bytes);
  if (text === undefined || text.includes("\0")) {
    const message = "the config is not a UTF-8 text file (a binary file?): pass the YAML file with -c/--config";
    return { error: { file, line: 1, column: 1, code: "file.binary", path: "", message, severity: "error" } };
  }
  return { text, digest: configDigest(bytes) };
}

function utf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The file's bytes, or why not. Only a regular file of at most `MAX_CONFIG_BYTES` is read (issue 12: a
 * path to /dev/zero or /dev/urandom crashed or hung `validate`). Opened non-blocking, so a FIFO cannot hang
 * the open; the checks are on the opened file, and the read stops one byte past the cap whatever it says.
 * @internal Not part of the library: its `Buffer` would need @types/node in every consumer.
 */
/** The config's digest (DESIGN §3: saved plans and reviews record it): the sha256 of the file's bytes. */
export function configDigest(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

export function readBounded(file: string, maxBytes: number = MAX_CONFIG_BYTES, what = "a config"): Buffer | string {
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    const stat = fstatSync(fd);
    if (stat.isDirectory()) return "it is a directory";
    if (!stat.isFile()) return "it is not a regular file (a device, a FIFO or a socket)";
    if (stat.size > maxBytes) return `it is ${mib(stat.size)}, more than the ${mib(maxBytes)} ${what} may be`;
    // One byte more than the file said it holds: a file that grows while it is read is caught below.
    const buffer = Buffer.allocUnsafe(Math.min(stat.size, maxBytes) + 1);
    let length = 0;
    for (let n = -1; n !== 0 && length < buffer.length; length += n) n = readSync(fd, buffer, length, buffer.length - length, null);
    if (length > maxBytes) return `it is more than the ${mib(maxBytes)} ${what} may be`;
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

function toConfig(file: string, digest: string, parts: readonly FilePart[]): Config {
  const [root, ...included] = parts as [FilePart, ...FilePart[]];
  const normalized = root.normalized;
  const websites = parts.flatMap((part) => part.normalized.websites);
  const passwords = [normalized.defaults.password, ...websites.map((e) => e.site.password)];
  // Parts of a password taken from the environment are secrets too, but a short one ("1") would mask
  // unrelated output everywhere, so only parts of 4 characters or more are listed.
  const envParts = parts.flatMap((part) => part.interpolation.passwordEnvValues).filter((value) => value.length >= 4);
  const secrets = [...new Set([...passwords, ...envParts])].filter((value): value is string => !!value);
  const config: Config = {
    file,
    digest,
    policy: normalized.policy,
    defaults: normalized.defaults,
    websites: websites.map((entry) => entry.site),
    secrets,
  };
  const rootRef = notePasswordRefs(root, undefined);
  if (rootRef !== undefined) config.defaults = { ...config.defaults, passwordRef: rootRef };
  for (const part of included) notePasswordRefs(part, rootRef);
  if (normalized.websitesUrl !== undefined) config.websitesUrl = normalized.websitesUrl;
  if (normalized.projectsUrl !== undefined) config.projectsUrl = normalized.projectsUrl;
  // Projects are managed when any file has the key (DESIGN §2: without it, not at all).
  if (parts.some((part) => part.normalized.projects !== undefined)) {
    config.projects = parts.flatMap((part) => (part.normalized.projects ?? []).map((entry) => entry.project));
  }
  return config;
}

/**
 * Where a password is written with `${VAR}`, what is written (the reference) beside the value: the change
 * between two revisions compares the reference, so a base needs no secret (DESIGN §3). A password that
 * comes from `defaults` has the reference written there (the file's own, else the root's). Returns the
 * reference of the file's `defaults.password`.
 */
function notePasswordRefs({ normalized, interpolation }: FilePart, inheritedRef: string | undefined): string | undefined {
  const written = new Map(interpolation.interpolated.map((entry) => [entry.path, entry.source]));
  const defaultsRef = written.get("defaults.password") ?? inheritedRef;
  for (const entry of normalized.websites) {
    const ref = entry.fromDefaults.has("password") ? defaultsRef : written.get(`${formatPath(entry.path)}.password`);
    if (ref !== undefined && entry.site.password !== undefined) entry.site.passwordRef = ref;
  }
  return defaultsRef;
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
