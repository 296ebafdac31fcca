/**
 * The one parse of a command line (DESIGN §7: no argument is ever misread). It both checks and reads: every
 * argument must be a known flag, a known one-letter alias, the value of the flag before it, or an expected
 * positional; anything else is refused with a did-you-mean. `-c=x`, `-c x`, `--config=x` and `--config x`
 * mean the same. Every command gets its values from here; nothing reads argv again.
 *
 * citty (0.2.2) parses with mri, which reads `-c=x` as the value `=x` and `-out` as the short flags
 * `-o -u -t` (so `plan -out plan.json` would save to a file named `ut`), accepts unknown flags silently and
 * keeps only the last value of a repeated one; so citty renders the help from the same flag definitions,
 * and this parse is the only one.
 *
 * Terraform's single-dash spellings (`-out`, `-detailed-exitcode`, `-auto-approve`...) are refused with the
 * double-dash form named, not accepted as aliases: a single dash already means one-letter flags (`-c`, `-o`,
 * `-y`, `-q`), and giving `-out` a second meaning would make `-oq`-style tokens ambiguous; several Terraform
 * flags have no exact equivalent here (`-json`, `-no-color`, `-parallelism`), so accepting some but not
 * others would teach a habit that later fails silently. A refusal costs one retry and names the fix.
 */
import type { ArgDef, ArgsDef } from "citty";
import { didYouMean } from "../config/did-you-mean.ts";
import { UsageError } from "../errors.ts";
import { plural } from "../model/plural.ts";
import { settingProblemLine } from "../render/index.ts";
import { GLOBS, REPEATABLE } from "./_args.ts";

/** Terraform flags whose sitesync spelling is not simply the same name with two dashes. */
const TERRAFORM_HABITS: Record<string, string> = {
  json: "--format json",
  parallelism: "--concurrency N",
  "no-color": "NO_COLOR=1 (colors are already off when the output is not a terminal)",
  "input=false": "--auto-approve",
  var: "${VAR} in the config and the environment",
  "var-file": "${VAR} in the config and the environment",
};

/** A command line as the command reads it. */
export interface CommandLine {
  /** Each flag and positional by its name: given, else its default; a repeatable flag's last value. */
  values: Record<string, string | boolean | undefined>;
  /** Every value of each repeatable flag (`--target`, `--exclude`), in order. */
  lists: Record<string, string[]>;
  /** The flags given on the command line (by their long name), defaults aside. */
  given: ReadonlySet<string>;
}

interface Flag {
  name: string;
  def: ArgDef;
  /** `--no-verbose`: the switch, turned off. */
  negated?: boolean;
}

/**
 * Reads `rawArgs` against the flags `args` defines for `command`; throws a `UsageError` at the first problem.
 * `refused`: flags of other commands that users reach for here, each with the reason it does not apply.
 */
export function parseCommandLine(
  rawArgs: readonly string[],
  args: ArgsDef,
  command: string,
  refused: Readonly<Record<string, string>> = {},
): CommandLine {
  const { long, short } = knownFlags(args);
  refuseForeign(rawArgs, long, refused);
  const line: Reading = { values: {}, lists: {}, given: new Set<string>() };
  const words = readFlags(rawArgs, { long, short }, line);
  const positionals = Object.entries(args).filter(([, def]) => def.type === "positional");
  if (words.length > positionals.length) throw strayPositional(words[positionals.length]!, positionals.length, command);
  positionals.forEach(([name], i) => {
    line.values[name] = words[i];
  });
  for (const [name, def] of Object.entries(args)) {
    if (line.values[name] === undefined && def.default !== undefined) line.values[name] = def.default as string | boolean;
  }
  return line;
}

/** A command line as it is read: the flags given so far. */
type Reading = CommandLine & { given: Set<string> };

/** A flag of another command that users reach for here: refused with the reason it does not apply. */
function refuseForeign(rawArgs: readonly string[], long: Map<string, Flag>, refused: Readonly<Record<string, string>>): void {
  for (const raw of rawArgs) {
    if (raw === "--") break;
    const name = raw.startsWith("--") ? raw.slice(2).split("=")[0]! : "";
    if (refused[name] !== undefined && !long.has(name)) throw new UsageError(refused[name]);
  }
}

/** Reads every flag of `rawArgs` into `line`; returns the words that are not flags (everything after `--` too). */
function readFlags(rawArgs: readonly string[], flags: ReturnType<typeof knownFlags>, line: Reading): string[] {
  const words: string[] = [];
  for (let i = 0; i < rawArgs.length; i++) {
    const raw = rawArgs[i]!;
    if (raw === "--") return [...words, ...rawArgs.slice(i + 1)];
    const token = flagToken(raw, flags.long, flags.short);
    if (!token) words.push(raw);
    else if (readFlag(raw, token, rawArgs[i + 1], line) === "took-next") i++;
  }
  return words;
}

