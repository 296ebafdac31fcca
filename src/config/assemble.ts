/**
 * A config of one or many files, assembled (DESIGN §2 "Many files, many accounts"): each included file checked
 * under the root's defaults and policy, the accounts each file's entries belong to, the checks across files
 * (a domain listed twice, wherever), and the `Config` the plan reads. Pure: the files' texts in.
 */
import { createHash } from "node:crypto";
import { dirname, relative } from "node:path";
import type { Diagnostic } from "../errors.ts";
import { accountOf, readAccounts } from "./accounts.ts";
import { type CheckOptions, checkFile, type FilePart, type Inherited } from "./check-file.ts";
import type { IncludedFile } from "./include.ts";
import { formatPath } from "./locate.ts";
import { quoteSource } from "./quote-source.ts";
import type { Config, LoadResult } from "./types.ts";

/** The root file, checked, and the files its `include:` named, read. */
export interface ConfigTexts {
  root: FilePart;
  /** The sha256 of the root file's bytes. */
  digest: string;
  includes: IncludedFile[];
  /** The root's own diagnostics and those of its `include:` globs. */
  diagnostics: Diagnostic[];
}

/** Every file of a loaded config, checked, root first, with the account each belongs to. */
export interface AssembledFile {
  part: FilePart;
  account: string | undefined;
  /** What the file inherits from the root (`undefined` for the root itself). */
  inherited: Inherited | undefined;
}

/** The config, or every problem of every file; with the checked files when it is valid. */
export function assembleConfig(texts: ConfigTexts, options: CheckOptions): { result: LoadResult; files?: AssembledFile[] } {
  const { root, includes } = texts;
  const inherited = { defaults: root.data.defaults, policy: root.data.policy };
  const parts = [root];
  const diagnostics = [...texts.diagnostics];
  for (const included of includes) {
    const checked = checkFile(included.file, included.text, options, inherited);
    // One by one: a spread of 100,000 arguments (a file of duplicates) overflows the stack.
    for (const diagnostic of checked.diagnostics) diagnostics.push(diagnostic);
    if (checked.part) parts.push(checked.part);
  }
  const owners = accountOf(parts);
  const accounts = readAccounts(parts, owners.of);
  // An address whose ${VAR} failed has its error already: checking the raw reference as a URL would only add noise.
  const failed = root.interpolation.failedPaths;
  const accountDiagnostics = accounts.diagnostics.filter((d) => !failed.has(d.path));
  const across = [...owners.diagnostics, ...accountDiagnostics, ...duplicatesAcrossFiles(parts, owners.of)];
  for (const diagnostic of quotedAsWritten(across, parts)) diagnostics.push(diagnostic);
  if (diagnostics.some((d) => d.severity === "error")) return { result: settle(diagnostics) };

  const digest = includes.length === 0 ? texts.digest : digestOfAll(root.file, texts.digest, includes);
  const config = toConfig(digest, parts);
  if (includes.length > 0) config.includes = includes.map(({ file, digest: d }) => ({ file, digest: d }));
  if (accounts.accounts) config.accounts = accounts.accounts;
  const files = parts.map((part, index) => ({ part, account: owners.of[index], inherited: index === 0 ? undefined : inherited }));
  return { result: { ok: true, config, warnings: sortByPosition(diagnostics) }, files };
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
    if (first === undefined) return void seen.set(key, { file: part.file, line: source.line, column: source.column });
    if (first.file === part.file) return;
    const message = `duplicate ${what}: already listed at ${first.file}:${first.line}:${first.column}; keep one entry`;
    diagnostics.push({ file: part.file, ...source, code: `${what.split(" ")[0]}.duplicate`, path, message, severity: "error" });
  };
  if (parts.length === 1) return diagnostics;
  for (const [index, part] of parts.entries()) {
    const account = of[index] ?? "";
    for (const entry of part.normalized.websites) {
      const { domain, source } = entry.site;
      check(`${account}\0w:${domain}`, part, source, `${formatPath(entry.path)}.domain`, `website "${domain}"`);
    }
    for (const entry of part.normalized.projects ?? []) {
      const name = entry.project.project;
      check(`${account}\0p:${name.toLowerCase()}`, part, entry.project.source, `${formatPath(entry.path)}.project`, `project "${name}"`);
    }
  }
  return diagnostics;
}

/** Each diagnostic quoting what its file says, never a value a ${VAR} put there (DESIGN §12), as a file's own do. */
function quotedAsWritten(diagnostics: Diagnostic[], parts: readonly FilePart[]): Diagnostic[] {
  if (diagnostics.length === 0) return diagnostics;
  const files = new Set(parts.map((part) => part.file));
  const quoted = parts.flatMap((part) =>
    quoteSource(
      diagnostics.filter((d) => d.file === part.file),
      part.interpolation,
    ),
  );
  return [...quoted, ...diagnostics.filter((d) => !files.has(d.file))];
}

/** The digest of a config of many files (DESIGN §2): each file's name and digest, in the order they are read. */
function digestOfAll(rootFile: string, rootDigest: string, files: readonly { file: string; digest: string }[]): string {
  // Names relative to the root's folder: the same repository checked out elsewhere has the same digest.
  const name = (file: string) => relative(dirname(rootFile), file).replaceAll("\\", "/");
  const lines = [`${name(rootFile)}\0${rootDigest}`, ...files.map((f) => `${name(f.file)}\0${f.digest}`)];
  return createHash("sha256").update(lines.join("\n")).digest("hex");
}

function toConfig(digest: string, parts: readonly FilePart[]): Config {
  const [root, ...included] = parts as [FilePart, ...FilePart[]];
  const normalized = root.normalized;
  const websites = parts.flatMap((part) => part.normalized.websites);
  const secrets = new Set<string>();
  if (normalized.defaults.password) secrets.add(normalized.defaults.password);
  for (const { site } of websites) if (site.password) secrets.add(site.password);
  // Parts of a password taken from the environment are secrets too, but a short one ("1") would mask
  // unrelated output everywhere, so only parts of 4 characters or more are listed.
  for (const part of parts) for (const value of part.interpolation.passwordEnvValues) if (value.length >= 4) secrets.add(value);
  const config: Config = {
    file: root.file,
    digest,
    policy: normalized.policy,
    defaults: normalized.defaults,
    websites: websites.map((entry) => entry.site),
    secrets: [...secrets],
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
  if (interpolation.interpolated.length === 0 && inheritedRef === undefined) return undefined;
  const written = new Map(interpolation.interpolated.map((entry) => [entry.path, entry.source]));
  const defaultsRef = written.get("defaults.password") ?? inheritedRef;
  for (const entry of normalized.websites) {
    const ref = entry.fromDefaults.has("password") ? defaultsRef : written.get(`${formatPath(entry.path)}.password`);
    if (ref !== undefined && entry.site.password !== undefined) entry.site.passwordRef = ref;
  }
  return defaultsRef;
}

/** A failed load: every error and warning, in file order. */
export function settle(diagnostics: Diagnostic[]): LoadResult {
  const sorted = sortByPosition(diagnostics);
  return {
    ok: false,
    errors: sorted.filter((d) => d.severity === "error"),
    warnings: sorted.filter((d) => d.severity === "warning"),
  };
}

export function sortByPosition(diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics
    .map((d, i) => ({ d, i }))
    .sort((a, b) => a.d.line - b.d.line || a.d.column - b.d.column || a.i - b.i)
    .map(({ d }) => d);
}
