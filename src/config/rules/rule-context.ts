import type { Diagnostic } from "../../errors.ts";
import { type ConfigPath, formatPath, type Locator } from "../locate.ts";
import type { Normalized } from "../normalize.ts";
import { MAX_FILE_PROBLEMS } from "../schema.ts";

/** What a semantic rule sees: the normalized config beside the raw data, and a way to report. */
export interface RuleContext {
  file: string;
  /** The parsed, interpolated config as written (may hold schema errors). */
  data: Record<string, unknown>;
  config: Normalized;
  locate: Locator;
  /** Reports at the value of `path`, or at its key with `at: "key"`. */
  error(code: string, path: ConfigPath, message: string, at?: "key" | "value"): void;
  warn(code: string, path: ConfigPath, message: string, at?: "key" | "value"): void;
}

/** A semantic check beyond the schema (DESIGN §2): pushes diagnostics, returns nothing. */
export type Rule = (ctx: RuleContext) => void;

export function createRuleContext(
  file: string,
  data: Record<string, unknown>,
  config: Normalized,
  locate: Locator,
): { ctx: RuleContext; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const report =
    (severity: Diagnostic["severity"]) =>
    (code: string, path: ConfigPath, message: string, at: "key" | "value" = "value") => {
      if (diagnostics.length >= MAX_FILE_PROBLEMS) throw new Enough();
      const position = at === "key" ? locate.key(path) : locate.value(path);
      diagnostics.push({ file, ...position, code, path: formatPath(path), message, severity });
    };
  return { ctx: { file, data, config, locate, error: report("error"), warn: report("warning") }, diagnostics };
}

/** Thrown by a report past the file's cap: the rule stops there, and so do the rules after it. */
class Enough extends Error {}

/** Runs the rules in order; `false` when they stopped at the cap, with problems left untold (DESIGN §12). */
export function runRules(rules: readonly Rule[], ctx: RuleContext): boolean {
  try {
    for (const rule of rules) rule(ctx);
    return true;
  } catch (error) {
    if (error instanceof Enough) return false;
    throw error;
  }
}
