/**
 * The one check of a command line before citty runs a command: no argument is ever misread (DESIGN §7).
 * citty (mri) accepts any flag silently and reads `-out` as the short flags `-o -u -t`, so a Terraform habit
 * such as `plan -out plan.json` would save to a file named `ut`. Every argument must be a known flag, a known
 * one-letter alias, the value of the flag before it, or an expected positional; anything else is refused
 * with a did-you-mean. Enum values are checked here too, worded like every other flag message.
 *
 * Terraform's single-dash spellings (`-out`, `-detailed-exitcode`, `-auto-approve`...) are refused with the
 * double-dash form named, not accepted as aliases: a single dash already means one-letter flags (`-c`, `-o`,
 * `-y`, `-q`), and giving `-out` a second meaning would make `-oq`-style tokens ambiguous; several Terraform
 * flags have no exact equivalent here (`-json`, `-no-color`, `-parallelism`), so accepting some but not
 * others would teach a habit that later fails silently. A refusal costs one retry and names the fix.
 */
import { type ArgDef, type ArgsDef, parseArgs } from "citty";
import { didYouMean } from "../config/did-you-mean.ts";
import { UsageError } from "../errors.ts";
import { SELECTION_FLAGS } from "./_args.ts";

/** Terraform flags whose sitesync spelling is not simply the same name with two dashes. */
const TERRAFORM_HABITS: Record<string, string> = {
  json: "--format json",
  parallelism: "--concurrency N",
  "no-color": "NO_COLOR=1 (colors are already off when the output is not a terminal)",
  "input=false": "--auto-approve",
  var: "${VAR} in the config and the environment",
  "var-file": "${VAR} in the config and the environment",
};

interface Flag {
  name: string;
  def: ArgDef;
}

export function checkFlags(rawArgs: string[], args: ArgsDef, command: string): void {
  const { long, short } = knownFlags(args);
  const positionals = Object.entries(args).filter(([, def]) => def.type === "positional");
  const words: string[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < rawArgs.length; i++) {
    const raw = rawArgs[i]!;
    if (raw === "--") {
      words.push(...rawArgs.slice(i + 1));
      break;
    }
    let flag: Flag | undefined;
    let inlineValue: string | undefined;
    if (raw.startsWith("--")) {
      const [name, ...value] = raw.slice(2).split("=");
      flag = long.get(name!);
      if (!flag) throw unknownFlag(`--${name}`, name!, long);
      inlineValue = value.length > 0 ? value.join("=") : undefined;
    } else if (raw.startsWith("-") && raw !== "-") {
      const name = raw.slice(1).split("=")[0]!;
      flag = name.length === 1 ? short.get(name) : undefined;
      if (!flag) throw name.length === 1 ? unknownFlag(`-${name}`, name, long) : singleDash(raw, long, short);
      inlineValue = raw.includes("=") ? raw.slice(raw.indexOf("=") + 1) : undefined;
    } else {
      words.push(raw);
      continue;
    }
    // citty keeps the last of two values silently: `--out a.json --out b.json` would save only b.json.
    if (seen.has(flag.name) && !(SELECTION_FLAGS as readonly string[]).includes(flag.name)) {
      throw new UsageError(`--${flag.name} is given twice: give it once (see --help)`);
    }
    seen.add(flag.name);
    if (flag.def.type === "boolean") {
      if (inlineValue !== undefined) throw new UsageError(`${raw.split("=")[0]} takes no value (see --help)`);
      continue;
    }
    if (inlineValue !== undefined) continue;
    const value = rawArgs[i + 1];
    if (value === undefined || (value.startsWith("-") && value !== "-" && !/^-\d/.test(value))) {
      throw new UsageError(`--${flag.name} needs a value${flag.def.valueHint ? ` (${flag.def.valueHint})` : ""} (see --help)`);
    }
    i++;
  }
  if (words.length > positionals.length) throw strayPositional(words[positionals.length]!, positionals.length, command);
  checkEnums(rawArgs, args);
}

function knownFlags(args: ArgsDef): { long: Map<string, Flag>; short: Map<string, Flag> } {
  const help: Flag = { name: "help", def: { type: "boolean" } };
  const long = new Map<string, Flag>([["help", help]]);
  const short = new Map<string, Flag>([["h", help]]);
  for (const [name, def] of Object.entries(args)) {
    if (def.type === "positional") continue;
    long.set(name, { name, def });
    if (def.type === "boolean") long.set(`no-${name}`, { name, def });
    const aliases = "alias" in def ? def.alias : undefined;
    for (const alias of [aliases ?? []].flat()) (alias.length === 1 ? short : long).set(alias, { name, def });
  }
  return { long, short };
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
  const takes = expected === 0 ? "takes no arguments" : `takes at most ${expected} argument${expected === 1 ? "" : "s"}`;
  return new UsageError(`unexpected argument "${stray}": sitesync ${command} ${takes} (see --help)`);
}

/** citty's own enum check words it differently (and in color): parse enums as strings, then check them. */
function checkEnums(rawArgs: string[], args: ArgsDef): void {
  const enums = Object.entries(args).filter((entry): entry is [string, ArgDef & { options: string[] }] => entry[1].type === "enum");
  if (enums.length === 0) return;
  const asStrings = Object.fromEntries(
    Object.entries(args).map(([name, def]) => [name, def.type === "enum" ? { ...def, type: "string" } : def]),
  );
  const parsed = parseArgs(rawArgs, asStrings as ArgsDef);
  for (const [name, def] of enums) {
    const value = parsed[name];
    if (value === undefined || def.options.includes(String(value))) continue;
    const choices = `${def.options.slice(0, -1).join(", ")} or ${def.options.at(-1)}`;
    throw new UsageError(`--${name} must be ${choices}, not "${String(value)}"`);
  }
}
