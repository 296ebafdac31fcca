/**
 * The optional state file. Passwords are kept only as a SHA-256 digest there: the API never returns them
 * (only whether one is set), and a state file in a working tree must not hold a real secret.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import type { StoreSnapshot } from "./store.ts";

const DIGEST = "sha256:";

/** The saved snapshot, or undefined when the file does not exist. Throws on a file that is not ours. */
export function loadSnapshot(file: string): StoreSnapshot | undefined {
  if (!existsSync(file)) return undefined;
  const data = JSON.parse(readFileSync(file, "utf8")) as Partial<StoreSnapshot>;
  if (data.version !== 1 || !Array.isArray(data.websites) || !Array.isArray(data.projects)) {
    throw new Error(`${file} is not a sitesync sandbox state file (version 1)`);
  }
  return {
    version: 1,
    nextId: typeof data.nextId === "number" ? data.nextId : 1,
    websites: data.websites,
    projects: data.projects,
    otherUsersDomains: Array.isArray(data.otherUsersDomains) ? data.otherUsersDomains : [],
  };
}

/** Writes atomically (temp file, then rename), so a crash never leaves half a file. */
export function saveSnapshot(file: string, snapshot: StoreSnapshot): void {
  const websites = snapshot.websites.map((w) => ({ ...w, password: digest(w.password) }));
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify({ ...snapshot, websites }, null, 1)}\n`);
  renameSync(temp, file);
}

/** Keeps the password's truthiness (what the API shows) without keeping the password. */
function digest(password: string | null): string | null {
  if (password === null || password === "" || password === "0" || password.startsWith(DIGEST)) return password;
  return DIGEST + createHash("sha256").update(password).digest("hex");
}
