import type { Diagnostic } from "../../errors.ts";
import { type ConfigPath, formatPath, type Locator } from "../locate.ts";
import type { Normalized } from "../normalize.ts";

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
      const position = at === "key" ? locate.key(path) : locate.value(path);
      diagnostics.push({ file, ...position, code, path: formatPath(path), message, severity });
    };
  return { ctx: { file, data, config, locate, error: report("error"), warn: report("warning") }, diagnostics };
}