/** One flag into `line`: a switch, or a value inline or in the next argument (then `took-next`). */
function readFlag(raw: string, { flag, inline }: { flag: Flag; inline?: string }, next: string | undefined, line: Reading) {
  if (line.given.has(flag.name) && !REPEATABLE.has(flag.name))
    throw new UsageError(`--${flag.name} is given twice: give it once (see --help)`);
  line.given.add(flag.name);
  if (flag.def.type === "boolean") {
    if (inline !== undefined) throw new UsageError(`${raw.split("=")[0]} takes no value (see --help)`);
    line.values[flag.name] = !flag.negated;
    return "flag";
  }
  const tookNext = inline === undefined;
  if (tookNext && (next === undefined || (next.startsWith("-") && next !== "-" && !/^-\d/.test(next)))) throw needsValue(flag);
  const value = (inline ?? next)!;
  line.values[flag.name] = checkedValue(flag, value);
  if (REPEATABLE.has(flag.name)) line.lists[flag.name] = [...(line.lists[flag.name] ?? []), value];
  return tookNext ? "took-next" : "inline";
}

/** The flag `raw` names, with its `=value`; undefined for a word (a positional, `-` for stdout, a value). */
function flagToken(raw: string, long: Map<string, Flag>, short: Map<string, Flag>): { flag: Flag; inline?: string } | undefined {
  if (!raw.startsWith("-") || raw === "-") return undefined;
  const at = raw.indexOf("=");
  const inline = at < 0 ? undefined : raw.slice(at + 1);
  const withValue = (flag: Flag) => (inline === undefined ? { flag } : { flag, inline });
  if (raw.startsWith("--")) {
    const name = raw.slice(2, at < 0 ? undefined : at);
    const flag = long.get(name);
    if (!flag) throw unknownFlag(`--${name}`, name, long);
    return withValue(flag);
  }
  const name = raw.slice(1, at < 0 ? undefined : at);
  const flag = name.length === 1 ? short.get(name) : undefined;
  if (!flag) throw name.length === 1 ? unknownFlag(`-${name}`, name, long) : singleDash(raw, long, short);
  return withValue(flag);
}

/** An enum's value is one of its options; a repeatable flag's value is never empty. */
function checkedValue(flag: Flag, value: string): string {
  if (flag.def.type === "enum" && !(flag.def.options ?? []).includes(value)) {
    throw new UsageError(settingProblemLine({ code: "enum", options: flag.def.options ?? [], value }, `--${flag.name}`));
  }
  if (REPEATABLE.has(flag.name) && value.trim() === "") throw needsValue(flag);
  return value;
}

function knownFlags(args: ArgsDef): { long: Map<string, Flag>; short: Map<string, Flag> } {
  const help: Flag = { name: "help", def: { type: "boolean" } };
  const long = new Map<string, Flag>([["help", help]]);
  const short = new Map<string, Flag>([["h", help]]);
  for (const [name, def] of Object.entries(args)) {
    if (def.type === "positional") continue;
    long.set(name, { name, def });
    if (def.type === "boolean") long.set(`no-${name}`, { name, def, negated: true });
    const aliases = "alias" in def ? def.alias : undefined;
    for (const alias of [aliases ?? []].flat()) (alias.length === 1 ? short : long).set(alias, { name, def });
  }
  return { long, short };
}

function needsValue(flag: Flag): UsageError {
  if (flag.name === "account") return new UsageError("--account needs the name of an account of the config's accounts:");
  if (GLOBS.has(flag.name)) return new UsageError(`--${flag.name} needs a glob, such as --${flag.name} '*.example.com'`);
  return new UsageError(`--${flag.name} needs a value${flag.def.valueHint ? ` (${flag.def.valueHint})` : ""} (see --help)`);
}

function unknownFlag(shown: string, name: string, long: Map<string, Flag>): UsageError {
  const guess = didYouMean(name, [...long.keys()]);
  return new UsageError(`unknown flag ${shown}${guess ? `; did you mean --${guess}?` : ""} (see --help)`);
}

/** `-out plan.json`, `-detailed-exitcode`: a Terraform habit, named with its sitesync spelling. */
function singleDash(raw: string, long: Map<string, Flag>, short: Map<string, Flag>): UsageError {
  const token = raw.slice(1);
  const name = token.split("=")[0]!;
  const equivalent = TERRAFORM_HABITS[token] ?? TERRAFORM_HABITS[name];
  const known = long.get(name);
  if (known) {
    // A switch takes no value: `-auto-approve=true` is `--auto-approve`.
    const spelling = known.def.type === "boolean" ? name : token;
    return new UsageError(`${raw.split("=")[0]} is not read as a flag: use --${spelling} (long flags take two dashes)`);
  }
  if (!raw.includes("=") && [...name].every((letter) => short.has(letter))) {
    const apart = [...name].map((letter) => `-${letter}`).join(" ");
    return new UsageError(`${raw}: short flags are not combined; write ${apart} (see --help)`);
  }
  if (equivalent) return new UsageError(`${raw} is a Terraform flag: sitesync uses ${equivalent} (see --help)`);
  const guess = didYouMean(name, [...long.keys()]);
  return new UsageError(
    `unknown flag ${raw.split("=")[0]}${guess ? `; did you mean --${guess}?` : ""} (long flags take two dashes; see --help)`,
  );
}

function strayPositional(stray: string, expected: number, command: string): UsageError {
  const takes = expected === 0 ? "takes no arguments" : `takes at most ${plural(expected, "argument")}`;
  return new UsageError(`unexpected argument "${stray}": sitesync ${command} ${takes} (see --help)`);
}
