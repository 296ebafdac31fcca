/**
 * docs/reference.md, derived: the commands and their flags from the CLI's own command definitions (citty's,
 * which `--help` renders; their flags come from the settings table, src/run/settings.ts), the Action's inputs
 * from the same table (as action.yml's are) and its outputs from action.yml, the exit codes from
 * src/run/exit-code.ts, and the environment variables the table reads. `npm run docs-reference` writes it;
 * test/docs/docs.test.ts fails when the file differs.
 */
import type { ArgDef } from "citty";
import { parse } from "yaml";
import { actionYmlInputs } from "../../src/action/action-yml.ts";
import type { SitesyncCommand } from "../../src/cli/_command.ts";
import { commands } from "../../src/cli/main.ts";
import { ExitCode } from "../../src/run/exit-code.ts";
import type { Setting } from "../../src/run/setting.ts";
import { SETTING_ROWS } from "../../src/run/settings.ts";

/** What each exit code means: a code added to ExitCode without words here fails the type check. */
const EXIT_CODES: Record<keyof typeof ExitCode, string> = {
  ok: "Success; a plan with changes too, unless `--detailed-exitcode`.",
  error: "An error: usage, config, API, a bound crossed, a cancelled prompt.",
  changes: "`plan --detailed-exitcode` (and the Action's `detailed-exitcode`): the account differs from the config.",
  applyFailed: "`apply` finished with failures, or `--verify` found fields that did not converge.",
  refused: "Refused: a safety rail, a listing that failed its integrity checks, a stale or altered plan, an unreviewed change.",
  SIGINT: "Stopped by SIGINT (Ctrl-C) after a graceful stop: the requests in flight finished, the summary was printed.",
  SIGTERM: "Stopped by SIGTERM, as for SIGINT.",
};

/** Variables read outside the settings table (the table's own are listed from it). */
const OTHER_VARIABLES: [string, string][] = [
  ["`NO_COLOR`", "Any value turns colors off (they are only on a terminal anyway)."],
  ["`FORCE_COLOR`", "Colors when stdout is not a terminal (and `NO_COLOR` is unset)."],
  ["an account's `api_key_env`, `projects_api_key_env`", "The keys of an account of a fleet ([fleets](fleets.md))."],
  ["`${VAR}` in the config", "Any variable the config names ([the config file](config.md))."],
  ["`SITESYNC_ENV_FILE`, `SITESYNC_BIN`, `SITESYNC_LOG`, `SITESYNC_LOCK`", "The cron wrapper's ([cron](cron.md))."],
];

/** The whole page. `actionYml` is action.yml's text, for the Action's outputs. */
export async function referenceMarkdown(actionYml: string): Promise<string> {
  const sections = [
    "<!-- Written by `npm run docs-reference` from the settings table and the CLI's commands: edit those, not this file. -->",
    "# Reference",
    "Every command, flag, Action input and output, exit code and environment variable. Generated from the settings\n" +
      "table (`src/run/settings.ts`) and the CLI's command definitions (`src/cli/`), which `--help` shows too.",
    "## Commands",
    ...(await Promise.all(Object.entries(commands).map(async ([name, load]) => commandSection(name, await load())))),
    "### sitesync version\n\nPrints the version (also `sitesync --version`, `-v`). `sitesync help <command>` and\n" +
      "`sitesync <command> --help` show a command's help and examples.",
    "## Action inputs",
    actionInputs(),
    "## Action outputs",
    table(
      ["output", "what it holds"],
      Object.entries(outputsOf(actionYml)).map(([name, text]) => [code(name), text]),
    ),
    "## Exit codes",
    table(
      ["code", "meaning"],
      Object.entries(EXIT_CODES).map(([name, text]) => [`**${ExitCode[name as keyof typeof ExitCode]}**`, text]),
    ),
    "## Environment variables",
    environment(),
  ];
  return `${sections.join("\n\n")}\n`;
}

