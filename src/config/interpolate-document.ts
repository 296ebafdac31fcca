import type { Diagnostic } from "../errors.ts";
import { FIELD_NAMES, type FieldKind, WEBSITE_FIELDS } from "../model/website-fields.ts";
import { type Env, interpolate } from "./interpolate.ts";
import { type ConfigPath, formatPath, type Locator } from "./locate.ts";

export interface DocumentInterpolation {
  diagnostics: Diagnostic[];
  /** Paths (formatted) of values that could not be interpolated: later checks of them would only add noise. */
  failedPaths: Set<string>;
  /** Environment values substituted into `password` fields: secrets in their own right. */
  passwordEnvValues: string[];
  /** Every value that came out of an interpolation, with what the file says there (`${EXCLUDE}`). */
  interpolated: InterpolatedValue[];
  /** Every other string value: the file's own words. */
  literals: string[];
  /** Where a `password` is written as it is, without a `${VAR}`: a secret in a file meant for git. */
  literalPasswords: ConfigPath[];
}

interface InterpolatedValue {
  /** Where, as diagnostics name it: `websites[0].domain`. */
  path: string;
  /** As the file writes it. */
  source: string;
  /** As interpolated. */
  value: string;
  /** The environment values in it. */
  envValues: string[];
}

/**
 * How an unset `${VAR}` is reported: an error (plan, apply), or a note for `validate`, which needs no secret
 * (DESIGN §2); or per value, by its path (`export --update` needs the account's address, not the secrets).
 */
export type UnsetEnv = "error" | "warning" | ((path: string) => "error" | "warning");

interface Context {
  unset: UnsetEnv;
  file: string;
  text: string;
  env: Env;
  locate: Locator;
  result: DocumentInterpolation;
  onSecret: ((value: string) => void) | undefined;
  /**
   * Lists and mappings walked: an alias shares its anchor's, which is interpolated once, where it is written.
   * Undefined for a file without anchors, where nothing is shared (a set of its 200,000 nodes cost a load
   * of 100,000 websites a tenth of its time).
   */
  seen: Set<object> | undefined;
}

/** The file being interpolated: where its values are written, and whether any node is shared (anchors, aliases). */
export interface InterpolatedFile {
  file: string;
  text: string;
  locate: Locator;
  anchored: boolean;
}

/** Website fields of these kinds may be written as booleans or numbers. */
const TYPED_KINDS: ReadonlySet<FieldKind> = new Set(["privacy", "flag", "boolean"]);

/**
 * Keys whose values are booleans or numbers. Interpolation yields text; an unquoted `${VAR}` there is read
 * the way YAML reads a literal (`true`, `false`, integers), so that `email: ${SEND_REPORTS}` works.
 */
const TYPED_KEYS: ReadonlySet<string> = new Set([
  "version",
  "prune",
  "max_deletes",
  ...FIELD_NAMES.filter((field) => TYPED_KINDS.has(WEBSITE_FIELDS[field].kind)).map((field) => WEBSITE_FIELDS[field].yaml),
]);

/**
 * Interpolates every string value of the parsed file in place (keys never), the mappings `<<` merges
 * included: an inline one is walked under its `<<`, an alias where its anchor is written. Problems are
 * reported at their `${`. Each value read from the environment goes to
 * `onSecret` the moment it is read, before any diagnostic can quote it (a planted `${SITESYNC_API_KEY}` was
 * printed in a config error).
 */
export function interpolateDocument(
  data: unknown,
  { file, text, locate, anchored }: InterpolatedFile,
  env: Env,
  unset: UnsetEnv = "error",
  onSecret?: (value: string) => void,
): DocumentInterpolation {
  const result = noInterpolation();
  walk(data, [], { unset, file, text, env, locate, result, onSecret, seen: anchored ? new Set() : undefined });
  return result;
}

/** What interpolating a file without `${` or a `password` key finds: nothing (fast-yaml.ts tells such a file). */
export function noInterpolation(): DocumentInterpolation {
  return { diagnostics: [], failedPaths: new Set(), passwordEnvValues: [], interpolated: [], literals: [], literalPasswords: [] };
}

