import type { ErrorObject } from "ajv/dist/2020.js";
import { FIELD_NAMES, WEBSITE_FIELDS } from "../model/website-fields.ts";
import { didYouMean } from "./did-you-mean.ts";
import { type ConfigPath, isRecord, pointerToPath, shortKey } from "./locate.ts";

/** An ajv error retold for a person: where (a path and whether to point at its key) and what is wrong. */
export interface SchemaProblem {
  path: ConfigPath;
  at: "key" | "value";
  code: string;
  message: string;
  /** For an unknown key: the key it is probably a typo of. */
  suggestion?: string;
  /** For a missing key: its name. */
  missing?: string;
}

const POLICY_KEYS = ["prune", "max_deletes", "protect", "ignore"];
const FIELD_KEYS: string[] = FIELD_NAMES.map((field) => WEBSITE_FIELDS[field].yaml);

/**
 * Replaces ajv's wording ("must NOT have additional properties") with what the user should change; `kind`
 * is the file's: the root, or one its `include:` names (which takes no `version`).
 */
export function describeSchemaError(error: ErrorObject, data: unknown, kind: "root" | "included" = "root"): SchemaProblem {
  const path = pointerToPath(error.instancePath, data);
  const params = error.params as Record<string, unknown>;
  const problem = (message: string): SchemaProblem => ({ path, at: "value", code: `schema.${error.keyword}`, message });
  switch (error.keyword) {
    case "additionalProperties": {
      const allowed = isRecord(error.parentSchema?.properties) ? Object.keys(error.parentSchema.properties) : [];
      return unknownKey(String(params.additionalProperty), path, allowed);
    }
    case "required": {
      const missing = String(params.missingProperty);
      return { ...problem(missingKey(missing, path)), missing };
    }
    case "type":
      if (path.length === 0) return problem(rootType(error.data, kind));
      return problem(entryAsText(path, error.data) ?? wrongType(String(params.type), error.data, path.at(-1)));
    case "enum": {
      const values = params.allowedValues as unknown[];
      const words = values.filter((v): v is string => typeof v === "string");
      const guess = typeof error.data === "string" ? didYouMean(error.data, words) : undefined;
      return problem(withEmpty(error.data, describeEnum(values)) + (guess ? `; did you mean "${guess}"?` : ""));
    }
    case "const":
      return problem(
        path[0] === "version" ? "must be 1, the only format version there is" : `must be ${JSON.stringify(params.allowedValue)}`,
      );
    case "minimum":
      return problem(`must be ${String(params.limit)} or more`);
    case "pattern":
      return problem(typeof error.data === "string" && error.data.trim() !== "" ? "must be a single line" : "must not be empty");
    default:
      return problem(error.message ?? "is not valid");
  }
}

/** `must be one of public, private, password (or 0, 1, 2)`, `must be true or false (or 0, 1)`. */
export function describeEnum(values: readonly unknown[]): string {
  const words = values.filter((v) => typeof v !== "number").map(String);
  const numbers = values.filter((v) => typeof v === "number").map(String);
  const main = words.length <= 2 ? words.join(" or ") : `one of ${words.join(", ")}`;
  return numbers.length > 0 ? `must be ${main} (or ${numbers.join(", ")})` : `must be ${main}`;
}

/** `unknown key "privcy"; did you mean "privacy"?`, pointing at the key itself. */
function unknownKey(key: string, parent: ConfigPath, allowed: string[]): SchemaProblem {
  const path = [...parent, key];
  const shown = shortKey(key);
  const hint = misplaced(key, parent) ?? rootOnly(key, parent, allowed);
  if (hint) return { path, at: "key", code: "schema.unknown-key", message: `unknown key "${shown}" here: ${hint}` };
  const suggestion = didYouMean(key, allowed);
  if (suggestion) {
    return { path, at: "key", code: "schema.unknown-key", message: `unknown key "${shown}"; did you mean "${suggestion}"?`, suggestion };
  }
  return { path, at: "key", code: "schema.unknown-key", message: `unknown key "${shown}"; expected one of ${allowed.join(", ")}` };
}

/** Keys of the root file only, in an included file (whose top level allows no `version`). */
function rootOnly(key: string, parent: ConfigPath, allowed: string[]): string | undefined {
  if (parent.length > 0 || allowed.includes("version") || !ROOT_ONLY_KEYS.includes(key)) return undefined;
  return "only the root file sets it; an included file holds account, defaults, websites and projects";
}

