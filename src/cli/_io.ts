/**
 * The CLI's output: results to stdout, logs and progress to stderr (STYLE habit 9). Every line written goes
 * through the run's redactor and an inert gate, last lines of defence: a long secret that slipped into a
 * message is never printed, and no control character but our own newlines, tabs and colors reaches the
 * terminal (the fields themselves are escaped where the text is made: DESIGN §12).
 */
import pc from "picocolors";
import type { Redactor } from "../api/redact.ts";
import { printable } from "../model/printable.ts";
import { createRunRedactor } from "../run/run-redactor.ts";
import type { Env } from "../run/types.ts";

export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** Colors for stderr/stdout text: on only on a TTY and without NO_COLOR. */
  color: boolean;
  /** Knows every secret of the run (the key, passwords) and removes them from what is printed. */
  redactor: Redactor;
  /**
   * A terminal's live status line on stderr (the progress bar): `text` replaces the one drawn before, and
   * `undefined` clears it. Through the same gate as every other line; the only cursor moves are the gate's.
   */
  status(text: string | undefined): void;
}

/** Where the lines go: the process's streams, or (tests, benchmarks) anywhere else, colorless. */
export interface Sinks {
  out(text: string): void;
  err(text: string): void;
}

/** Erases the current terminal line: the status line, before a line or a new status takes its place. */
const CLEAR_LINE = "\r\u001b[K";

export function createIo(env: Env, sinks?: Sinks): Io {
  const isTTY = !sinks && Boolean(process.stdout.isTTY);
  const write = sinks ?? processSinks();
  const redactor = createRunRedactor();
  const color = !("NO_COLOR" in env) && (isTTY || (!sinks && env.FORCE_COLOR !== undefined)) && pc.isColorSupported;
  const line = (text: string) => inert(redactor.redact(text.endsWith("\n") ? text : `${text}\n`), color);
  let drawn = false;
  const clear = () => {
    if (drawn) write.err(CLEAR_LINE);
    drawn = false;
  };
  return {
    color,
    redactor,
    out: (text) => write.out(line(text)),
    err: (text) => {
      clear();
      write.err(line(text));
    },
    status: (text) => {
      clear();
      if (text === undefined) return;
      write.err(inert(redactor.redact(text.replaceAll("\n", " ")), color));
      drawn = true;
    },
  };
}

/**
 * The process's streams. A reader that goes away (`sitesync plan --format events | head -1`) closes the pipe:
 * what follows for that stream is dropped, as a Unix tool stops writing on SIGPIPE, and the run ends as it
 * would have, with its exit code, never with an EPIPE stack trace.
 */
function processSinks(): Sinks {
  const writer = (stream: NodeJS.WriteStream) => {
    let closed = false;
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") throw error;
      closed = true;
    });
    return (text: string) => {
      if (!closed) stream.write(text);
    };
  };
  return { out: writer(process.stdout), err: writer(process.stderr) };
}

// Colors (SGR sequences) are ours only when color is on; any other escape sequence is not.
const SGR = /\u001b\[[0-9;]*m/y;
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** `text` with every control character but newline and tab escaped; with `color`, SGR sequences kept. */
export function inert(text: string, color: boolean): string {
  return text.replace(CONTROL, (char, at: number) => {
    if (color && char === "\u001b") {
      SGR.lastIndex = at;
      if (SGR.test(text)) return char;
    }
    return printable(char);
  });
}
