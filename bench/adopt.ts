/**
 * Scenario 9's adopt rows (DESIGN §8): `sitesync adopt FILE` of an exported account with one website in 50
 * drifted, in a fresh process of the built package, and the file planned after it (no changes).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { run } from "./child-run.ts";
import { type Row, seconds } from "./rows.ts";
import { startSandboxProcess } from "./sandbox-process.ts";

const CHILD = fileURLToPath(new URL("./cli-child.ts", import.meta.url));
/** One entry in this many gets a drifted `email:`, for adopt to rewrite. */
const DRIFT_EVERY = 50;
/** DESIGN §8: about a second for 5,000 websites, and ten for 100,000. */
const boundMs = (websites: number) => (websites <= 5000 ? 1000 : 10_000);

export async function adoptRows(cli: string, websites: number, dir: string): Promise<Row[]> {
  const sandbox = await startSandboxProcess({ seed: websites, rateLimit: 0 });
  const file = join(dir, `adopt-${websites}.yaml`);
  try {
    const env = JSON.stringify({ SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url });
    await run([CHILD, cli, JSON.stringify(["export", "--out", file]), env]);
    let entry = 0;
    const drifted = readFileSync(file, "utf8").replace(/^( {4}email: )(true|false)$/gm, (line, key: string, value: string) =>
      ++entry % DRIFT_EVERY === 0 ? `${key}${value === "true" ? "false" : "true"}` : line,
    );
    writeFileSync(file, drifted);
    const adopted = await run([CHILD, cli, JSON.stringify(["adopt", file]), env]);
    const after = await run([CHILD, cli, JSON.stringify(["plan", "--detailed-exitcode", "--quiet", "-c", file]), env], true);
    const n = websites.toLocaleString("en");
    const bound = boundMs(websites);
    return [
      {
        scenario: `9 adopt of ${n} websites, ${Math.floor(entry / DRIFT_EVERY)} drifted: time`,
        measured:
          `${seconds(adopted.ms)} (CPU ${seconds(adopted.commandCpuMs)}; the built package, the account read over HTTP; ` +
          `Node's start excluded), ${adopted.maxRssMb.toFixed(0)} MB peak RSS`,
        bound: `< ${seconds(bound)}`,
        ratio: adopted.ms / bound,
        ok: adopted.ms < bound,
        kind: "bound",
      },
      {
        scenario: `9 adopt of ${n} websites: the file plans to no changes after it`,
        measured: after.code === 0 ? "no changes (exit 0)" : `exit ${after.code}`,
        bound: "no changes (exit 0)",
        ok: after.code === 0,
        kind: "count",
      },
    ];
  } finally {
    await sandbox.close();
  }
}
