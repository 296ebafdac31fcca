/**
 * How a command file declares itself: its flags (citty's definitions, which citty renders as help), its
 * examples, and a `run` that gets the flags as the one parse read them (src/cli/_parse.ts) and the CLI
 * context (output, environment), typed.
 */
import type { ArgsDef, CommandDef, CommandMeta, ParsedArgs } from "citty";
import type { Env } from "../run/types.ts";
import type { Io } from "./_io.ts";
import type { CommandLine } from "./_parse.ts";

/** What main passes to every command: read once at the edge. */
export interface CliEdge {
  io: Io;
  env: Env;
  /** Aborting it stops a long-running command (the sandbox) as SIGINT would. */
  signal?: AbortSignal | undefined;
}

interface CliContext extends CliEdge {
  /** Every value of a repeatable flag (`--target`, `--exclude`). */
  lists: CommandLine["lists"];
  /** The flags given on the command line, defaults aside. */
  given: CommandLine["given"];
}

export interface SitesyncCommand {
  /** What citty renders as `--help`. */
  def: CommandDef<ArgsDef>;
  /** Shown under EXAMPLES by `sitesync <command> --help`. */
  examples: readonly string[];
  /** The flags: main parses the command line against them before running it. */
  args: ArgsDef;
  /** Flags of other commands that users reach for here, each with the reason it does not apply (not in the help). */
  refused: Readonly<Record<string, string>>;
  /** Runs with a parsed command line; resolves to the exit code. */
  execute(line: CommandLine, edge: CliEdge): Promise<number>;
}

interface CommandSpec<T extends ArgsDef> {
  meta: CommandMeta;
  args: T;
  examples: readonly string[];
  refused?: Readonly<Record<string, string>>;
  /** Resolves to the exit code. */
  run(flags: ParsedArgs<T>, ctx: CliContext): number | Promise<number>;
}

export function command<const T extends ArgsDef>(spec: CommandSpec<T>): SitesyncCommand {
  return {
    def: { meta: spec.meta, args: spec.args },
    args: spec.args,
    examples: spec.examples,
    refused: spec.refused ?? {},
    // The parse checked every value against `args` (enum options included), so this is the shape citty types.
    execute: async (line, edge) => spec.run(line.values as ParsedArgs<T>, { ...edge, lists: line.lists, given: line.given }),
  };
}
