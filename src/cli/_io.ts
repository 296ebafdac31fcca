/**
 * The CLI's output: results to stdout, logs and progress to stderr (STYLE habit 9). Every line written goes
 * through the run's redactor, a last line of defence so that a secret that slipped into a message is never
 * printed.
 */
import pc from "picocolors";
import type { Redactor } from "../api/redact.ts";
import { createRunRedactor } from "../run/redactor.ts";
import type { Env } from "../run/types.ts";

export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** Colors for stderr/stdout text: on only on a TTY and without NO_COLOR. */
  color: boolean;
  /** Knows every secret of the run (the key, passwords) and removes them from what is printed. */
  redactor: Redactor;
}

/** Where the lines go: the process's streams, or (tests, benchmarks) anywhere else, colorless. */
export interface Sinks {
  out(text: string): void;
  err(text: string): void;
}

export function createIo(env: Env, sinks?: Sinks): Io {
  const isTTY = !sinks && Boolean(process.stdout.isTTY);
  const write = sinks ?? { out: (text: string) => process.stdout.write(text), err: (text: string) => process.stderr.write(text) };
  const redactor = createRunRedactor();
  const line = (text: string) => redactor.redact(text.endsWith("\n") ? text : `${text}\n`);
  return {
    color: !("NO_COLOR" in env) && (isTTY || (!sinks && env.FORCE_COLOR !== undefined)) && pc.isColorSupported,
    redactor,
    out: (text) => write.out(line(text)),
    err: (text) => write.err(line(text)),
  };
}
