/**
 * The rows of the settings table (run/settings.ts) that only an adapter reads: how the CLI shows a run and
 * where it writes, the Action's GitHub side, and `export`'s files. They are settings all the same: one place
 * says each flag and input, its kind and its help.
 */
import type { Setting } from "./setting.ts";

/** The Action's own inputs: the pull-request comment and the reviewed apply on merge (DESIGN §7). */
const GITHUB_ROWS = {
  comment: {
    kind: "boolean",
    input: "comment",
    default: "true",
    commands: ["plan", "apply"],
    help:
      "On a pull request, keep one comment per config file with the latest plan, updated in place. Needs " +
      "`permissions: pull-requests: write`.",
  },
  githubToken: {
    kind: "string",
    input: "github-token",
    inputDefault: "${{ github.token }}",
    env: "GITHUB_TOKEN",
    sensitive: true,
    commands: ["plan", "apply", "drift"],
    help:
      "Token used to write the pull-request comment, the check runs and the drift issue or pull request, and, on " +
      "merge, to find the merged pull request and read its reviewed plan (only a comment written by this token's " +
      "own identity counts).",
  },
  applyUnreviewed: {
    kind: "boolean",
    input: "apply-unreviewed",
    commands: ["apply"],
    help:
      "apply only, and only on workflow_dispatch (refused on any other event): apply the current plan without a " +
      "reviewed plan, as a deliberate human action. Wire it to a workflow_dispatch input, as " +
      "examples/workflows/sitesync.yml does.",
  },
  botLogin: {
    kind: "string",
    input: "bot-login",
    commands: ["plan", "apply", "drift"],
    help:
      "The login that writes the plan comments (e.g. github-actions[bot], or my-app[bot]), when it cannot be " +
      "found from github-token: the Action asks GraphQL `viewer` (any token), then GET /user (personal tokens).",
  },
} as const satisfies Record<string, Setting>;

/** `command: drift`: what the Action does on drift (DESIGN §7, "Drift, built in"). */
const DRIFT_ROWS = {
  onDrift: {
    kind: "enum",
    options: ["issue", "pull-request", "none"],
    input: "on-drift",
    default: "issue",
    commands: ["drift"],
    help:
      "command: drift only. issue: one issue per config and account, opened on drift, updated while it lasts, " +
      "closed with a comment once the account matches again (needs `issues: write`). pull-request: adopt the " +
      "live state into the config on a branch and open or update one pull request with the edit (needs " +
      "`contents: write` and `pull-requests: write`). none: only the outputs and the job summary.",
  },
} as const satisfies Record<string, Setting>;

/** `export`: a new config file; `adopt`: live changes accepted into one in place (DESIGN §7). */
const EXPORT_ROWS = {
  exportOut: {
    kind: "path",
    flag: "out",
    alias: "o",
    valueHint: "sitesync.yaml",
    commands: ["export"],
    help: 'Write the config to this new file ("-" or none: stdout)',
  },
  force: {
    kind: "boolean",
    flag: "force",
    commands: ["export"],
    help: "Overwrite the --out file if it exists (its comments and edits are lost)",
  },
  projects: { kind: "boolean", flag: "projects", commands: ["export"], help: "Also export the projects (needs a projects URL)" },
  update: {
    kind: "path",
    flag: "update",
    valueHint: "sitesync.yaml",
    commands: ["export"],
    help: "The former spelling of `sitesync adopt FILE`, still accepted: it runs adopt with the flags that follow",
  },
  addUnlisted: {
    kind: "boolean",
    flag: "add-unlisted",
    commands: ["adopt"],
    help: "Also add live websites the file does not list (prune: true adds them anyway)",
  },
  into: {
    kind: "list",
    flag: "into",
    valueHint: "file",
    commands: ["adopt"],
    help: "The file new websites go to (default: the root's websites): the root or a file it includes, of their account; repeatable, one per account",
  },
  dryRun: { kind: "boolean", flag: "dry-run", commands: ["adopt"], help: "Show the diff, write nothing" },
} as const satisfies Record<string, Setting>;

/** How each adapter runs and shows a run: output, prompts, files, and the Action's GitHub side. */
export const ADAPTER_SETTINGS = {
  format: {
    kind: "enum",
    options: ["text", "json", "markdown", "events"],
    flag: "format",
    default: "text",
    commands: ["plan", "apply"],
    help: "Output format: text, json or markdown; events: one JSON object per line as the run goes",
  },
  // `show` prints a saved plan, not a run: no event stream.
  showFormat: {
    kind: "enum",
    options: ["text", "json", "markdown"],
    flag: "format",
    default: "text",
    commands: ["show"],
    help: "Output format: text, json or markdown",
  },
  events: {
    kind: "path",
    flag: "events",
    valueHint: "file",
    commands: ["plan", "apply"],
    help: "Also write the run's events to this file as they happen, one JSON object per line (as --format events prints them)",
  },
  verbose: {
    kind: "boolean",
    flag: "verbose",
    commands: ["plan", "apply", "export", "adopt"],
    help: "Log one line per HTTP request to stderr (the key is never shown)",
  },
  quiet: {
    kind: "boolean",
    flag: "quiet",
    alias: "q",
    commands: ["validate", "plan", "apply", "show", "export", "adopt"],
    help: "Print only results and errors",
    helpOn: { show: "Print only the plan (no note about a changed config)" },
  },
  planOut: {
    kind: "path",
    flag: "out",
    alias: "o",
    valueHint: "plan.json",
    commands: ["plan"],
    help: "Save the plan (no secrets) for `sitesync apply FILE`",
  },
  detailedExitcode: {
    kind: "boolean",
    flag: "detailed-exitcode",
    input: "detailed-exitcode",
    commands: ["plan", "drift"],
    help: "Exit 2 when there are changes (0 when none), for drift checks",
    inputHelp:
      "plan and drift: exit 2 when the account differs from the config. The step then FAILS on drift (its " +
      "outputs are still set). command: drift does without it: the drift issue or pull request is the signal.",
  },
  autoApprove: {
    kind: "boolean",
    flag: "auto-approve",
    alias: "y",
    commands: ["apply"],
    help: "Apply without asking; without it, apply asks on a terminal and refuses to start anywhere else (a saved plan too)",
  },
  // The Action writes the results to RUNNER_TEMP and names the file in its `results-file` output.
  results: {
    kind: "path",
    flag: "results",
    valueHint: "results.json",
    commands: ["apply"],
    help: "Write the results as JSON to this file",
  },
  verify: {
    kind: "boolean",
    flag: "verify",
    input: "verify",
    commands: ["apply"],
    help: "Re-read the account afterwards and report fields that did not converge",
    inputHelp: "apply only: re-read the account afterwards and report the fields that did not converge (exit 3).",
  },
  reviewed: {
    kind: "path",
    flag: "reviewed",
    valueHint: "plan.json",
    commands: ["apply"],
    help: "Plan again, apply only the changes identical in this reviewed plan (`plan --out`), report the rest (exit 4)",
  },
  strictEnv: {
    kind: "boolean",
    flag: "strict-env",
    commands: ["validate"],
    help: "Treat an unset ${VAR} as an error, as plan and apply do (else it is a note)",
  },
  ...GITHUB_ROWS,
  ...DRIFT_ROWS,
  ...EXPORT_ROWS,
} as const satisfies Record<string, Setting>;
