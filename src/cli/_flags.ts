/**
 * The one check of a command line before citty runs a command. citty accepts any flag silently, so a
 * mistyped `--max-delete 50` would run as if unset: unknown flags are refused with a did-you-mean. Enum
 * values are checked here too, so the message names the flag the way every other flag message does.
 */
import { type ArgDef, type ArgsDef, parseArgs } from "citty";
import { didYouMean } from "../config/did-you-mean.ts";
import { UsageError } from "../errors.ts";

export function checkFlags(rawArgs: string[], args: ArgsDef): void {
  const known = knownFlags(args);
  for (const raw of rawArgs) {
    if (raw === "--") break;
    const match = /^--?([^=]+)/.exec(raw);
    if (!match || /^-\d/.test(raw)) continue;
    const name = match[1]!;
    if (known.has(name)) continue;
    const guess = didYouMean(name, [...known].filter((k) => k.length > 1));
    throw new UsageError(`unknown flag ${raw.split("=")[0]}${guess ? `; did you mean --${guess}?` : ""} (see --help)`);
  }
  checkEnums(rawArgs, args);
}

function knownFlags(args: ArgsDef): Set<string> {
  const known = new Set<string>(["help", "h"]);
  for (const [name, def] of Object.entries(args)) {
    known.add(name);
    if (def.type === "boolean") known.add(`no-${name}`);
    const aliases = "alias" in def ? def.alias : undefined;
    for (const alias of [aliases ?? []].flat()) known.add(alias);
  }
  return known;
}

/** citty's own enum check words it differently (and in color): parse enums as strings, then check them. */
function checkEnums(rawArgs: string[], args: ArgsDef): void {
  const enums = Object.entries(args).filter((entry): entry is [string, ArgDef & { options: string[] }] => entry[1].type === "enum");
  if (enums.length === 0) return;
  const asStrings = Object.fromEntries(Object.entries(args).map(([name, def]) => [name, def.type === "enum" ? { ...def, type: "string" } : def]));
  const parsed = parseArgs(rawArgs, asStrings as ArgsDef);
  for (const [name, def] of enums) {
    const value = parsed[name];
    if (value === undefined || def.options.includes(String(value))) continue;
    const choices = `${def.options.slice(0, -1).join(", ")} or ${def.options.at(-1)}`;
    throw new UsageError(`--${name} must be ${choices}, not "${String(value)}"`);
  }
}