function commandSection(name: string, command: SitesyncCommand): string {
  const args = Object.entries(command.args);
  const positionals = args.filter(([, def]) => def.type === "positional");
  const usage = positionals.map(([key, def]) => (def.required ? `<${def.valueHint ?? key}>` : `[${def.valueHint ?? key}]`));
  const rows = args.map(([key, def]) => [flagCell(key, def), defaultCell(def), inputOf(name, key), cell(def.description ?? "")]);
  return [
    `### sitesync ${name}`,
    cell(command.def.meta && "description" in command.def.meta ? String(command.def.meta.description) : ""),
    `Usage: \`sitesync ${[name, ...usage].join(" ")} [flags]\``,
    table(["flag", "default", "Action input", "what it does"], rows),
    `Examples:\n\n\`\`\`sh\n${command.examples.join("\n")}\n\`\`\``,
  ].join("\n\n");
}

function flagCell(key: string, def: ArgDef): string {
  if (def.type === "positional") return code(def.valueHint ?? key);
  const alias = "alias" in def && def.alias ? `${code(`-${def.alias}`)}, ` : "";
  const value = def.type === "enum" ? ` ${(def.options ?? []).join("|")}` : def.type === "string" ? ` <${def.valueHint ?? "value"}>` : "";
  return `${alias}${code(`--${key}${value}`)}`;
}

function defaultCell(def: ArgDef): string {
  return "default" in def && def.default !== undefined ? code(String(def.default)) : "";
}

/** The Action input of the row behind `flag` on `command`, when the Action runs that command (plan, apply). */
function inputOf(command: string, flag: string): string {
  const row = SETTING_ROWS.find(([, r]) => r.flag === flag && r.commands.includes(command as Setting["commands"][number]))?.[1];
  return row?.input && (command === "plan" || command === "apply") ? code(row.input) : "";
}

function actionInputs(): string {
  const rows = SETTING_ROWS.filter(([, row]) => row.input !== undefined);
  const declared = actionYmlInputs();
  return table(
    ["input", "default", "commands", "flag", "what it does"],
    rows.map(([, row]) => {
      const input = declared[row.input!]!;
      const on = row.commands.filter((c) => c === "plan" || c === "apply" || c === "drift").join(", ");
      return [
        code(row.input!),
        input.default === undefined ? "" : code(input.default),
        on,
        row.flag ? code(`--${row.flag}`) : "",
        cell(input.description),
      ];
    }),
  );
}

function outputsOf(actionYml: string): Record<string, string> {
  const outputs = (parse(actionYml) as { outputs: Record<string, { description: string }> }).outputs;
  return Object.fromEntries(Object.entries(outputs).map(([name, { description }]) => [name, cell(description)]));
}

function environment(): string {
  const byVariable = new Map<string, Setting[]>();
  for (const [, row] of SETTING_ROWS) if (row.env) byVariable.set(row.env, [...(byVariable.get(row.env) ?? []), row]);
  const rows = [...byVariable].map(([variable, settings]) => {
    const stands = settings.flatMap((row) => [
      ...(row.flag ? [code(`${row.commands.join() === "sandbox" ? "sandbox " : ""}--${row.flag}`)] : []),
      ...(row.input ? [`input ${code(row.input)}`] : []),
    ]);
    const sensitive = settings.some((row) => row.sensitive) ? " A secret: never printed." : "";
    return [code(variable), stands.join(", "), cell(`${sentence(settings[0]!.envHelp ?? settings[0]!.help)}${sensitive}`)];
  });
  return `${table(["variable", "stands in for", "what it is"], rows)}\n\nAlso read:\n\n${table(["variable", "what it does"], OTHER_VARIABLES)}`;
}

function sentence(text: string): string {
  return text.endsWith(".") ? text : `${text}.`;
}

function table(head: string[], rows: string[][]): string {
  return [`| ${head.join(" | ")} |`, `| ${head.map(() => "---").join(" | ")} |`, ...rows.map((row) => `| ${row.join(" | ")} |`)].join("\n");
}

/** Text for a table cell: one line, pipes escaped. */
function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|");
}

function code(text: string): string {
  return `\`${text.replace(/\|/g, "\\|")}\``;
}
