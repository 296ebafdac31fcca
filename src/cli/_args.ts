/**
 * The CLI's side of the settings table (run/settings.ts): each command's flags as citty defines them (which
 * the one parse, ./_parse.ts, reads and citty renders as `--help`), and their values read by the table.
 */
import type { ArgDef, ArgsDef } from "citty";
import { UsageError } from "../errors.ts";
import { settingProblemLine } from "../render/index.ts";
import { type RawValue, readSettings } from "../run/read-settings.ts";
import type { Setting, SettingCommand } from "../run/setting.ts";
import { SETTING_ROWS, SETTINGS, type SettingName, type SettingValues } from "../run/settings.ts";

type Table = typeof SETTINGS;
type CommandsOf<R> = R extends { commands: readonly (infer C)[] } ? C : never;
type FlagOn<R, C> = R extends { flag: infer F extends string } ? (C extends CommandsOf<R> ? F : never) : never;
type DefaultOf<R> = R extends { default: infer D extends string } ? { default: D } : unknown;
type ArgOf<R> = R extends { kind: "boolean" }
  ? { type: "boolean"; description: string }
  : R extends { kind: "enum"; options: readonly (infer O extends string)[] }
    ? { type: "enum"; options: O[]; description: string } & DefaultOf<R>
    : { type: "string"; description: string } & DefaultOf<R>;

/** The flags of `C`, keyed by flag, typed as citty types them: the command reads `flags.out`, `flags.format`... */
export type ArgsOn<C extends SettingCommand> = { [K in SettingName as FlagOn<Table[K], C>]: ArgOf<Table[K]> };

/** The flags of `command`, in the table's order (the order `--help` lists them). */
export function argsOf<C extends SettingCommand>(command: C): ArgsOn<C> {
  const args: ArgsDef = {};
  for (const [, row] of SETTING_ROWS) if (row.flag && row.commands.includes(command)) args[row.flag] = argOf(row, command);
  // Built from the rows that ArgsOn<C> selects, each as ArgOf types it.
  return args as ArgsOn<C>;
}

function argOf(row: Setting, command: SettingCommand): ArgDef {
  const description = row.helpOn?.[command] ?? row.help;
  const alias = row.alias ? { alias: row.alias } : {};
  if (row.kind === "boolean") return { type: "boolean", description, ...alias };
  const shown = { ...alias, ...(row.default === undefined ? {} : { default: row.default }) };
  if (row.kind === "enum") return { type: "enum", options: [...row.options], description, ...shown };
  return { type: "string", description, ...shown, ...(row.valueHint ? { valueHint: row.valueHint } : {}) };
}

const isList = (row: Setting) => row.kind === "list" || row.kind === "globs";

/** The flags that may be given more than once (`--target`, `--account`...); any other given twice is refused. */
export const REPEATABLE: ReadonlySet<string> = new Set(SETTING_ROWS.flatMap(([, row]) => (row.flag && isList(row) ? [row.flag] : [])));
/** The repeatable flags whose value is a glob. */
export const GLOBS: ReadonlySet<string> = new Set(SETTING_ROWS.flatMap(([, row]) => (row.flag && row.kind === "globs" ? [row.flag] : [])));
/** The flags that change what is planned: refused beside a saved plan, which was planned already. */
export const PLANNING_FLAGS: readonly string[] = SETTING_ROWS.flatMap(([, row]) => (row.flag && row.planning ? [row.flag] : []));

/**
 * The values of `command`'s flags as the parse left them (`flags` by long name, every value of a repeatable
 * one in `lists`), read by the table; the first problem is a UsageError that names the flag.
 */
export function cliSettings(
  command: SettingCommand,
  flags: Readonly<Record<string, unknown>>,
  lists: Readonly<Record<string, readonly string[]>> = {},
): SettingValues {
  const names = SETTING_ROWS.filter(([, row]) => row.flag && row.commands.includes(command)).map(([name]) => name);
  const raw = (_: SettingName, row: Setting) => (isList(row) ? lists[row.flag!] : (flags[row.flag!] as RawValue));
  const { values, problems } = readSettings(names, raw);
  const [first] = problems;
  if (first) throw new UsageError(settingProblemLine(first.problem, `--${(SETTINGS[first.name] as Setting).flag}`));
  if (names.includes("full")) checkChange(values);
  return values;
}

/** `--changed-since REF` and `--full` (DESIGN §3 "Plans that follow the change"). */
function checkChange(values: SettingValues): void {
  const ref = values.changedSince;
  if (ref === undefined) {
    if (values.full) throw new UsageError("--full goes with --changed-since REF: without a change every plan reads the account in full");
    return;
  }
  if (ref.trim() === "") throw new UsageError("--changed-since needs a git revision, such as --changed-since origin/main or HEAD~1");
}
