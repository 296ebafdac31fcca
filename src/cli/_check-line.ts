/**
 * A command line read as `sitesync` reads it, without running it: the same command lookup, the
 * `export --update` alias, the one strict parse and the table's reading of each value. The docs' test holds
 * every command line the docs show to it, so a renamed or misspelled flag in them fails.
 */
import type { SettingCommand } from "../run/setting.ts";
import { exportUpdateAlias } from "./_alias.ts";
import { cliSettings } from "./_args.ts";
import { parseCommandLine } from "./_parse.ts";
import { commandNamed } from "./main.ts";

/** Resolves when `sitesync ...argv` would start; rejects with the UsageError the CLI would print. */
export async function checkCommandLine(argv: readonly string[]): Promise<void> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "--version" || name === "-v") return;
  if (name === "version" || name === "help") {
    if (name === "help" && rest[0] !== undefined) await commandNamed(rest[0]);
    parseCommandLine(name === "help" ? rest.slice(1) : rest, {}, name);
    return;
  }
  const alias = name === "export" ? exportUpdateAlias(rest) : undefined;
  const [commandName, args] = alias ? ["adopt", alias.argv] : [name, rest];
  const command = await commandNamed(commandName);
  if (args[0] === "help" || args.includes("--help") || args.includes("-h")) return;
  const line = parseCommandLine(args, command.args, commandName, command.refused);
  cliSettings(commandName as SettingCommand, line.values, line.lists);
}
