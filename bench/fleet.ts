/**
 * Scenario 7, a fleet (DESIGN §8 "Fleet", issue 19 item 6), through the real CLI against sandboxes in their own
 * processes. (a) Accounts on different servers run side by side: the plan of every account, beside the
 * slowest account planned alone (bound 1.2x). (b) Two accounts on one server share its budget: no 429, and
 * the wall time beside the bound of their requests at the server's rate.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { countRequests } from "./count-requests.ts";
import { type Row, seconds } from "./rows.ts";
import { type SandboxProcess, startSandboxProcess } from "./sandbox-process.ts";

const BIN = fileURLToPath(new URL("../bin/sitesync.js", import.meta.url));

export interface FleetSizes {
  /** Accounts on servers of their own (a). */
  accounts: number;
  /** Websites in each account. */
  websites: number;
  /** The throttle of every server: `limit` requests per `windowMs`. */
  limit: number;
  windowMs: number;
  /** Websites in the one server that two accounts share (b): enough to need more than one window. */
  sharedWebsites: number;
}

export async function fleetScenario(sizes: FleetSizes): Promise<Row[]> {
  return [...(await sideBySide(sizes)), ...(await oneServer(sizes))];
}

async function sideBySide(sizes: FleetSizes): Promise<Row[]> {
  const options = { seed: sizes.websites, rateLimit: sizes.limit, rateWindowMs: sizes.windowMs, latencyMs: 5 };
  const window = `${sizes.windowMs / 1000}s`;
  const args = ["plan", "--quiet", "--rate-window", window];
  // Every run on fresh servers: a server's throttle window still counting an earlier run's requests would
  // make the later run wait for it.
  const fleet = await onServers(sizes.accounts, options, async (servers, dir) => ({
    ms: await timed(args, dir, keysOf(servers)),
    throttled: (await Promise.all(servers.map(async (s) => countRequests(await s.requests()).throttled))).reduce((a, b) => a + b, 0),
  }));
  const alone: number[] = [];
  for (let i = 0; i < sizes.accounts; i++) alone.push(await onServers(1, options, (servers, dir) => timed(args, dir, keysOf(servers))));
  const slowest = Math.max(...alone);
  return [
    {
      scenario: `7a ${sizes.accounts} accounts on ${sizes.accounts} servers, ${sizes.websites.toLocaleString("en")} websites each, ${sizes.limit}/${window}: wall time of one plan of all`,
      measured: `${seconds(fleet.ms)}, ${fleet.throttled} × 429`,
      bound: `1.2 × the slowest account alone (${seconds(slowest)})`,
      ratio: fleet.ms / slowest,
      ok: fleet.ms <= 1.2 * slowest && fleet.throttled === 0,
      kind: "bound",
    },
  ];
}

/** `run` over `n` fresh servers and a repository with one account on each; both are gone afterwards. */
async function onServers<T>(n: number, options: object, run: (servers: SandboxProcess[], dir: string) => Promise<T>): Promise<T> {
  const servers = await Promise.all(Array.from({ length: n }, () => startSandboxProcess(options)));
  const dir = fleetRepository(servers);
  try {
    return await run(servers, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await Promise.all(servers.map((s) => s.close()));
  }
}

async function oneServer(sizes: FleetSizes): Promise<Row[]> {
  const server = await startSandboxProcess({
    seed: sizes.sharedWebsites,
    rateLimit: sizes.limit,
    rateWindowMs: sizes.windowMs,
    latencyMs: 5,
  });
  const dir = fleetRepository([server, server]);
  try {
    const window = `${sizes.windowMs / 1000}s`;
    const ms = await timed(["plan", "--quiet", "--rate-window", window], dir, keysOf([server, server]));
    const counts = countRequests(await server.requests());
    // The first window's budget is there at once; every further `limit` requests wait a window.
    const boundMs = (Math.ceil(counts.accepted / sizes.limit) - 1) * sizes.windowMs;
    return [
      {
        scenario: `7b 2 accounts on one server, ${sizes.sharedWebsites.toLocaleString("en")} websites each read, ${sizes.limit}/${window}: 429 answers`,
        measured: `${counts.throttled} (of ${counts.accepted + counts.throttled} requests)`,
        bound: "0",
        ok: counts.throttled === 0,
        kind: "count",
      },
      {
        scenario: "7b 2 accounts on one server: wall time",
        measured: seconds(ms),
        bound: `1.1 × their ${counts.accepted} requests at the shared rate (${seconds(boundMs)})`,
        ...(boundMs > 0 ? { ratio: ms / boundMs } : {}),
        ok: boundMs === 0 || ms <= 1.1 * boundMs + 2000,
        kind: "bound",
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await server.close();
  }
}

/** A root with one account per server (key variable KEY_n) and one client file per account listing nothing. */
function fleetRepository(servers: readonly SandboxProcess[]): string {
  const dir = mkdtempSync(join(tmpdir(), "sitesync-bench-fleet-"));
  mkdirSync(join(dir, "clients"));
  const accounts = servers.map((s, i) => `  a${i}: { websites_url: ${s.url}, api_key_env: KEY_${i} }`);
  writeFileSync(join(dir, "sitesync.yaml"), ["version: 1", "accounts:", ...accounts, 'include: ["clients/*.yaml"]', ""].join("\n"));
  for (const i of servers.keys()) writeFileSync(join(dir, "clients", `a${i}.yaml`), `account: a${i}\nwebsites: []\n`);
  return dir;
}

function keysOf(servers: readonly SandboxProcess[]): Record<string, string> {
  return Object.fromEntries(servers.map((s, i) => [`KEY_${i}`, s.apiKey]));
}

async function timed(args: string[], cwd: string, env: Record<string, string>): Promise<number> {
  const started = performance.now();
  const code = await new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { PATH: process.env.PATH ?? "", ...env }, stdio: "ignore" });
    child.on("error", reject);
    child.on("close", (c) => resolve(c ?? -1));
  });
  if (code !== 0) throw new Error(`sitesync ${args.join(" ")} exited ${code}`);
  return performance.now() - started;
}
