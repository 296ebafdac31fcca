import type { ErrorObject } from "ajv/dist/2020.js";
import schema from "../../schemas/sitesync.schema.json" with { type: "json" };
import type { Diagnostic } from "../errors.ts";
import { formatPath, isRecord, type Locator } from "./locate.ts";
import { describeSchemaError, type SchemaProblem } from "./schema-messages.ts";
import { configValidators } from "./schema-validators.ts";

/** The most problems told of one file: the rest are told once these are fixed (DESIGN §12). */
export const MAX_FILE_PROBLEMS = 1000;

/** The committed JSON Schema of the config format: the single source of it (DESIGN §2). */
export const configSchema: Readonly<Record<string, unknown>> = schema;

/**
 * Every schema violation of the (interpolated) config, located in the file and worded for a person: the
 * root file's shape, or an included file's (`account`, `defaults`, `websites`, `projects`).
 */
export function validateSchema(data: unknown, file: string, locate: Locator, kind: "root" | "included" = "root"): Diagnostic[] {
  const errors = schemaErrors(data, kind);
  if (errors.length === 0) return [];
  const problems = relevant(errors).map((error) => describeSchemaError(error, data, kind));
  return withoutEchoes(problems).map((problem) => {
    const position = problem.at === "key" ? locate.key(problem.path) : locate.value(problem.path);
    return {
      file,
      ...position,
      code: problem.code,
      path: formatPath(problem.path),
      message: problem.message,
      severity: "error",
    };
  });
}

/**
 * ajv's errors, the items of `websites` and `projects` each validated alone, until the file holds
 * more than MAX_FILE_PROBLEMS: ajv joins a failing item's errors to the list's by copying those so far, so a file of
 * 100,000 wrong entries took minutes and ran out of a 1 GB heap (DESIGN §12).
 */
function schemaErrors(data: unknown, kind: "root" | "included"): ErrorObject[] {
  const validators = configValidators();
  const lists = isRecord(data) ? LISTS.filter(({ key }) => Array.isArray(data[key])) : [];
  // The file with its lists emptied: their own shape (a list) is checked here, their items below.
  const shell = isRecord(data) ? { ...data, ...Object.fromEntries(lists.map(({ key }) => [key, []])) } : data;
  const errors = validators[kind](shell) ? [] : [...(validators[kind].errors ?? [])];
  for (const { key, item } of lists) {
    const validate = validators[item];
    const items = (data as Record<string, unknown[]>)[key] as unknown[];
    for (let i = 0; i < items.length && errors.length <= MAX_FILE_PROBLEMS; i++) {
      if (validate(items[i])) continue;
      for (const error of validate.errors ?? []) errors.push({ ...error, instancePath: `/${key}/${i}${error.instancePath}` });
    }
  }
  return errors;
}

const LISTS = [
  { key: "websites", item: "website" },
  { key: "projects", item: "project" },
] as const;

/** `webistes:` is reported as a typo of "websites"; saying "websites" is missing as well would be noise. */
function withoutEchoes(problems: SchemaProblem[]): SchemaProblem[] {
  const suggested = new Set(problems.filter((p) => p.suggestion).map((p) => `${formatPath(p.path.slice(0, -1))}:${p.suggestion}`));
  return problems.filter((p) => !p.missing || !suggested.has(`${formatPath(p.path)}:${p.missing}`));
}

/** A value of the wrong type also fails its range and pattern checks; only the type error helps. */
function relevant(errors: ErrorObject[]): ErrorObject[] {
  const wrongType = new Set(errors.filter((e) => e.keyword === "type").map((e) => e.instancePath));
  return errors.filter((e) => e.keyword === "type" || !wrongType.has(e.instancePath));
}
