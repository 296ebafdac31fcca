import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { dirname, relative } from "node:path";
import type { Document } from "yaml";
import type { Diagnostic } from "../errors.ts";
import { accountOf, readAccounts } from "./accounts.ts";
import { type ListFolder, listFolderOnDisk, readIncludes } from "./include.ts";
import type { Env } from "./interpolate.ts";
import { type DocumentInterpolation, interpolateDocument, type UnsetEnv } from "./interpolate-document.ts";
import { type ConfigPath, createLocator, formatPath, isRecord, type Locator } from "./locate.ts";
import { type Normalized, normalize } from "./normalize.ts";
import { type ParsedYaml, parseYaml } from "./parse-yaml.ts";
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
  /** Reads an included file (bytes, or why not); from disk, bounded like the root, when left out. */
  readFile?: (file: string) => Uint8Array | string;
  /**
   * Lists a folder for the `include:` globs; from disk when left out. With `readFile`, a config can be
   * loaded as a git commit holds it (the base of a change, DESIGN §3), by the same globs.
   */
  listFolder?: ListFolder;
}

/**
 * Reads, validates and normalizes a config (DESIGN §2): YAML with positions → `${VAR}` interpolation →
 * JSON Schema → normalization → semantic rules, for the root file and each file its `include:` names, then
 * the checks across files (a domain listed twice, wherever). Every problem of one run is reported together;
 * bad input (a missing file included) never throws but comes back as `{ ok: false, errors }`, each error at
 * its own `file:line:column`. Only YAML syntax errors stop a file early, since its tree is then unreliable.
 */
export function loadConfig(file: string, options: LoadOptions = {}): LoadResult {
  return loadDocument(file, options).result;
}

/**
 * What {@link loadDocument} read besides the result: the interpolated YAML tree with positions and the
 * normalized entries, for `export --update`, which edits the file that tree came from. Published with
 * `LoadedFile`, which extends it.
 */
export interface LoadedTree {
  doc: Document;
  locate: Locator;
  normalized: Normalized;
  /** Whether some value holds a `${VAR}`: the tree then depends on the environment it was loaded with. */
  interpolated: boolean;
}

/**
 * One file of a loaded config, root first then each included file in the order read: what `export --update`
 * needs to edit the file that holds each entry (issue 19 item 1). Not tagged internal: the published types of
 * `adopt/update-files` name it, and a consumer's strict type-check reads them.
 */
export interface LoadedFile extends LoadedTree {
  /** The path as diagnostics name it (an included file's joined to the root's folder). */
  file: string;
  text: string;
  /** The account of `accounts:` the file's entries belong to; `undefined` without accounts. */
  account: string | undefined;
  /**
   * Reads `text` as this same file of the config again, with `options`: the root without following its
   * includes, an included file under the root's defaults and policy. The diagnostics are this file's only.
   */
  reread(text: string, options: LoadOptions & { envFor?: (doc: Document) => Env }): LoadedTree | { diagnostics: Diagnostic[] };
}

/**
 * `loadConfig`, keeping the tree it parsed (issue 20: `export --update` parsed a 5,000-website file five
 * times). `envFor` picks the variables from the parsed tree, before interpolation, instead of `env`.
 * @internal
 */
export function loadDocument(
  file: string,
  options: LoadOptions & { envFor?: (doc: Document) => Env },
): { result: LoadResult; tree?: LoadedTree; files?: LoadedFile[] } {
  const read = readSource(file, options.source);
  if ("error" in read) return { result: { ok: false, errors: [read.error], warnings: [] } };
  const parsed = parseYaml(file, read.text);
  if (parsed.diagnostics.some((d) => d.severity === "error")) return { result: settle(parsed.diagnostics) };

  const root = checkFile(file, read.text, parsed, options, undefined);
  if (root.part === undefined) return { result: settle(root.diagnostics) };
  const readFile = options.readFile ?? readConfigBytes;
  const listFolder = options.listFolder ?? listFolderOnDisk;
  const includes = readIncludes(file, root.part.data, root.part.locate, readFile, listFolder, configDigest);
  const inherited = { defaults: root.part.data.defaults, policy: root.part.data.policy };
  const parts = [root.part];
  const diagnostics = [...root.diagnostics, ...includes.diagnostics];
  for (const included of includes.files) {
    const checked = checkFile(included.file, included.text, parseYaml(included.file, included.text), options, inherited);
    diagnostics.push(...checked.diagnostics);
    if (checked.part) parts.push(checked.part);
  }
  const owners = accountOf(parts);
  const accounts = readAccounts(parts, owners.of);
  // An address whose ${VAR} failed has its error already: checking the raw reference as a URL would only add noise.
  const failed = root.part.interpolation.failedPaths;
  const accountDiagnostics = accounts.diagnostics.filter((d) => !failed.has(d.path));
  diagnostics.push(...owners.diagnostics, ...accountDiagnostics, ...duplicatesAcrossFiles(parts, owners.of));
  if (diagnostics.some((d) => d.severity === "error")) return { result: settle(diagnostics) };

  const digest = includes.files.length === 0 ? read.digest : digestOfAll(file, read.digest, includes.files);
  const config = toConfig(file, digest, parts);
  if (includes.files.length > 0) config.includes = includes.files.map(({ file: path, digest: d }) => ({ file: path, digest: d }));
  if (accounts.accounts) config.accounts = accounts.accounts;
  return {
    result: { ok: true, config, warnings: sortByPosition(diagnostics) },
    tree: treeOf(root.part),
    files: parts.map((part, index) => ({
      ...treeOf(part),
      file: part.file,
      text: part.text,
      account: owners.of[index],
      reread: (text, again) => reread(part.file, text, again, index === 0 ? undefined : inherited),
    })),
  };
}

