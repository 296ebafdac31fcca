/**
 * The `sitesync` command line: one thin file per command, loaded only when run (so `--help` is quick);
 * errors are mapped to exit codes here and only here (DESIGN §7: 0 ok, 1 error, 2 changes with
 * --detailed-exitcode, 3 apply failures, 4 refused).
 */
import { type CommandDef, renderUsage, runCommand } from "citty";
import { ApiError, ConfigError, ExitCode, exitCodeOf, formatDiagnostic, SafetyError, UsageError } from "../errors.ts";
import { createIo, type Io } from "./_io.ts";

const VERSION = "0.1.0";

interface CommandModule {
  examples: string[];
  command: CommandDef<any>;
}

const COMMANDS: Record<string, { summary: string; load: () => Promise<CommandModule> }> = {
  validate: {
    summary: "Check a config file offline and report every problem at once",
    load: async () => { const m = await import("./validate.ts"); return { examples: m.examples, command: m.validateCommand }; },
  },
  plan: {
    summary: "Show what apply would change (never writes)",
    load: async () => { const m = await import("./plan.ts"); return { examples: m.examples, command: m.planCommand }; },
  },
  apply: {
    summary: "Make the account match the config, or apply a saved plan",
    load: async () => { const m = await import("./apply.ts"); return { examples: m.examples, command: m.applyCommand }; },
  },
  export: {
    summary: "Write the live account as a config file",
    load: async () => { const m = await import("./export.ts"); return { examples: m.examples, command: m.exportCommand }; },
  },
  sandbox: {
    summary: "Run a local imitation of both APIs to try configs against",
    load: async () => { const m = await import("./sandbox.ts"); return { examples: m.examples, command: m.sandboxCommand }; },
  },
};

function mainUsage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  return [
    `sitesync ${VERSION}: keep the websites of a phpAnalytics account (and phpRank projects) in line with a YAML file.`,
    "",
    "USAGE  sitesync <command> [options]",
    "",
    "COMMANDS",
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`),
    "",
    "Exit codes: 0 ok or no changes, 1 error, 2 changes (plan --detailed-exitcode), 3 apply had failures,",
    "4 refused by a safety rail or a stale plan. Use `sitesync <command> --help` for a command's options.",
  ].join("\n");
}

/** Runs the CLI with `argv` and resolves to the process exit code. Never throws. */
export async function runCli(argv: string[], io: Io = createIo()): Promise<number> {
  const [name, ...rest] = argv;
  try {
    if (name === "--version" || name === "-v") {
      io.out(VERSION);
      return ExitCode.ok;
    }
    if (name === undefined || name === "--help" || name === "-h" || name === "help") {
      io.out(mainUsage());
      return name === undefined ? ExitCode.error : ExitCode.ok;
    }
    const entry = COMMANDS[name];
    if (!entry) throw new UsageError(`unknown command "${name}": use one of ${Object.keys(COMMANDS).join(", ")}`);
    const { command, examples } = await entry.load();
    if (rest.includes("--help") || rest.includes("-h")) {
      const usage = await renderUsage(command, { meta: { name: "sitesync" } });
      io.out(`${usage}\n\nEXAMPLES\n\n${examples.map((e) => `  ${e}`).join("\n")}\n`);
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
