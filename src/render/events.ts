/**
 * A run as a stream of events (`--format events`, `--events FILE`; DESIGN §7), modelled on Terraform's
 * machine-readable UI: one JSON object per line, each with `@level`, `@message` (these words) and `type`, and
 * `account` on every event about one account ("" for a config without `accounts:`). The adapter stamps
 * `@timestamp` as it writes each one. The shape is `schemas/events.schema.json`; within a major `ui` version,
 * fields and event types are only added. Pure.
 */

import type { ItemResult } from "../apply/types.ts";
import type { LoadResult } from "../config/types.ts";
import { ConfigError, type Diagnostic, formatDiagnostic } from "../errors.ts";
import type { Change, Plan } from "../plan/types.ts";
import type { AccountRun, Outcome, ReadProgress } from "../run/types.ts";
import { summaryWords } from "./_values.ts";
import { changeLine } from "./change-line.ts";
import { errorLines } from "./error-text.ts";
import { rateWaitLine, rereadLine } from "./progress-words.ts";
import { refusalWords } from "./refusal-words.ts";
import { itemLine } from "./results-text.ts";
import { waitLine } from "./wait-line.ts";

/** The stream's version: a consumer rejects a major version it does not know, and ignores fields it does not. */
const EVENTS_UI_VERSION = "1.0";

type EventLevel = "info" | "warn" | "error";

/** One event before its timestamp. */
export interface UiEvent {
  "@level": EventLevel;
  "@message": string;
  type: string;
  account?: string;
  [field: string]: unknown;
}

const event = (level: EventLevel, message: string, type: string, body: Record<string, unknown>): UiEvent => ({
  "@level": level,
  "@message": message,
  type,
  ...body,
});

export function versionEvent(version: string): UiEvent {
  return event("info", `sitesync ${version}`, "version", { sitesync: version, ui: EVENTS_UI_VERSION });
}

export function planStartedEvent(account: string, command: string, target: Plan["target"]): UiEvent {
  const where = target.websites ?? target.projects;
  const message = `${account === "" ? "" : `${account}: `}${command}: reading the account${where ? ` at ${where}` : ""}`;
  return event("info", message, "plan_started", { account, command, target });
}

/** Pages read of the total, a re-read and why, or a wait for the rate budget (which is a `rate_wait`). */
export function readProgressEvent(progress: ReadProgress, account: string): UiEvent | undefined {
  if (progress.kind === "rate-wait") {
    if (progress.phase === "end") return undefined;
    const { origin, ms, limit, windowMs } = progress;
    const wait = { origin, cause: "pacing", seconds: ms / 1000, limit, window_seconds: windowMs / 1000 };
    return event("info", rateWaitLine(progress), "rate_wait", { account, wait });
  }
  if (progress.kind === "reread") {
    const { noun, attempt, of, problem } = progress;
    return event("warn", rereadLine(progress), "read_progress", { account, progress: { kind: "reread", noun, attempt, of, problem } });
  }
  const { noun, read, of } = progress;
  const message = `reading ${noun}: ${read}${of === undefined ? "" : ` of ${of}`} pages`;
  return event("info", message, "read_progress", {
    account,
    progress: { kind: "page", noun, pages_read: read, ...(of === undefined ? {} : { pages_total: of }) },
  });
}

/** A pause a server asked for (Retry-After, X-RateLimit-Reset). */
export function serverWaitEvent(wait: { ms: number; origin: string; reason: string }, account: string): UiEvent {
  const body = { origin: wait.origin, cause: "server", seconds: wait.ms / 1000, header: wait.reason };
  return event("info", waitLine(wait), "rate_wait", { account, wait: body });
}

/** A change as events name it: never a value (a value may be a secret), the fields by name. */
function changeData(change: Change): Record<string, unknown> {
  const name = change.kind === "project" ? change.project : change.domain;
  return {
    action: change.action,
    kind: change.kind,
    name,
    ...(change.kind === "website" && change.action !== "create" ? { id: change.id } : {}),
    ...(change.action === "delete" ? { reason: change.reason } : { fields: change.fields.map((f) => f.field) }),
    ...(change.source ? { source: { file: change.source.file, line: change.source.line, column: change.source.column } } : {}),
  };
}

