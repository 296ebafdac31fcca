/**
 * One apply per account at a time on this machine (DESIGN §6): an apply holds the account's lock from before
 * its first read until it ends, and a second apply of the same account (the same address and key) refuses
 * before any request, naming the run that holds it. The API offers nothing to hold a lock in, so across
 * machines the CI's concurrency groups (examples/workflows) and the cron wrapper's flock keep applies apart.
 *
 * The lock is a local socket that the holder listens on and that tells whoever connects who holds it: the
 * operating system frees it when the holder ends, however it ends (an abstract socket on Linux, a named pipe
 * on Windows; elsewhere a socket file, whose leftover after a crash nobody answers, so it is taken over).
 */
import { createHash } from "node:crypto";
import { rmSync } from "node:fs";
import { connect, createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AccountBusyError, type LockHolder } from "../errors.ts";

/** How long a holder may take to say who it is before it is taken for a holder that cannot (a bound, not a pace). */
const ASK_TIMEOUT_MS = 2_000;

export interface AccountLock {
  release(): Promise<void>;
}

/** The account a lock is for: its websites address and the key used there. */
export interface LockedAccount {
  address: string;
  apiKey: string;
}

/**
 * Holds the account's lock, or throws AccountBusyError naming the run that holds it. Where no lock can be
 * made at all (a socket refused for another reason than being in use), the apply runs without one.
 */
export async function holdAccountLock(account: LockedAccount, holder: LockHolder, where: LockPlace = {}): Promise<AccountLock> {
  const platform = where.platform ?? process.platform;
  const path = lockPath(account, platform, where.dir ?? tmpdir());
  for (let attempt = 1; ; attempt++) {
    const server = createServer((socket) => socket.end(JSON.stringify(holder)));
    const error = await listen(server, path);
    if (error === undefined) {
      // The lock never keeps the process alive; the OS frees it with the process.
      server.unref();
      return { release: () => new Promise<void>((resolve) => server.close(() => resolve())) };
    }
    if (error !== "EADDRINUSE") return { release: async () => {} };
    const other = await askHolder(path);
    if (other !== "nobody") throw new AccountBusyError(account.address, other);
    // Only a socket file outlives its holder: a crashed run's, which nobody answers.
    if (attempt > 1 || platform === "linux" || platform === "win32") throw new AccountBusyError(account.address, undefined);
    rmSync(path, { force: true });
  }
}

/** Where the lock lives: the platform decides the kind; a socket file goes to `dir` (default: the temporary folder). */
export interface LockPlace {
  platform?: NodeJS.Platform;
  dir?: string;
}

/** Hashed: the name is visible to every user of the machine, and must not carry the key. */
function lockPath({ address, apiKey }: LockedAccount, platform: NodeJS.Platform, dir: string): string {
  const name = `sitesync-apply-${createHash("sha256").update(`${address}\n${apiKey}`).digest("hex").slice(0, 24)}`;
  if (platform === "win32") return `\\\\?\\pipe\\${name}`;
  if (platform === "linux") return `\0${name}`;
  return join(dir, `${name}.sock`);
}

function listen(server: Server, path: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    server.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
    server.listen(path, () => resolve(undefined));
  });
}

/** Who holds the lock at `path`; undefined when it answers but cannot say, "nobody" when nothing answers. */
function askHolder(path: string): Promise<LockHolder | undefined | "nobody"> {
  return new Promise((resolve) => {
    let text = "";
    const socket = connect(path);
    const timer = setTimeout(() => done(undefined), ASK_TIMEOUT_MS);
    const done = (answer: LockHolder | undefined | "nobody") => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      if (text.length < 1_000) text += chunk;
    });
    socket.on("end", () => done(parseHolder(text)));
    socket.on("error", (error: NodeJS.ErrnoException) =>
      done(error.code === "ECONNREFUSED" || error.code === "ENOENT" ? "nobody" : undefined),
    );
  });
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (typeof value.pid === "number" && typeof value.started === "string") return { pid: value.pid, started: value.started };
  } catch {}
  return undefined;
}