const ROOT_ONLY_KEYS = ["version", "websites_url", "projects_url", "policy", "include"];

/** Keys that are right, but at another level: say where they go instead of guessing a typo. */
function misplaced(key: string, parent: ConfigPath): string | undefined {
  const level = parent.length === 0 ? "root" : parent[0] === "websites" ? "website" : parent[0] === "projects" ? "project" : parent[0];
  if (level !== "policy" && POLICY_KEYS.includes(key)) return "it belongs under policy:";
  if (level === "root" && FIELD_KEYS.includes(key)) return "it belongs under defaults: or on a website entry";
  if (level === "root" && key === "domain") return 'websites are listed under websites:, as "- domain: ..."';
  if (level === "root" && key === "project") return 'projects are listed under projects:, as "- project: ..."';
  if (level === "defaults" && (key === "domain" || key === "state" || key === "password_version")) {
    return `defaults cannot set ${key}; set it on each website entry`;
  }
  if (level === "root" && key === "password_version") return "it belongs on a website entry";
  if (level === "website" && key === "project") return 'projects are listed under projects:, as "- project: ..."';
  if (level === "project" && (FIELD_KEYS.includes(key) || key === "domain")) return "a project has only project and state";
  return undefined;
}

function missingKey(key: string, parent: ConfigPath): string {
  if (parent.length === 0 && key === "version") return 'missing required key "version"; add "version: 1" at the top';
  if (parent.length === 0 && key === "websites")
    return 'missing required key "websites"; list the websites, or write "websites: []" for none';
  return `missing required key "${key}"`;
}

const EXPECTED: Record<string, string> = {
  string: "text",
  array: "a list",
  object: "a mapping (key: value lines)",
  boolean: "true or false",
  integer: "a whole number",
  number: "a number",
  "string,number": "text or a number",
};

/** Names the kind of text a few keys want, since "text" alone says little there. */
const TEXT_KINDS: Record<string, string> = { domain: "a domain, like example.com", project: "a project name, like example.com" };

function wrongType(expected: string, data: unknown, key: string | number | undefined): string {
  const want = (expected === "string" && typeof key === "string" ? TEXT_KINDS[key] : undefined) ?? EXPECTED[expected] ?? expected;
  if (data === null) return `is empty; it must be ${want}`;
  if (expected === "integer" && typeof data === "number") return "must be a whole number";
  const found = kindOf(data);
  if (expected === "string" && (typeof data === "number" || typeof data === "boolean")) {
    return `must be ${want}, not ${found}; put it in quotes`;
  }
  if (expected === "array") return `must be ${want}, not ${found}; write [item, ...] or one "- item" per line`;
  return `must be ${want}, not ${found}`;
}

/** `websites: [example.com]` is a natural first guess at the format: show the form it takes. */
function entryAsText(path: ConfigPath, data: unknown): string | undefined {
  if (path.length !== 2 || typeof data !== "string") return undefined;
  const key = path[0] === "websites" ? "domain" : path[0] === "projects" ? "project" : undefined;
  if (key === undefined) return undefined;
  // `- domain:a.example.com` is one word to YAML: the space after the colon is what is missing.
  const spaceless = data.startsWith(`${key}:`) ? data.slice(key.length + 1).trim() : undefined;
  if (spaceless) return `must be a mapping, not text; write a space after the colon: "- ${key}: ${spaceless}"`;
  return `must be a mapping, not text; write "- ${key}: ${data}"`;
}

function rootType(data: unknown, kind: "root" | "included"): string {
  if (kind === "included") {
    if (data === null || data === undefined) {
      return 'the file is empty; an included file needs "websites:" (and "account: NAME" when the root file has several accounts)';
    }
    return `the file must be a mapping of keys (account, websites, ...), not ${kindOf(data)}`;
  }
  if (data === null || data === undefined) return 'the file is empty; it needs at least "version: 1" and "websites:"';
  return `the file must be a mapping of keys (version, websites, ...), not ${kindOf(data)}`;
}

function withEmpty(data: unknown, message: string): string {
  return data === null ? `is empty; it ${message}` : message;
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return "text";
  // `.inf` and `.nan` are numbers to YAML, but no number to a JSON Schema.
  if (typeof value === "number") return Number.isFinite(value) ? "a number" : Number.isNaN(value) ? ".nan" : value > 0 ? ".inf" : "-.inf";
  if (typeof value === "boolean") return `${value}`;
  if (isRecord(value)) return "a mapping";
  return "empty";
}
