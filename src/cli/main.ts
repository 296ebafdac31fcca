/**
 * The `sitesync` command line: one thin file per command; errors are mapped to exit codes here and only
 * here (DESIGN §7: 0 ok, 1 error, 2 changes with --detailed-exitcode, 3 apply failures, 4 refused).
 */
import { type CommandDef, renderUsage, runCommand } from "citty";
import { ApiError, ConfigError, ExitCode, exitCodeOf, formatDiagnostic, SafetyError, UsageError } from "../errors.ts";
import { createIo, type Io } from "./_io.ts";
import { applyCommand } from "./apply.ts";
import { exportCommand } from "./export.ts";
import { planCommand } from "./plan.ts";
import { sandboxCommand } from "./sandbox.ts";
import { validateCommand } from "./validate.ts";

const commands: Record<string, CommandDef<any>> = {
  validate: validateCommand,
  plan: planCommand,
  apply: applyCommand,
  export: exportCommand,
  sandbox: sandboxCommand,
};

const main: CommandDef = {
  meta: {
    name: "sitesync",
    version: "0.1.0",
    description: "Keep the websites of a phpAnalytics account (and phpRank projects) in line with a YAML file.",
  },
  subCommands: commands,
};

/** Runs the CLI with `argv` and resolves to the process exit code. Never throws. */
export async function runCli(argv: string[], io: Io = createIo()): Promise<number> {
  const [name, ...rest] = argv;
  const command = name === undefined ? undefined : commands[name];
  try {
    if (name === "--version" || name === "-v") {
      io.out("0.1.0");
      return ExitCode.ok;
    }
    if (name === undefined || name === "--help" || name === "-h" || name === "help") {
      io.out(await renderUsage(main));
      return name === undefined ? ExitCode.error : ExitCode.ok;
    }
    if (!command) throw new UsageError(`unknown command "${name}": use one of ${Object.keys(commands).join(", ")}`);
    if (rest.includes("--help") || rest.includes("-h")) {
      io.out(await renderUsage(command, main));
      return ExitCode.ok;
    }
    const { result } = await runCommand(command, { rawArgs: rest, data: { io } });
    return typeof result === "number" ? result : ExitCode.ok;
  } catch (error) {
    reportError(error, io);
    return exitCodeOf(error);
  }
}

function reportError(error: unknown, io: Io): void {
  if (error instanceof ConfigError) {
    for (const diagnostic of error.diagnostics) io.err(formatDiagnostic(diagnostic));
    const n = error.diagnostics.length;
    io.err(`${n} error${n === 1 ? "" : "s"} in the config: nothing was sent to the API.`);
  } else if (error instanceof ApiError) {
    io.err(`error: ${error.message}`);
    for (const [field, messages] of Object.entries(error.fieldErrors ?? {})) io.err(`  ${field}: ${messages.join(" ")}`);
    if (error.kind === "redirect" || error.status === 401) {
      io.err("  check SITESYNC_API_KEY (and SITESYNC_PROJECTS_API_KEY): the server did not accept it.");
    }
  } else if (error instanceof SafetyError || error instanceof UsageError) {
    io.err(`error: ${error.message}`);
  } else if (error instanceof Error && error.name === "CLIError") {
    io.err(`error: ${error.message} (see --help)`);
  } else {
    io.err(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    io.err("This is a bug in sitesync; please report it with the command you ran.");
  }
}
