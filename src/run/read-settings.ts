/**
 * Settings read from text, once, by the table (run/settings.ts): one parser per kind, for the CLI's flags and
 * the Action's inputs alike. A problem is data (the setting and what is wrong); each adapter words it with
 * its own spelling (`--max-deletes`, `max-deletes`) through render/'s `settingProblemLine`.
 */
import type { Setting } from "./setting.ts";
import { SETTING_ROWS, SETTINGS, type SettingName, type SettingValues } from "./settings.ts";

/** A value as an adapter has it: a flag's text or switch, a repeatable flag's values, an input's lines. */
export type RawValue = string | boolean | readonly string[] | undefined;

/** Why a value cannot be read; `value` is the text as given. */
export type ValueProblem =
  | { code: "count"; min: number; value: string }
  | { code: "count-max"; max: number; value: string }
  /** A bare number: it meant milliseconds before, so it is refused rather than read with a guessed unit. */
  | { code: "duration-unit"; value: string }
  | { code: "duration"; value: string }
  | { code: "duration-zero"; value: string }
  | { code: "enum"; options: readonly string[]; value: string }
  | { code: "boolean"; value: string }
  | { code: "chance"; value: string }
  /** More than one value where one is taken (the Action's `account`). */
  | { code: "one"; count: number };

export interface SettingProblem {
  name: SettingName;
  problem: ValueProblem;
}

/**
 * Reads the settings `names` from `raw` (undefined: not given, so the default), and gives every other
 * setting its default too: one complete object, whichever adapter read it.
 */
export function readSettings(
  names: Iterable<SettingName>,
  raw: (name: SettingName, row: Setting) => RawValue,
): { values: SettingValues; problems: SettingProblem[] } {
  const values: Record<string, unknown> = {};
  for (const [name, row] of SETTING_ROWS) values[name] = defaultOf(row);
  const problems: SettingProblem[] = [];
  for (const name of names) {
    const given = raw(name, SETTINGS[name]);
    if (given === undefined) continue;
    const read = readValue(SETTINGS[name], given);
    if ("problem" in read) problems.push({ name, problem: read.problem });
    else values[name] = read.value;
  }
  // Built from every row of the table, each by the parser of its kind: the shape SettingValues says.
  return { values: values as SettingValues, problems };
}

/** A setting's value when it is not given: its default, read as any value is (a test reads every default). */
function defaultOf(row: Setting): unknown {
  if (row.default !== undefined) {
    const read = readValue(row, row.default);
    if ("value" in read) return read.value;
  }
  if (row.kind === "boolean") return false;
  return row.kind === "list" || row.kind === "globs" ? [] : undefined;
}

type Read = { value: unknown } | { problem: ValueProblem };

/** One value of `row`'s kind. */
export function readValue(row: Setting, raw: RawValue): Read {
  if (row.kind === "list" || row.kind === "globs") {
    const list = typeof raw === "string" ? [raw] : Array.isArray(raw) ? [...raw] : [];
    return row.oneInput && list.length > 1 ? { problem: { code: "one", count: list.length } } : { value: list };
  }
  if (typeof raw === "boolean" && row.kind === "boolean") return { value: raw };
  const text = String(raw);
  switch (row.kind) {
    case "count":
      return readCount(text, row.min, row.max);
    case "duration":
      return readDuration(text, row.zero ?? false);
    case "boolean":
      return readBoolean(text);
    case "enum":
      return row.options.includes(text) ? { value: text } : { problem: { code: "enum", options: row.options, value: text } };
    case "chance":
      return readChance(text);
    default:
      return { value: text };
  }
}

function readCount(value: string, min: number, max: number | undefined): Read {
  const whole = min < 0 ? /^-?\d+$/ : /^\d+$/;
  if (!whole.test(value) || Number(value) < min) return { problem: { code: "count", min, value } };
  if (max !== undefined && Number(value) > max) return { problem: { code: "count-max", max, value } };
  return { value: Number(value) };
}

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/**
 * `500ms`, `30s`, `2m`, `1h`. A bare number is refused, not read as seconds: it used to mean milliseconds,
 * so a script written then (`--timeout 5000`) must fail loudly rather than now wait 83 minutes (DESIGN §7).
 */
function readDuration(value: string, zero: boolean): Read {
  const text = value.trim();
  if (/^\d+(?:\.\d+)?$/.test(text)) {
    // A delay of 0 needs no unit; any other bare number did mean milliseconds.
    return zero && Number(text) === 0 ? { value: 0 } : { problem: { code: "duration-unit", value } };
  }
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(text);
  if (!match) return { problem: { code: "duration", value } };
  const ms = Math.round(Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS]);
  if (ms <= 0 && !zero) return { problem: { code: "duration-zero", value } };
  return { value: ms };
}

/** The YAML 1.2 core schema's booleans, as `core.getBooleanInput` reads them. */
function readBoolean(value: string): Read {
  if (["true", "True", "TRUE"].includes(value)) return { value: true };
  if (["false", "False", "FALSE"].includes(value)) return { value: false };
  return { problem: { code: "boolean", value } };
}

function readChance(value: string): Read {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0 || n > 1) return { problem: { code: "chance", value } };
  return { value: n };
}
