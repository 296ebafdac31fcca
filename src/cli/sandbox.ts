import type { ArgsDef } from "citty";
import { UsageError } from "../errors.ts";
import { plural } from "../model/plural.ts";
import { ExitCode } from "../run/exit-code.ts";
import type { Env } from "../run/types.ts";
import { checkWritable } from "../run/write-file.ts";
import type { FaultOptions, SandboxOptions } from "../sandbox/index.ts";
import { startSandbox } from "../sandbox/index.ts";
import { parseCount, parseDuration } from "./_args.ts";
import { command } from "./_command.ts";

const PUT_MISSING: string[] = ["500", "404"];

const args = {
  port: { type: "string", default: "0", description: "Port on 127.0.0.1 (0 picks a free one)", valueHint: "n" },
  key: { type: "string", description: "API key to accept (else SITESYNC_API_KEY, else a generated one)", valueHint: "key" },
  "projects-key": { type: "string", description: "Separate key for /api/v1/projects (default: the same key)", valueHint: "key" },
  seed: { type: "string", description: "Generate N websites (site-00001.example.com, ...)", valueHint: "n" },
  "seed-projects": { type: "string", description: "Generate N projects", valueHint: "n" },
  latency: { type: "string", description: "Delay before every answer, e.g. 50ms", valueHint: "duration" },
  "rate-limit": { type: "string", description: "Requests per window (default 60, like the real API; 0 disables)", valueHint: "n" },
  "rate-window": { type: "string", description: "Rate-limit window (default 60s)", valueHint: "duration" },
  "per-page-default": { type: "string", description: "per_page used for values other than 10, 25, 50, 100 (default 10)", valueHint: "n" },
  "website-limit": { type: "string", description: "Plan limit on websites (default -1: unlimited)", valueHint: "n" },
  "put-missing": {
    type: "enum",
    options: PUT_MISSING,
    description: "Answer to a PUT on a missing website: 500 (the real bug, default) or 404",
  },
  "error-rate": { type: "string", description: "Chance (0..1) of a 500 without doing the work", valueHint: "p" },
  "reset-rate": { type: "string", description: "Chance of hanging up without an answer", valueHint: "p" },
  "slow-rate": { type: "string", description: "Chance of answering only after --slow-ms", valueHint: "p" },
  "slow-ms": { type: "string", description: "Delay of a slow answer (default 5s)", valueHint: "duration" },
  "drop-rate": { type: "string", description: "Chance that a write is done but its answer is lost", valueHint: "p" },
  "fault-seed": { type: "string", description: "Seed of the fault PRNG, to replay a run", valueHint: "n" },
  persist: { type: "string", description: "Load the account from this JSON file and save it after every write", valueHint: "file" },
  log: { type: "boolean", description: "Print one line per request to stderr (the key is never shown)" },
} as const satisfies ArgsDef;

type Flags = { [K in keyof typeof args]?: string | boolean };

export default command({
  meta: {
    name: "sandbox",
    description:
      "Run a local imitation of the phpAnalytics Websites and phpRank Projects APIs (shapes, errors, 60/min " +
      "throttle, write-only fields), to try a config or a CI job without touching a real account.",
  },
  args,
  examples: [
    "SITESYNC_API_KEY=dev-key sitesync sandbox --seed 250 --log",
    "SITESYNC_API_KEY=dev-key sitesync plan --websites-url http://127.0.0.1:<printed port>",
  ],
  async run(flags, { io, env, signal }) {
    const options = sandboxOptions(flags, env);
    if (flags.log) options.log = (line) => io.err(line);
    if (options.persist) checkWritable(options.persist);
    const sandbox = await startSandbox(options).catch((error: unknown) => {
      throw startError(error, options);
    });
    const websites = sandbox.store.websites().length;
    const projects = sandbox.store.projects().length;
    // A key taken from the environment may be a real account's: it is never printed (the user has it already).
    const fromEnv = !flags.key && sandbox.apiKey === env.SITESYNC_API_KEY;
    io.out(`sitesync sandbox listening on ${sandbox.url}`);
    io.out(`API key: ${fromEnv ? "the value of SITESYNC_API_KEY" : sandbox.apiKey}`);
    if (sandbox.projectsApiKey !== sandbox.apiKey) io.out(`Projects API key: ${sandbox.projectsApiKey}`);
    io.out(`Account: ${plural(websites, "website")}, ${plural(projects, "project")}`);
    const keyPrefix = fromEnv ? "" : `SITESYNC_API_KEY=${sandbox.apiKey} `;
    io.out(`Try:\n  ${keyPrefix}npx sitesync plan --websites-url ${sandbox.url}`);
    io.err("Press Ctrl+C to stop.");
    await stopRequested(signal);
    await sandbox.close();
    io.err("sandbox stopped");
    return ExitCode.ok;
  },
});