function treeOf(part: FilePart): LoadedTree {
  return { doc: part.doc, locate: part.locate, normalized: part.normalized, interpolated: part.interpolation.interpolated.length > 0 };
}

/** {@link LoadedFile.reread}: one file through the pipeline again, as the root or as an included file. */
function reread(
  file: string,
  text: string,
  options: LoadOptions & { envFor?: (doc: Document) => Env },
  inherited: { defaults: unknown; policy: unknown } | undefined,
): LoadedTree | { diagnostics: Diagnostic[] } {
  const checked = checkFile(file, text, parseYaml(file, text), options, inherited);
  const errors = checked.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0 || checked.part === undefined) return { diagnostics: sortByPosition(errors) };
  return treeOf(checked.part);
}

/** One file of the config, checked: what it says, normalized, beside how it was read. */
interface FilePart {
  file: string;
  text: string;
  doc: Document;
  data: Record<string, unknown>;
  normalized: Normalized;
  interpolation: DocumentInterpolation;
  locate: Locator;
}

/**
 * The pipeline of one file. An included file (`inherited` given) is checked against the included-file
 * shape, and normalized under the root's policy and its defaults (its own `defaults` over them).
 */
function checkFile(
  file: string,
  text: string,
  parsed: ParsedYaml,
  options: LoadOptions & { envFor?: (doc: Document) => Env },
  inherited: { defaults: unknown; policy: unknown } | undefined,
): { diagnostics: Diagnostic[]; part?: FilePart } {
  if (parsed.diagnostics.some((d) => d.severity === "error")) return { diagnostics: parsed.diagnostics };
  const locate = createLocator(parsed.doc, parsed.lineCounter);
  const env = options.envFor?.(parsed.doc) ?? options.env ?? process.env;
  const interpolation = interpolateDocument(parsed.doc, file, text, env, locate, options.unsetEnv, options.onSecret);
  const data = toData(parsed.doc, file);
  if ("error" in data) return { diagnostics: [...parsed.diagnostics, data.error] };
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
  // A password that is wrong anyway (a number, too long) has its error: the warning would only add noise.
  const wrong = new Set(checked.filter((d) => d.severity === "error").map((d) => d.path));
  const literal = literalPasswords(interpolation.literalPasswords, file, locate).filter((d) => !wrong.has(d.path));
  const diagnostics = quoteSource([...parsed.diagnostics, ...interpolation.diagnostics, ...checked, ...literal], interpolation);
  return { diagnostics, part: { file, text, doc: parsed.doc, data: own, normalized, interpolation, locate } };
}

function mergedDefaults(root: unknown, own: unknown): Record<string, unknown> {
  return { ...(isRecord(root) ? root : {}), ...(isRecord(own) ? own : {}) };
}

/**
 * A domain (or project) listed in two files of one account (`of`: each file's): an error at the later one, naming the first
 * place (`clients/acme.yaml:7:5`). Two entries in one file are the file's own rule (rules/domains.ts).
 */
function duplicatesAcrossFiles(parts: FilePart[], of: readonly (string | undefined)[]): Diagnostic[] {
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
  for (const [index, part] of parts.entries()) {
    const account = of[index] ?? "";
    for (const entry of part.normalized.websites) {
      check(
        `${account}\0w:${entry.site.domain}`,
        part,
        entry.site.source,
        `${formatPath(entry.path)}.domain`,
        `website "${entry.site.domain}"`,
      );
    }
    for (const entry of part.normalized.projects ?? []) {
      const name = entry.project.project;
      check(`${account}\0p:${name.toLowerCase()}`, part, entry.project.source, `${formatPath(entry.path)}.project`, `project "${name}"`);
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
export function configDigest(bytes: Uint8Array): string {
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