/** A plan: each change, its warnings and refusals as diagnostics, then the counts. */
export function planEvents(plan: Plan, account: string): UiEvent[] {
  const changes = plan.changes.map((change) =>
    event(change.action === "delete" ? "warn" : "info", changeLine(change, { kind: true, fields: "names" }), "planned_change", {
      account,
      change: changeData(change),
    }),
  );
  const warnings = plan.warnings.map((w) =>
    diagnosticEvent({ severity: "warning", code: w.code, summary: w.message, ...(w.source ? { source: w.source } : {}) }, account),
  );
  // A machine reads the stream: the words are the CLI's, the data stays in the refusal's code.
  const refusals = plan.refusals.map((r) => diagnosticEvent({ severity: "error", code: r.code, summary: refusalWords(r, "cli") }, account));
  const { create, update, delete: deletes, unchanged } = plan.summary;
  const summary = event("info", `Plan: ${summaryWords(plan.summary)}.`, "change_summary", {
    account,
    changes: { operation: "plan", create, update, delete: deletes, unchanged },
  });
  return [...changes, ...warnings, ...refusals, summary];
}

export function applyStartEvent(change: Change, account: string): UiEvent {
  return event("info", `${changeLine(change, { kind: true })}: applying`, "apply_start", { account, hook: { change: changeData(change) } });
}

/** A change that was started and ended: applied (`apply_complete`), else `apply_errored`, with its reason code. */
export function applyEndEvent(item: ItemResult, account: string, elapsedSeconds: number): UiEvent {
  const done = item.status === "applied";
  const hook = {
    change: changeData(item.change),
    reason: item.reason,
    elapsed_seconds: elapsedSeconds,
    ...(item.id === undefined ? {} : { id: item.id }),
    ...(item.error ? { error: item.error.message } : {}),
  };
  return event(done ? "info" : "error", itemLine(item), done ? "apply_complete" : "apply_errored", { account, hook });
}

interface DiagnosticData {
  severity: "error" | "warning";
  code: string;
  summary: string;
  detail?: string;
  source?: { file: string; line: number; column: number };
}

function diagnosticEvent(d: DiagnosticData, account: string | undefined): UiEvent {
  const range =
    d.source && d.source.line > 0 ? { filename: d.source.file, start: { line: d.source.line, column: d.source.column } } : undefined;
  const body = {
    severity: d.severity,
    code: d.code,
    summary: d.summary,
    ...(d.detail ? { detail: d.detail } : {}),
    ...(range ? { range } : {}),
  };
  return event(d.severity === "error" ? "error" : "warn", d.summary, "diagnostic", {
    ...(account === undefined ? {} : { account }),
    diagnostic: body,
  });
}

function configDiagnostic(d: Diagnostic, account: string | undefined): UiEvent {
  const summary = formatDiagnostic(d);
  return diagnosticEvent({ severity: d.severity, code: d.code, summary, source: d }, account);
}

/** The config's warnings and errors as it loaded. */
export function loadEvents(result: LoadResult): UiEvent[] {
  const diagnostics = result.ok ? result.warnings : [...result.errors, ...result.warnings];
  return diagnostics.map((d) => configDiagnostic(d, undefined));
}

/** What ended a run, or one account's run, as a diagnostic: the first line its summary, the rest its detail. */
export function errorEvents(error: unknown, account: string | undefined, keys?: AccountRun["keys"]): UiEvent[] {
  if (error instanceof ConfigError) return error.diagnostics.map((d) => configDiagnostic(d, account));
  const [summary = "error", ...rest] = errorLines(error, keys);
  const code = error !== null && typeof error === "object" && "code" in error ? String(error.code) : "error";
  return [diagnosticEvent({ severity: "error", code, summary, ...(rest.length > 0 ? { detail: rest.join("\n") } : {}) }, account)];
}

/** An account's run ended: apply's counts when it applied, and the error that ended it, if one did. */
export function accountEndEvents(run: AccountRun): UiEvent[] {
  const events: UiEvent[] = [];
  if (run.results) {
    const { applied, failed, skipped, unchanged } = run.results.counts;
    const message = `Apply: ${applied} applied, ${failed} failed, ${skipped} skipped.`;
    events.push(
      event(failed > 0 ? "error" : "info", message, "change_summary", {
        account: run.name,
        changes: { operation: "apply", applied, failed, skipped, unchanged },
      }),
    );
  }
  if (run.error !== undefined) events.push(...errorEvents(run.error, run.name, run.keys));
  return events;
}

/** The last event: the run's exit code and each account's (DESIGN §7). */
export function outcomeEvent(outcome: Outcome): UiEvent {
  const accounts = outcome.accounts.map((run) => ({ account: run.name, exit_code: run.exitCode }));
  const level: EventLevel = outcome.exitCode === 0 || outcome.exitCode === 2 ? "info" : "error";
  return event(level, `sitesync ${outcome.command} finished: exit code ${outcome.exitCode}`, "outcome", {
    outcome: { command: outcome.command, exit_code: outcome.exitCode, accounts },
  });
}
