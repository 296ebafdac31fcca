/**
 * The `sitesync` command line: subcommands, each file loaded only when run (so `--help` stays quick), the
 * version from package.json, and one parse of every command line (./_parse.ts) whose result the command
 * runs with. Commands return the exit code of their Outcome; an error thrown before a run goes through the
 * same map (run/exit-code.ts).
 *
 * citty renders the help from each command's flag definitions. Its `runMain` exits the process and prints
 * with `console`, and its `runCommand` parses the command line again with mri (which reads `-c=x` as `=x`):
 * so main picks the subcommand and runs it with the parse's result itself.
 */
import { stripVTControlCharacters } from "node:util";
import { type CommandMeta, renderUsage } from "citty";
import pkg from "../../package.json" with { type: "json" };
import { didYouMean } from "../config/did-you-mean.ts";
import { UsageError } from "../errors.ts";
import { errorLines } from "../render/index.ts";
import { ExitCode, exitCodeOf, stopSignalOf } from "../run/exit-code.ts";
import type { Env } from "../run/types.ts";
import { exportUpdateAlias } from "./_alias.ts";
import type { CliEdge, SitesyncCommand } from "./_command.ts";
import { createIo, type Io } from "./_io.ts";
import { parseCommandLine } from "./_parse.ts";

type Load = () => Promise<SitesyncCommand>;
const load = (module: Promise<{ default: SitesyncCommand }>) => module.then((m) => m.default);

/** Every command, by name, each loaded only when run. */
export const commands = {
  validate: () => load(import("./validate.ts")),
  plan: () => load(import("./plan.ts")),
  apply: () => load(import("./apply.ts")),
  show: () => load(import("./show.ts")),
  export: () => load(import("./export.ts")),
  adopt: () => load(import("./adopt.ts")),
  matrix: () => load(import("./matrix.ts")),
  sandbox: () => load(import("./sandbox.ts")),
} satisfies Record<string, Load>;

/** One line per command for `sitesync --help`, so that it loads none of them. */
const SUMMARIES: Record<keyof typeof commands, string> = {
  validate: "Check a config file offline and report every problem at once",
  plan: "Show what apply would change (never writes)",
  apply: "Make the account match the config, or apply a saved plan",
  show: "Show a saved plan again (text, JSON or Markdown), offline",
  matrix: "Print the accounts (those a change touches) as JSON for a GitHub Actions matrix",
  export: "Write the live account as a config file",
  adopt: "Accept the account's live changes into the config in place",
  sandbox: "Run a local imitation of both APIs to try configs against",
};

/** Words that are not commands but are answered before one is looked up. */
const BUILTINS = ["help", "version"];

const meta = {
  name: "sitesync",
  version: pkg.version,
  description: "keep the websites of a phpAnalytics account (and phpRank projects) in line with a YAML file.",
} satisfies CommandMeta;

export interface CliOptions {
  /** The environment, read once by the caller (bin/sitesync.js: `process.env`). */
  env: Env;
  io?: Io;
  signal?: AbortSignal;
}

/** Runs the CLI with `argv` and resolves to the process exit code. Never throws. */
export async function runCli(argv: string[], options: CliOptions): Promise<number> {
  const io = options.io ?? createIo(options.env);
  const [name, ...rest] = argv;
  try {
    if (name === "--version" || name === "-v" || name === "version") {
      if (name === "version") parseCommandLine(rest, {}, "version");
      io.out(meta.version);
      return ExitCode.ok;
    }
    if (name === undefined || name === "--help" || name === "-h") {
      io.out(mainUsage());
      return name === undefined ? ExitCode.error : ExitCode.ok;
    }
    // `sitesync help apply` and `sitesync apply help`, as well as `--help` anywhere.
    if (name === "help") {
      if (rest.length === 0) {
        io.out(mainUsage());
        return ExitCode.ok;
      }
      parseCommandLine(rest.slice(1), {}, "help");
      return await showHelp(await commandNamed(rest[0]!), io);
    }
    // `export --update FILE` is the former spelling of `adopt FILE` (DESIGN §7): run as adopt, and say so.
    const alias = name === "export" ? exportUpdateAlias(rest) : undefined;
    if (alias) io.err(alias.note);
    const [commandName, args] = alias ? ["adopt", alias.argv] : [name, rest];
    const command = await commandNamed(commandName);
    if (args[0] === "help" || args.includes("--help") || args.includes("-h")) return await showHelp(command, io);
    const line = parseCommandLine(args, command.args, commandName, command.refused);
    const edge: CliEdge = { io, env: options.env, signal: options.signal };
    return await command.execute(line, edge);
  } catch (error) {
    for (const line of errorLines(error)) io.err(line);
    const stoppedBy = stopSignalOf(options.signal);
    return stoppedBy ? ExitCode[stoppedBy] : exitCodeOf(error);
  }
}

async function showHelp(command: SitesyncCommand, io: Io): Promise<number> {
  const usage = await renderUsage(command.def, { meta: { name: meta.name } });
  const text = `${usage}\n\nEXAMPLES\n\n${command.examples.map((e) => `  ${e}`).join("\n")}\n`;
  // citty colors its usage whenever NO_COLOR is unset, even into a pipe or a file.
  io.out(io.color ? text : stripVTControlCharacters(text));
  return ExitCode.ok;
}

/** The command `name` names, loaded; an unknown name is a UsageError with a did-you-mean. */
export function commandNamed(name: string): Promise<SitesyncCommand> {
  if (!Object.hasOwn(commands, name)) {
    const names = [...Object.keys(commands), ...BUILTINS];
    if (name.startsWith("-")) {
      throw new UsageError(
        `${name}: a command comes first, flags after it (sitesync <command> --help lists them); commands: ${names.join(", ")}`,
      );
    }
    const guess = didYouMean(name, names);
    throw new UsageError(`unknown command "${name}"${guess ? `: did you mean ${guess}?` : "."} Commands: ${names.join(", ")}`);
  }
  return commands[name as keyof typeof commands]();
}

function mainUsage(): string {
  const width = Math.max(...Object.keys(SUMMARIES).map((name) => name.length));
  return [
    `sitesync ${meta.version}: ${meta.description}`,
    "",
    "USAGE  sitesync <command> [options]",
    "",
    "COMMANDS",
    ...Object.entries(SUMMARIES).map(([name, summary]) => `  ${name.padEnd(width)}  ${summary}`),
    `  ${"version".padEnd(width)}  Print the version`,
    "",
    "Flags take two dashes (--out, --detailed-exitcode); durations take a unit (500ms, 30s, 2m).",
    "Exit codes: 0 ok or no changes, 1 error, 2 changes (plan --detailed-exitcode), 3 apply had failures,",
    "4 refused by a safety rail or a stale plan, 130/143 stopped by SIGINT/SIGTERM.",
    "Use `sitesync <command> --help` (or `sitesync help <command>`) for a command's options.",
  ].join("\n");
}
