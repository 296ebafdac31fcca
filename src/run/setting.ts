/** A row of the settings table (run/settings.ts): what a setting is, on every surface it has. */

/** The CLI's commands; the Action runs `plan`, `apply` and `drift` (the Action's alone: DESIGN §7). */
export type SettingCommand = "validate" | "plan" | "apply" | "drift" | "show" | "export" | "adopt" | "matrix" | "sandbox";

/** What a value is, and so how its text is read and checked (run/read-settings.ts). */
type SettingKind =
  /** Free text: a name, a key, a git revision. */
  | { kind: "string" }
  | { kind: "path" }
  /** A base address: checked where it is used (model/base-url.ts, DESIGN §12). */
  | { kind: "url" }
  | { kind: "count"; min: number; max?: number }
  /** `500ms`, `30s`, `2m`, `1h`, in milliseconds; `zero` also takes 0 (a delay, not a timeout). */
  | { kind: "duration"; zero?: boolean }
  | { kind: "boolean" }
  /** Repeatable on the CLI, one per line in the Action. */
  | { kind: "list" }
  /** A list of globs (model/glob.ts). */
  | { kind: "globs" }
  | { kind: "enum"; options: readonly string[] }
  /** A probability between 0 and 1. */
  | { kind: "chance" };

/** One row of the table: one setting, on every surface it has. */
export type Setting = SettingKind & {
  /** One line, for `--help`, action.yml (unless `inputHelp`) and the reference. */
  help: string;
  /** Where it applies: each CLI command with its `flag`, and the Action's `plan`/`apply`/`drift` with its `input`. */
  commands: readonly SettingCommand[];
  /** The CLI's `--flag`, when the CLI has one. */
  flag?: string;
  /** A one-letter alias of the flag (`-c`). */
  alias?: string;
  /** The Action's input, when the setting makes sense in CI. */
  input?: string;
  /** As a user types it (`"4"`, `"30s"`); read by the same parser as any value. A boolean without one is false. */
  default?: string;
  /** The word in `--flag=<hint>`. */
  valueHint?: string;
  /** The help on one command, where the flag says more there (matrix's `--changed-since`). */
  helpOn?: Partial<Record<SettingCommand, string>>;
  /** action.yml's description, where the Action says more (or otherwise) than `help`. */
  inputHelp?: string;
  /** action.yml's default, where the runner fills in an expression (`${{ github.token }}`). */
  inputDefault?: string;
  /** The environment variable read when the setting is not given (keys by the adapter; URLs below the config's own). */
  env?: string;
  /** The reference's line for `env`, where `help` names the variable itself. */
  envHelp?: string;
  /** A key: registered with the redactor the moment it is read, never echoed in a message. */
  sensitive?: true;
  /** Changes what is planned: refused beside a saved plan (`apply plan.json`), which was planned already. */
  planning?: true;
  /** The Action takes one value (a matrix leg runs one account), though the CLI's flag repeats. */
  oneInput?: true;
};