/**
 * `path` is where `node` is, extended and restored on the way down (a path copied for each of the 700,000
 * nodes of a 100,000-website file was garbage for all but a few); it is copied where it is kept.
 */
function walk(node: unknown, path: (string | number)[], ctx: Context): void {
  if (typeof node !== "object" || node === null || ctx.seen?.has(node)) return;
  ctx.seen?.add(node);
  if (Array.isArray(node)) {
    for (let index = 0; index < node.length; index++) visit(node as unknown as Record<number, unknown>, index, path, ctx);
    return;
  }
  for (const key in node) if (Object.hasOwn(node, key)) visit(node as Record<string, unknown>, key, path, ctx);
}

function visit(holder: Record<string | number, unknown>, key: string | number, path: (string | number)[], ctx: Context): void {
  path.push(key);
  const value = holder[key];
  if (typeof value === "string") holder[key] = scalar(value, path, ctx);
  else if (key === "password" && value !== null && typeof value !== "object") ctx.result.literalPasswords.push([...path]);
  else walk(value, path, ctx);
  path.pop();
}

function scalar(value: string, path: ConfigPath, ctx: Context): unknown {
  if (value.includes("${")) return interpolateScalar(value, path, ctx);
  ctx.result.literals.push(value);
  if (path.at(-1) === "password" && value !== "") ctx.result.literalPasswords.push([...path]);
  return value;
}

function interpolateScalar(source: string, path: ConfigPath, ctx: Context): unknown {
  const { value, envValues, problems } = interpolate(source, ctx.env);
  for (const envValue of envValues) if (envValue) ctx.onSecret?.(envValue);
  ctx.result.interpolated.push({ path: formatPath(path), source, value, envValues });
  const last = path.at(-1);
  const level = typeof ctx.unset === "function" ? ctx.unset(formatPath(path)) : ctx.unset;
  // An alias has no text of its own to point into: it is pointed at.
  const range = problems.length > 0 ? ctx.locate.range(path) : undefined;
  for (const problem of problems) {
    const note = problem.code === "env.unset" && level === "warning";
    ctx.result.diagnostics.push({
      file: ctx.file,
      ...(range ? ctx.locate.offset(referenceOffset(range, problem.occurrence, ctx.text)) : ctx.locate.value(path)),
      code: problem.code,
      path: formatPath(path),
      message: note
        ? `environment variable ${problem.name ?? ""} is not set: plan and apply need it (--strict-env makes this an error)`
        : problem.message,
      severity: note ? "warning" : "error",
    });
  }
  if (problems.length > 0) {
    ctx.result.failedPaths.add(formatPath(path));
    // Where a `<<` merges the value to: its checks there would only add noise too.
    ctx.result.failedPaths.add(formatPath(mergedPath(path)));
    return source;
  }
  if (last === "password") ctx.result.passwordEnvValues.push(...envValues);
  // Only a plain scalar reads as YAML would read the text: `"${FLAG}"` in quotes stays text.
  const typed = typeof last === "string" && TYPED_KEYS.has(last) && ctx.locate.range(path)?.plain === true;
  return typed ? readTyped(value) : value;
}

/** `websites[0].<<[1].email` → `websites[0].email`: where a value under a `<<` is merged to. */
function mergedPath(path: ConfigPath): ConfigPath {
  return path.filter((segment, i) => segment !== "<<" && !(typeof segment === "number" && path[i - 1] === "<<"));
}

function readTyped(value: string): string | number | boolean {
  if (/^(true|True|TRUE)$/.test(value)) return true;
  if (/^(false|False|FALSE)$/.test(value)) return false;
  if (/^[-+]?\d+$/.test(value)) return Number(value);
  return value;
}

/** The source offset of the n-th `${` of a scalar; its start when the source form hides it (escapes). */
function referenceOffset({ start, end }: { start: number; end: number }, occurrence: number, text: string): number {
  const source = text.slice(start, end);
  let at = -1;
  for (let i = 0; i <= occurrence; i++) {
    at = source.indexOf("${", at + 1);
    if (at === -1) return start;
  }
  return start + at;
}
