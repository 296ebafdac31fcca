/**
 * `${{ … }}` as GitHub evaluates it, through GitHub's own evaluator (@actions/expressions, from
 * actions/languageservices): its loose equality (strings without case, `null == ''`), `&&`/`||` that return
 * an operand, property names with dashes, `fromJSON`, `format`. The status functions come from the job.
 */
import { data, Evaluator, Lexer, Parser } from "@actions/expressions";
import { truthy } from "@actions/expressions/result";

/** The contexts an expression may read: `github`, `env`, `vars`, `secrets`, `inputs`, `matrix`, `steps`, `needs`, `runner`. */
export type Contexts = Record<string, unknown>;

/** What `success()`, `failure()`, `always()` and `cancelled()` answer where the expression is evaluated. */
export interface JobStatus {
  failed: boolean;
}

const CONTEXT_NAMES = ["github", "env", "vars", "secrets", "inputs", "matrix", "steps", "needs", "runner", "job", "strategy"];
const EXPRESSION = /\$\{\{([\s\S]*?)\}\}/g;

function statusFunctions(status: JobStatus) {
  const status0 = (name: string, value: () => boolean) => ({ name, minArgs: 0, maxArgs: 0, call: () => new data.BooleanData(value()) });
  return [
    status0("success", () => !status.failed),
    status0("failure", () => status.failed),
    status0("always", () => true),
    status0("cancelled", () => false),
  ];
}

function evaluateRaw(expression: string, contexts: Contexts, status: JobStatus): data.ExpressionData {
  const functions = statusFunctions(status);
  const tree = new Parser(new Lexer(expression).lex().tokens, CONTEXT_NAMES, functions).parse();
  const context = JSON.parse(JSON.stringify(contexts), data.reviver) as data.Dictionary;
  return new Evaluator(tree, context, new Map(functions.map((f) => [f.name, f]))).evaluate();
}

/** The value of `expression` (without `${{ }}`) as plain JSON. */
function evaluate(expression: string, contexts: Contexts, status: JobStatus = { failed: false }): unknown {
  return JSON.parse(JSON.stringify(evaluateRaw(expression, contexts, status), data.replacer) ?? "null");
}

/**
 * A value of the workflow as the runner reads it: a string that is one `${{ }}` gives the expression's value
 * (an object stays one: `strategy.matrix`), a string with expressions among text gives text, anything else is
 * itself.
 */
export function resolve(value: unknown, contexts: Contexts, status?: JobStatus): unknown {
  if (typeof value !== "string") return value;
  const whole = /^\s*\$\{\{([\s\S]*?)\}\}\s*$/.exec(value);
  if (whole && !whole[1]!.includes("}}")) {
    const result = evaluate(whole[1]!, contexts, status);
    return result !== null && typeof result === "object" ? result : stringOf(result);
  }
  return value.replace(EXPRESSION, (_, expression: string) => stringOf(evaluate(expression, contexts, status)));
}

/** A value as an input, an environment variable or a script receives it: null is empty, an object is JSON. */
export function stringOf(value: unknown): string {
  if (value === null || value === undefined) return "";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/**
 * A job's or a step's `if:`: an expression with or without `${{ }}`, where `success() &&` is implied unless it
 * calls a status function itself.
 */
export function condition(text: unknown, contexts: Contexts, status: JobStatus): boolean {
  if (text === undefined) return !status.failed;
  const bare = String(text).replace(/^\s*\$\{\{([\s\S]*)\}\}\s*$/, "$1");
  const statusAware = /\b(success|failure|always|cancelled)\s*\(/.test(bare);
  return (statusAware || !status.failed) && truthy(evaluateRaw(bare, contexts, status));
}
