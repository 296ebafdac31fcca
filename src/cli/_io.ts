/**
 * The CLI's output: results to stdout, logs and progress to stderr (STYLE habit 9). Every line written goes
 * through `redact`, a last line of defence so that a secret that slipped into a message is never printed.
 */
import { writeFileSync } from "node:fs";
import pc from "picocolors";
import { UsageError } from "../errors.ts";

export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** Colors for stderr/stdout text: on only on a TTY and without NO_COLOR. */
  color: boolean;
  /** Adds values that must never be printed (the key, passwords). */
  addSecrets(values: Iterable<string | undefined>): void;
  redact(text: string): string;
}

/** Secrets shorter than this are not searched for: redacting every "a" would garble the output. */
const MIN_SECRET_LENGTH = 4;

/** Where the lines go: the process's streams, or (tests, benchmarks) anywhere else, colorless. */
export interface Sinks {
  out(text: string): void;
  err(text: string): void;
}

export function createIo(env: NodeJS.ProcessEnv = process.env, sinks?: Sinks): Io {
  const secrets = new Set<string>();
  const isTTY = !sinks && Boolean(process.stdout.isTTY);
  const write = sinks ?? { out: (text: string) => process.stdout.write(text), err: (text: string) => process.stderr.write(text) };
  const io: Io = {
    color: !("NO_COLOR" in env) && (isTTY || (!sinks && env.FORCE_COLOR !== undefined)) && pc.isColorSupported,
    addSecrets(values) {
      for (const value of values) if (value && value.length >= MIN_SECRET_LENGTH) secrets.add(value);
    },
    redact(text) {
      let result = text;
      for (const secret of secrets) result = result.replaceAll(secret, "(sensitive)");
      return result;
    },
    out(text) {
      write.out(io.redact(text.endsWith("\n") ? text : `${text}\n`));
    },
    err(text) {
      write.err(io.redact(text.endsWith("\n") ? text : `${text}\n`));
    },
  };
  return io;
}

/** Writes a file the user asked for (`--out`, `--results`); a failure is a usage error naming the path. */
export function writeOutput(path: string, text: string): void {
  try {
    writeFileSync(path, text);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new UsageError(`cannot write ${path} (${code}): check the folder exists and is writable`);
  }
}
