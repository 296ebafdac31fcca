/**
 * How a command file declares itself: citty's command with its examples, and a `run` that gets the parsed
 * flags and the CLI context (output, environment) typed, instead of citty's untyped `data`.
 */
import { type ArgsDef, type CommandDef, type CommandMeta, defineCommand, type ParsedArgs } from "citty";
import type { Env } from "../run/types.ts";
import type { Io } from "./_io.ts";

/** What main passes to every command: read once at the edge. */
export interface CliEdge {
  io: Io;
  env: Env;
  /** Aborting it stops a long-running command (the sandbox) as SIGINT would. */
  signal?: AbortSignal | undefined;
}

export interface CliContext extends CliEdge {
  rawArgs: string[];
}

// `any`: each command has its own flags, and main runs them all through citty's untyped `runCommand`.
export interface SitesyncCommand extends CommandDef<any> {
  /** Shown under EXAMPLES by `sitesync <command> --help`. */
  examples: readonly string[];
  /** The flags, resolved: main checks the command line against them before running it. */
  args: ArgsDef;
}

interface CommandSpec<T extends ArgsDef> {
  meta: CommandMeta;
  args: T;
  examples: readonly string[];
  /** Resolves to the exit code. */
  run(flags: ParsedArgs<T>, ctx: CliContext): number | Promise<number>;
}

export function command<const T extends ArgsDef>(spec: CommandSpec<T>): SitesyncCommand {
  const def = defineCommand<T>({
    meta: spec.meta,
    args: spec.args,
    run: ({ args, rawArgs, data }) => spec.run(args, { ...(data as CliEdge), rawArgs }),
  });
  return { ...def, args: spec.args, examples: spec.examples };
}
