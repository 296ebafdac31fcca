import { UsageError } from "../errors.ts";
import { plural } from "../model/plural.ts";
import { ExitCode } from "../run/exit-code.ts";
import { SETTINGS, type SettingValues } from "../run/settings.ts";
import type { Env } from "../run/types.ts";
import { checkWritable } from "../run/write-file.ts";
import type { FaultOptions, SandboxOptions } from "../sandbox/index.ts";
import { startSandbox } from "../sandbox/index.ts";
import { argsOf, cliSettings } from "./_args.ts";
import { command } from "./_command.ts";

const args = argsOf("sandbox");

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
  const values = cliSettings("sandbox", flags);
  const options: SandboxOptions = { port: values.port };
  const key = values.sandboxKey ?? (env[SETTINGS.sandboxKey.env] || undefined);
  if (key !== undefined) options.apiKey = key;
  if (values.sandboxProjectsKey !== undefined) options.projectsApiKey = values.sandboxProjectsKey;
  options.seed = values.seed;
  options.seedProjects = values.seedProjects;
  options.latencyMs = values.latency;
  options.rateLimit = values.rateLimit;
  options.rateWindowMs = values.sandboxRateWindow;
  options.defaultPerPage = values.perPageDefault;
  options.websiteLimit = values.websiteLimit;
  if (values.putMissing) options.putMissing = values.putMissing === "404" ? 404 : 500;
  options.faults = faultOptions(values);
  if (values.persist) options.persist = values.persist;
  return options;
}

function faultOptions(values: SettingValues): FaultOptions | undefined {
  const faults: FaultOptions = {
    errorRate: values.errorRate,
    resetRate: values.resetRate,
    slowRate: values.slowRate,
    slowMs: values.slowMs ?? 5000,
    dropAfterCommitRate: values.dropRate,
    seed: values.faultSeed,
  };
  const any = [faults.errorRate, faults.resetRate, faults.slowRate, faults.dropAfterCommitRate].some((r) => r);
  return any ? faults : undefined;
}
