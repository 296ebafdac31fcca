/**
 * `npm run demo`: the main job of sitesync against the embedded sandbox, as a user would see it.
 * A seeded account drifts from `examples/sitesync.yaml`; `plan` shows the changes, `apply` makes them, and
 * a second `plan` shows none.
 */
import { runCli } from "../src/cli/main.ts";
import { startSandbox } from "../src/sandbox/index.ts";

const sandbox = await startSandbox({
  seed: 12,
  websites: [
    // Exists, but public and without the exclusions the file wants: an update.
    { domain: "example.com", privacy: 0, email: 0, exclude_bots: 1, exclude_ips: ["203.0.113.7"] },
    // Exists as the file wants it, written differently (case, order): no change.
    { domain: "eu.shop.example.com", privacy: 1, email: 1, exclude_bots: 1, exclude_ips: ["2001:db8:1::/48", "203.0.113.7"] },
    // A tombstone in the file: deleted.
    { domain: "old.example.org", privacy: 0 },
    // Matched by policy.ignore: never touched.
    { domain: "tmp-preview-42.example.org", privacy: 1 },
  ],
  projects: [
    { project: "example.com", reports: 4, result: 312 },
    { project: "retired.example.org", reports: 2, result: 120 },
    { project: "other.example.net", reports: 1, result: 80 },
  ],
});

// The demo's own environment, passed to the CLI: the sandbox's key, and no projects key of the machine's.
const { SITESYNC_PROJECTS_API_KEY: _unused, ...machine } = process.env;
const env = {
  ...machine,
  SITESYNC_API_KEY: sandbox.apiKey,
  EXAMPLE_STATS_PASSWORD: machine.EXAMPLE_STATS_PASSWORD ?? "demo-only-password",
};
const common = ["-c", "examples/sitesync.yaml", "--websites-url", sandbox.url, "--projects-url", sandbox.url];

const bold = process.stdout.isTTY && !("NO_COLOR" in env) ? (s: string) => `\x1b[1m${s}\x1b[0m` : (s: string) => s;

async function step(title: string, argv: string[]): Promise<number> {
  process.stdout.write(`\n${bold(`$ sitesync ${argv.join(" ").replaceAll(sandbox.url, "$SANDBOX")}`)}  # ${title}\n\n`);
  const code = await runCli(argv, { env });
  process.stdout.write(`\n(exit ${code})\n`);
  return code;
}

process.stdout.write(
  `sitesync demo: a sandbox imitating phpAnalytics and phpRank is serving a seeded account (${sandbox.store.websites().length} websites)\n` +
    `at ${sandbox.url} (SANDBOX below). The config is examples/sitesync.yaml.\n`,
);
let failed = 0;
failed += (await step("what would change?", ["plan", ...common])) === 0 ? 0 : 1;
failed += (await step("make it so", ["apply", "--auto-approve", ...common])) === 0 ? 0 : 1;
const again = await step("nothing left to do", ["plan", "--detailed-exitcode", ...common]);
if (again !== 0) failed++;
const stats = sandbox.stats();
process.stdout.write(
  `\nThe sandbox answered ${stats.listRequests} list and ${stats.writeRequests} write requests (${stats.throttled} throttled).\n`,
);
await sandbox.close();
process.exitCode = failed === 0 ? 0 : 1;
