/**
 * A small copy of Laravel 10's validator, enough for the website requests: rule order, `sometimes`,
 * `nullable`, implicit `required` that stops its field, and the Laravel 10 message wording (API-NOTES §4).
 */
import type { InputBag, InputValue } from "./_input.ts";
import { filterInt, isNumeric, mbStrlen, phpString } from "./_php.ts";

/** Field name → messages, in rule order; the 422 body puts it under `message`. */
export type ErrorBag = Record<string, string[]>;

export interface Rule {
  /** Implicit rules run on absent and empty values, and a failure stops the field. */
  implicit?: boolean;
  passes(value: InputValue, numeric: boolean): boolean;
  message(attribute: string, numeric: boolean): string;
}

export interface FieldRules {
  field: string;
  /** Validate only when the key is present. */
  sometimes?: boolean;
  /** A null value skips the non-implicit rules. */
  nullable?: boolean;
  /** The field has a numeric rule (`integer`): sizes are values and messages use the numeric wording. */
  numeric?: boolean;
  rules: Rule[];
}

/** Runs every field's rules in order; returns the error bag, or undefined when everything passed. */
export function validate(input: InputBag, fields: FieldRules[]): ErrorBag | undefined {
  const bag: ErrorBag = {};
  for (const spec of fields) {
    const present = Object.hasOwn(input, spec.field);
    if (spec.sometimes && !present) continue;
    const value = present ? (input[spec.field] ?? null) : null;
    const messages: string[] = [];
    for (const rule of spec.rules) {
      if (!isValidatable(rule, spec, present, value)) continue;
      if (rule.passes(value, spec.numeric === true)) continue;
      // Laravel renders `exclude_bots` as "exclude bots".
      messages.push(rule.message(spec.field.replaceAll("_", " "), spec.numeric === true));
      if (rule.implicit) break;
    }
    if (messages.length > 0) bag[spec.field] = messages;
  }
  return Object.keys(bag).length > 0 ? bag : undefined;
}

function isValidatable(rule: Rule, spec: FieldRules, present: boolean, value: InputValue): boolean {
  if (rule.implicit) return true;
  if (typeof value === "string" && value.trim() === "") return false;
  if (!present) return false;
  return !(spec.nullable && value === null);
}

/** Laravel's getSize: the number for numeric fields, the count of an array, else the string length. */
function size(value: InputValue, numeric: boolean): number {
  if (numeric && isNumeric(value)) return Number(typeof value === "string" ? value.trim() : value);
  if (Array.isArray(value)) return value.length;
  if (value !== null && typeof value === "object") return Object.keys(value).length;
  return mbStrlen(phpString(value));
}

export const required: Rule = {
  implicit: true,
  passes: (value) =>
    !(value === null || (typeof value === "string" && value.trim() === "") || (Array.isArray(value) && value.length === 0)),
  message: (a) => `The ${a} field is required.`,
};

export const integer: Rule = {
  passes: (value) => filterInt(value) !== null,
  message: (a) => `The ${a} field must be an integer.`,
};

export const string: Rule = {
  passes: (value) => typeof value === "string",
  message: (a) => `The ${a} field must be a string.`,
};

export function between(min: number, max: number): Rule {
  return {
    passes: (value, numeric) => {
      const n = size(value, numeric);
      return n >= min && n <= max;
    },
    message: (a, numeric) => `The ${a} field must be between ${min} and ${max}${numeric ? "" : " characters"}.`,
  };
}

export function min(limit: number): Rule {
  return {
    passes: (value, numeric) => size(value, numeric) >= limit,
    message: (a, numeric) => `The ${a} field must be at least ${limit}${numeric ? "" : " characters"}.`,
  };
}

export function max(limit: number): Rule {
  return {
    passes: (value, numeric) => size(value, numeric) <= limit,
    message: (a, numeric) => `The ${a} field must not be greater than ${limit}${numeric ? "" : " characters"}.`,
  };
}

/** An app rule (Rule object or closure) with a fixed message. */
export function custom(passes: (value: InputValue) => boolean, text: string): Rule {
  return { passes: (value) => passes(value), message: () => text };
}
