/**
 * The run as events (`--format events` on stdout, `--events FILE` beside any format; DESIGN §7): the run's
 * hooks turned into render/'s events, each stamped with its time and written as one line of JSON as it
 * happens. Every string is redacted before it is serialized. A file of events is a log a consumer may follow
 * while it grows, so it is written line by line, not replaced whole at the end as other files are.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import type { Redactor } from "../api/redact.ts";
import type { ItemResult } from "../apply/types.ts";
import { ConfigError, UsageError } from "../errors.ts";
import type { Change } from "../plan/types.ts";
import {
  accountEndEvents,
  applyEndEvent,
  applyStartEvent,
  errorEvents,
  loadEvents,
  outcomeEvent,
  planEvents,
  planStartedEvent,
  readProgressEvent,
  serverWaitEvent,
  type UiEvent,
  versionEvent,
} from "../render/index.ts";
import type { RunHooks } from "../run/run-hooks.ts";
import type { Outcome } from "../run/types.ts";

/** The hooks that write the events, and the last of them, once the Outcome is known. */
export interface EventStream {
  hooks: RunHooks;
  finish(outcome: Outcome): void;
}

interface StreamOptions {
  command: string;
  version: string;
  redactor: Redactor;
  /** Where a line goes (without its newline). */
  write: (line: string) => void;
  /** The clock that stamps each event and times each change (STYLE 17). */
  now?: () => number;
}

export function eventStream(options: StreamOptions): EventStream {
  const { command, redactor, now = Date.now } = options;
  const emit = (...events: (UiEvent | undefined)[]) => {
    for (const event of events) if (event) options.write(line(event, now(), redactor));
  };
  const started = new Map<string, number>();
  let loadFailed = false;
  emit(versionEvent(options.version));
  const hooks: RunHooks = {
    onLoad(result) {
      loadFailed = !result.ok;
      emit(...loadEvents(result));
    },
    onAccountStart: (account, target) => emit(planStartedEvent(account, command, target)),
    onProgress: (progress, account) => emit(readProgressEvent(progress, account)),
    onWait: (wait, account) => emit(serverWaitEvent(wait, account)),
    onPlan: (plan, _skipped, account) => emit(...planEvents(plan, account)),
    onItemStart(change, account) {
      started.set(keyOf(change, account), now());
      emit(applyStartEvent(change, account));
    },
    onItem(item: ItemResult, _done, _total, account) {
      const since = started.get(keyOf(item.change, account));
      // A change that never started (a stop signal, an earlier 401) has no end either: the summary counts it.
      if (since !== undefined) emit(applyEndEvent(item, account, Math.max(0, now() - since) / 1000));
    },
    onAccountEnd: (run) => emit(...accountEndEvents(run)),
  };
  return {
    hooks,
    finish(outcome) {
      // Config errors were the load's own events already.
      const said = loadFailed && outcome.error instanceof ConfigError;
      if (outcome.error !== undefined && !said) emit(...errorEvents(outcome.error, undefined));
      emit(outcomeEvent(outcome));
    },
  };
}

function keyOf(change: Change, account: string): string {
  const name = change.kind === "project" ? change.project : change.domain;
  return `${account}\u0000${change.kind}\u0000${change.action}\u0000${name}`;
}

/**
 * One event as one line: its level and words first, then the time, as Terraform orders them. Every string
 * redacted; characters a terminal or a log would act on are escaped, which JSON itself does not require.
 */
function line(event: UiEvent, at: number, redactor: Redactor): string {
  const { "@level": level, "@message": message, ...rest } = event;
  const stamped = { "@level": level, "@message": message, "@module": "sitesync.ui", "@timestamp": new Date(at).toISOString(), ...rest };
  const json = JSON.stringify(stamped, (_key, value: unknown) => (typeof value === "string" ? redactor.redact(value) : value));
  return json.replace(
    /[\u007f-\u009f\u200e\u200f\u2028-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** `--events FILE`: opened before the run (a path that cannot be written stops it before any request). */
export function eventFile(path: string): { write: (line: string) => void; close: () => void } {
  let fd: number;
  try {
    fd = openSync(path, "w");
  } catch (error) {
    throw new UsageError(`--events ${path}: cannot write the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  return { write: (text) => writeSync(fd, `${text}\n`), close: () => closeSync(fd) };
}

/** Several adapters' hooks as one: each is told in turn; `approve` and `noteOf` come from the first that has them. */
export function mergeHooks(...all: RunHooks[]): RunHooks {
  const merged: Record<string, unknown> = {};
  for (const hooks of all) {
    for (const [name, fn] of Object.entries(hooks) as [keyof RunHooks, ((...args: unknown[]) => unknown) | undefined][]) {
      if (typeof fn !== "function") continue;
      const before = merged[name] as ((...args: unknown[]) => unknown) | undefined;
      if (name === "approve" || name === "noteOf") merged[name] ??= fn;
      else merged[name] = before ? chain(before, fn) : fn;
    }
  }
  // Built from RunHooks' own entries, each kept or chained with the same signature.
  return merged as RunHooks;
}

/** Both, in order; awaited together only when one of them is asynchronous (`onPlan` may be). */
function chain(first: (...args: unknown[]) => unknown, second: (...args: unknown[]) => unknown) {
  return (...args: unknown[]) => {
    const a = first(...args);
    const b = second(...args);
    return a instanceof Promise || b instanceof Promise ? Promise.all([a, b]).then(() => undefined) : undefined;
  };
}
