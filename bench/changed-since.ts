/**
 * Scenario 6, a plan that follows the change (DESIGN §8 "change-scoped plan", issue 18): a commit that edits 3
 * websites (a readable field, only exclude_params, a rotation by password_version) in an account of N
 * websites under the real API's 60/min throttle. `sitesync plan --changed-since HEAD~1` through the real CLI
 * (a child process) against the sandbox in its own process: requests (bound k + 2) and wall time, beside what
 * the full read costs. The full read is not run: at 60/min, 100,000 websites take 1,000 requests and about 17
 * minutes; its cost is computed from the bound (⌈N/100⌉ requests, and the rate-limit windows they need) and the
 * row says so.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { countRequests, listCalls } from "./count-requests.ts";
import { type Row, seconds } from "./rows.ts";
import { startSandboxProcess } from "./sandbox-process.ts";

const BIN = fileURLToPath(new URL("../bin/sitesync.js", import.meta.url));
const LIMIT = 60;
const WINDOW_MS = 60_000;
const TOUCHED = 3;

export interface ChangedSinceSizes {
  /** Account sizes, each a row pair. */
  websites: number[];
}

export async function changedSinceScenario(sizes: ChangedSinceSizes): Promise<Row[]> {
  const rows: Row[] = [];
  for (const websites of sizes.websites) rows.push(...(await oneAccount(websites)));
  return rows;
}

async function oneAccount(websites: number): Promise<Row[]> {
  const sandbox = await startSandboxProcess({ seed: websites, rateLimit: LIMIT, rateWindowMs: WINDOW_MS });
  const dir = repository(websites);
  try {
    const env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url, STATS_PW: "bench-rotated-password" };
    const started = performance.now();
    const code = await cli(["plan", "--changed-since", "HEAD~1", "--detailed-exitcode", "--quiet"], dir, env);
    const ms = performance.now() - started;
    if (code !== 2) throw new Error(`plan --changed-since exited ${code}, expected 2 (changes)`);
    const counts = countRequests(await sandbox.requests());
    const requests = counts.list + counts.otherGets;
    const fullRequests = listCalls(websites);
    // The rate-limit waits of the full read, as the plan's estimate counts them: the first window's budget is there at once.
    const fullMs = (Math.ceil(fullRequests / LIMIT) - 1) * WINDOW_MS;
    const label = `6 change of ${TOUCHED} websites in ${websites.toLocaleString("en")} at ${LIMIT}/min`;
    return [
      {
        scenario: `${label}: requests of plan --changed-since`,
        measured: `${requests} (${counts.list} list, ${counts.otherGets} other GETs), ${counts.throttled} × 429`,
        bound: `≤ k + 2 = ${TOUCHED + 2}; a full read: ${fullRequests}`,
        ok: requests <= TOUCHED + 2 && counts.throttled === 0,
        kind: "count",
      },
      {
        scenario: `${label}: wall time of plan --changed-since`,
        measured: seconds(ms),
        bound: `a full read: ≥ ${formatMinutes(fullMs)} (${fullRequests} requests at ${LIMIT}/min, computed, not run)`,
        ...(fullMs > 0 ? { ratio: ms / fullMs } : {}),
        ok: fullMs === 0 || ms < fullMs,
        kind: "bound",
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await sandbox.close();
  }
}

/** A git repository whose sitesync.yaml lists every seeded website at HEAD~1, and edits three at HEAD. */
function repository(websites: number): string {
  const dir = mkdtempSync(join(tmpdir(), "sitesync-bench-change-"));
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=bench", "-c", "user.email=bench@example.com", "-c", "commit.gpgsign=false", ...args], {
      cwd: dir,
      stdio: "ignore",
    });
  const domain = (i: number) => `site-${String(i).padStart(5, "0")}.example.com`;
  const entries = Array.from({ length: websites }, (_, i) => `  - domain: ${domain(i + 1)}\n`);
  const file = join(dir, "sitesync.yaml");
  const write = () => writeFileSync(file, `version: 1\nwebsites:\n${entries.join("")}`);
  git("init", "-q");
  write();
  git("add", "-A");
  git("commit", "-q", "-m", "base");
  entries[0] = `  - domain: ${domain(1)}\n    email: true\n`;
  entries[1] = `  - domain: ${domain(2)}\n    exclude_params: [fbclid]\n`;
  entries[2] = `  - domain: ${domain(3)}\n    privacy: password\n    password: \${STATS_PW}\n    password_version: 2\n`;
  write();
  git("commit", "-q", "-am", "three edits");
  return dir;
}

function cli(args: string[], cwd: string, env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { PATH: process.env.PATH ?? "", ...env }, stdio: "ignore" });
    child.on("error", reject);
    child.on("close", (code) => resolve(code ?? -1));
  });
}

function formatMinutes(ms: number): string {
  const minutes = ms / 60_000;
  return minutes >= 1 ? `${minutes.toFixed(1)} min` : seconds(ms);
}