/** A port in use or a folder missing is the user's to fix, not a bug: say which flag to change. */
function startError(error: unknown, options: SandboxOptions): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EADDRINUSE")
    return new UsageError(`port ${options.port} is already in use: pick another with --port, or --port 0 for a free one`);
  if (code === "EACCES" && (error as { syscall?: string }).syscall === "listen") {
    return new UsageError(`port ${options.port} needs privileges to listen on: pick one above 1023 with --port`);
  }
  if (options.persist && (code === "ENOENT" || code === "EACCES" || code === "EISDIR")) {
    return new UsageError(`cannot use --persist ${options.persist} (${code}): check the folder exists and is writable`);
  }
  if (options.persist && error instanceof SyntaxError) {
    return new UsageError(`--persist ${options.persist} is not a sandbox account file (invalid JSON: ${error.message})`);
  }
  return error;
}

/** Resolves on SIGINT, SIGTERM or the abort of `signal` (tests). */
function stopRequested(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off("SIGINT", done);
      process.off("SIGTERM", done);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    process.once("SIGINT", done);
    process.once("SIGTERM", done);
    if (signal?.aborted) done();
    else signal?.addEventListener("abort", done);
  });
}

/** Turns the flags into checked options; every bad value is a UsageError naming its flag. */
export function sandboxOptions(flags: Flags, env: Env): SandboxOptions {
  const text = (name: keyof typeof args) => (typeof flags[name] === "string" ? (flags[name] as string) : undefined);
  const port = parseCount("port", text("port"), 0) ?? 0;
  if (port > 65_535) throw new UsageError(`--port must be at most 65535, not ${port}`);
  const options: SandboxOptions = { port };
  const key = text("key") ?? (env.SITESYNC_API_KEY || undefined);
  if (key !== undefined) options.apiKey = key;
  const projectsKey = text("projects-key");
  if (projectsKey !== undefined) options.projectsApiKey = projectsKey;
  options.seed = parseCount("seed", text("seed"), 0);
  options.seedProjects = parseCount("seed-projects", text("seed-projects"), 0);
  options.latencyMs = duration("latency", text("latency"));
  options.rateLimit = parseCount("rate-limit", text("rate-limit"), 0);
  options.rateWindowMs = duration("rate-window", text("rate-window"));
  options.defaultPerPage = parseCount("per-page-default", text("per-page-default"), 1);
  options.websiteLimit = websiteLimit(text("website-limit"));
  const putMissing = text("put-missing");
  if (putMissing) options.putMissing = putMissing === "404" ? 404 : 500;
  options.faults = faultOptions(text);
  const persist = text("persist");
  if (persist) options.persist = persist;
  return options;
}

function faultOptions(text: (name: keyof typeof args) => string | undefined): FaultOptions | undefined {
  const faults: FaultOptions = {
    errorRate: rate("error-rate", text("error-rate")),
    resetRate: rate("reset-rate", text("reset-rate")),
    slowRate: rate("slow-rate", text("slow-rate")),
    slowMs: duration("slow-ms", text("slow-ms")) ?? 5000,
    dropAfterCommitRate: rate("drop-rate", text("drop-rate")),
    seed: parseCount("fault-seed", text("fault-seed"), 0),
  };
  const any = [faults.errorRate, faults.resetRate, faults.slowRate, faults.dropAfterCommitRate].some((r) => r);
  return any ? faults : undefined;
}

/** A duration flag that may also be 0 (`--latency 0`). */
function duration(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  return /^0+(ms|s|m)?$/.test(value.trim()) ? 0 : parseDuration(flag, value);
}

function rate(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0 || n > 1) {
    throw new UsageError(`--${flag} must be a chance between 0 and 1, such as 0.05, not "${value}"`);
  }
  return n;
}

function websiteLimit(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^(-1|\d+)$/.test(value)) throw new UsageError(`--website-limit must be -1 (unlimited) or a whole number, not "${value}"`);
  return Number(value);
}
