/**
 * Bounded reads (DESIGN §12): every byte sitesync reads from a path named by a user or a file (a config, an
 * included file, a saved plan) comes through here, from a regular file only and never past its cap.
 */
import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

/**
 * The largest config file read: 4x the export of a 100,000-website account (about 14 MB), so that sitesync
 * never refuses its own export, and small enough that every config under it loads within a 1 GB heap
 * (DESIGN §12; bench/RESULTS.md measures one at the cap). No option raises it.
 */
export const MAX_CONFIG_BYTES = 64 * 2 ** 20;
/** Why the cap is what it is, for its message. */
export const CONFIG_CAP_NOTE =
  "4 times the export of a 100,000-website account; the cap is fixed, so that every config under it loads within a 1 GB heap";

/**
 * A config file's bytes, or why not: every read of a config goes through here, bounded (DESIGN §12).
 * @internal
 */
export function readConfigBytes(file: string): Buffer | string {
  return readBounded(file, MAX_CONFIG_BYTES, "a config", CONFIG_CAP_NOTE);
}

/**
 * The file's bytes, or why not. Only a regular file of at most `maxBytes` is read (a path to /dev/zero or
 * /dev/urandom crashed or hung `validate`). Opened non-blocking, so a FIFO cannot hang the open; the checks are
 * on the opened file, and the read stops one byte past the cap whatever it says.
 * @internal Not part of the library: its `Buffer` would need @types/node in every consumer.
 */
export function readBounded(file: string, maxBytes: number, what: string, capNote?: string): Buffer | string {
  const over = `more than the ${mib(maxBytes)} ${what} may be${capNote ? ` (${capNote})` : ""}`;
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    const stat = fstatSync(fd);
    if (stat.isDirectory()) return "it is a directory";
    if (!stat.isFile()) return "it is not a regular file (a device, a FIFO or a socket)";
    if (stat.size > maxBytes) return `it is ${mib(stat.size)}, ${over}`;
    // One byte more than the file said it holds: a file that grows while it is read is caught below.
    const buffer = Buffer.allocUnsafe(Math.min(stat.size, maxBytes) + 1);
    let length = 0;
    for (let n = -1; n !== 0 && length < buffer.length; length += n) n = readSync(fd, buffer, length, buffer.length - length, null);
    if (length > maxBytes) return `it is ${over}`;
    if (length > stat.size) return "it changed while it was read: try again";
    return buffer.subarray(0, length);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    return code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a directory" : `cannot read it (${code ?? String(cause)})`;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** `12.5 MiB`: how sizes and caps are worded. */
export function mib(bytes: number): string {
  return `${Number((bytes / 2 ** 20).toFixed(1))} MiB`;
}

/** Where a file's bytes stop being config text (1-based, as other diagnostics), and why. */
export interface NotText {
  line: number;
  column: number;
  why: string;
}

/**
 * The text of a config file's bytes (strict UTF-8 without NUL), or where and why it is not: a file saved as
 * Latin-1 is told at its first such byte, not called binary (DESIGN §12: every bad input says where).
 */
export function decodeText(bytes: Uint8Array): string | NotText {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  if ((buffer[0] === 0xff && buffer[1] === 0xfe) || (buffer[0] === 0xfe && buffer[1] === 0xff)) {
    return { line: 1, column: 1, why: "it is UTF-16 (it starts with a UTF-16 byte order mark): save it as UTF-8" };
  }
  // A NUL is no text, whatever surrounds it: such a file is most likely binary.
  const nul = buffer.indexOf(0);
  if (nul !== -1) return { ...positionOf(buffer, nul), why: "it holds a NUL byte (a binary file?): pass the YAML file with -c/--config" };
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    // Decoded leniently and encoded again, the bytes are the same up to the first that is not UTF-8.
    const again = Buffer.from(buffer.toString("utf8"), "utf8");
    let at = 0;
    while (at < buffer.length && buffer[at] === again[at]) at++;
    const byte = `0x${(buffer[at] ?? 0).toString(16).toUpperCase().padStart(2, "0")}`;
    return { ...positionOf(buffer, at), why: `byte ${byte} is not UTF-8 (a file saved as Latin-1 or Windows-1252?): save it as UTF-8` };
  }
}

/** The line and column of a byte offset, the column counted in the characters before it on its line. */
function positionOf(buffer: Buffer, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = buffer.indexOf(0x0a); i !== -1 && i < offset; i = buffer.indexOf(0x0a, i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: buffer.toString("utf8", lineStart, offset).length + 1 };
}

/** A config file's digest (DESIGN §3: saved plans and reviews record it): the sha256 of its bytes. */
export function configDigest(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}
