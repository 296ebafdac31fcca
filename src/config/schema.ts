import type { ErrorObject } from "ajv/dist/2020.js";
import schema from "../../schemas/sitesync.schema.json" with { type: "json" };
import type { Diagnostic } from "../errors.ts";
import { formatPath, type Locator } from "./locate.ts";
import { describeSchemaError, type SchemaProblem } from "./schema-messages.ts";
import { configValidators } from "./schema-validators.ts";

/** The committed JSON Schema of the config format: the single source of it (DESIGN §2). */
export const configSchema: Readonly<Record<string, unknown>> = schema;

/**
 * Every schema violation of the (interpolated) config, located in the file and worded for a person: the
 * root file's shape, or an included file's (`account`, `defaults`, `websites`, `projects`).
 */
export function validateSchema(data: unknown, file: string, locate: Locator, kind: "root" | "included" = "root"): Diagnostic[] {
  const validate = configValidators()[kind];
  if (validate(data)) return [];
  const problems = relevant(validate.errors ?? []).map((error) => describeSchemaError(error, data, kind));
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
