/**
 * Scenario 9 (DESIGN §8 "Loading", §12): the loader against floors measured in the same run. An exported
 * account's file is validated, planned (no changes) and planned with `--changed-since` (3 websites edited),
 * each in a fresh process of the built package (bench/cli-child.ts), beside js-yaml's `load` of the same file
 * in a fresh process (bench/load-floor-child.ts); a config at the byte cap validates within a 1 GB heap; a
 * 20 MB file of `{[` is refused at once; `adopt` rewrites the drift of an export (bench/adopt.ts).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { MAX_CONFIG_BYTES } from "../src/config/read-bounded.ts";
import { adoptRows } from "./adopt.ts";
import { buildPackage } from "./built-package.ts";
import { type Report, run } from "./child-run.ts";
import { type Row, seconds } from "./rows.ts";
import { startSandboxProcess } from "./sandbox-process.ts";

export interface LoadSizes {
  websites: number;
  /** Whether to build and validate a config at the byte cap (a 64 MiB file: the full run only). */
  cap: boolean;
  /** Sizes of the accounts adopted into their exports. */
  adopt: number[];
}

const CHILD = fileURLToPath(new URL("./cli-child.ts", import.meta.url));
const FLOOR = fileURLToPath(new URL("./load-floor-child.ts", import.meta.url));
const HOSTILE_BOUND_MS = 2000;

export async function loadScenario(sizes: LoadSizes): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), "sitesync-bench-load-"));
  try {
    const cli = buildPackage(join(dir, "package"));
    const rows = await againstFloor(cli, sizes.websites, dir);
    if (sizes.cap) rows.push(await atTheCap(cli, dir));
    rows.push(await hostile(cli, dir));
    for (const websites of sizes.adopt) rows.push(...(await adoptRows(cli, websites, dir)));
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function againstFloor(cli: string, size: number, dir: string): Promise<Row[]> {
  const sandbox = await startSandboxProcess({ seed: size, rateLimit: 0 });
  const file = join(dir, "sitesync.yaml");
  try {
    const env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
    await run([CHILD, cli, JSON.stringify(["export", "--out", file]), JSON.stringify(env)]);
    const floor = await run([FLOOR, file]);
    const validated = await run([CHILD, cli, JSON.stringify(["validate", "-c", file]), "{}"]);
    const planned = await run([CHILD, cli, JSON.stringify(["plan", "--detailed-exitcode", "--quiet", "-c", file]), JSON.stringify(env)]);
    commitThreeEdits(dir, file);
    const scoped = await run([
      CHILD,
      cli,
      JSON.stringify(["plan", "--changed-since", "HEAD~1", "--quiet", "-c", file]),
      JSON.stringify(env),
    ]);
    const n = size.toLocaleString("en");
    const mb = (statSync(file).size / 2 ** 20).toFixed(1);
    const floorWords = `js-yaml load of the same file: CPU ${seconds(floor.commandCpuMs)}, ${floor.maxRssMb.toFixed(0)} MB peak RSS`;
    return [
      {
        scenario: `9 floor: js-yaml load of a ${n}-website export (${mb} MiB)`,
        measured: floorWords,
        bound: "context",
        ok: true,
        kind: "info",
      },
      ...ratios(`9 validate of that file (exit ${validated.code})`, validated, floor),
      ...ratios(`9 plan of that file, no changes (exit ${planned.code})`, planned, floor),
      {
        scenario: `9 plan --changed-since with 3 websites edited (exit ${scoped.code}): CPU`,
        measured: `${seconds(scoped.commandCpuMs)} (validate: ${seconds(validated.commandCpuMs)})`,
        bound: "≤ 1.5 × validate's CPU",
        ratio: scoped.commandCpuMs / validated.commandCpuMs / 1.5,
        ok: scoped.commandCpuMs <= 1.5 * validated.commandCpuMs && scoped.code !== 1,
        kind: "bound",
      },
    ];
  } finally {
    await sandbox.close();
  }
}

function ratios(label: string, report: Report, floor: Report): Row[] {
  const cpu = report.commandCpuMs / floor.commandCpuMs;
  const memory = report.maxRssMb / floor.maxRssMb;
  return [
    {
      scenario: `${label}: CPU`,
      measured: `${seconds(report.commandCpuMs)} = ${cpu.toFixed(2)} × the floor`,
      bound: "≤ 3 × js-yaml's load",
      ratio: cpu / 3,
      ok: cpu <= 3 && report.code !== 1,
      kind: "bound",
    },
    {
      scenario: `${label}: peak memory`,
      measured: `${report.maxRssMb.toFixed(0)} MB peak RSS = ${memory.toFixed(2)} × the floor`,
      bound: "≤ 3 × js-yaml's load",
      ratio: memory / 3,
      ok: memory <= 3,
      kind: "bound",
    },
  ];
}

/** The export grown to just under the cap: its entries repeated under new domains. */
async function atTheCap(cli: string, dir: string): Promise<Row> {
  const source = readFileSync(join(dir, "sitesync.yaml"), "utf8");
  const [head = "", ...entries] = source.split(/(?=^ {2}- domain: )/m);
  const parts = [head];
  let bytes = head.length;
  let websites = 0;
  let full = false;
  for (let copy = 0; !full; copy++) {
    for (const entry of entries) {
      const renamed = entry.replace("- domain: site-", `- domain: c${copy}-site-`);
      full = bytes + renamed.length > MAX_CONFIG_BYTES - 1000;
      if (full) break;
      parts.push(renamed);
      bytes += renamed.length;
      websites++;
    }
  }
  const file = join(dir, "cap.yaml");
  writeFileSync(file, parts.join(""));
  const heap = ["--max-old-space-size=1024"];
  const report = await run([...heap, CHILD, cli, JSON.stringify(["validate", "-c", file]), "{}"], true);
  return {
    scenario: `9 validate of a config at the byte cap (${(statSync(file).size / 2 ** 20).toFixed(1)} MiB, ${websites.toLocaleString("en")} websites) with a 1 GB heap`,
    measured: `exit ${report.code}, ${seconds(report.ms)}, ${report.maxRssMb.toFixed(0)} MB peak RSS`,
    bound: "exit 0 under --max-old-space-size=1024",
    ok: report.code === 0,
    kind: "count",
  };
}

/** 20 MB of `{[`: flow nesting ten million deep. */
async function hostile(cli: string, dir: string): Promise<Row> {
  const file = join(dir, "hostile.yaml");
  writeFileSync(file, "{[".repeat(10 * 2 ** 20));
  const report = await run([CHILD, cli, JSON.stringify(["validate", "-c", file]), "{}"], true);
  const located = report.stderr.includes(`${file}:1:`);
  return {
    scenario: "9 validate of 20 MB of `{[` (nesting ten million deep)",
    measured: `exit ${report.code} in ${seconds(report.ms)}${located ? ", at file:line:col" : ", NOT located"}, ${report.maxRssMb.toFixed(0)} MB peak RSS`,
    bound: `exit 1 at file:line:col, < ${seconds(HOSTILE_BOUND_MS)}`,
    ratio: report.ms / HOSTILE_BOUND_MS,
    ok: report.code === 1 && located && report.ms < HOSTILE_BOUND_MS,
    kind: "bound",
  };
}

/** 3 websites of the committed file edited, and committed: `--changed-since HEAD~1` follows them. */
function commitThreeEdits(dir: string, file: string): void {
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=bench", "-c", "user.email=bench@example.com", "-c", "commit.gpgsign=false", ...args], {
      cwd: dir,
      stdio: "ignore",
    });
  git("init", "-q");
  git("add", "sitesync.yaml");
  git("commit", "-q", "-m", "base");
  let edits = 0;
  const text = readFileSync(file, "utf8").replace(/^( {4}email: )(true|false)$/gm, (line, key: string, value: string) =>
    edits++ < 3 ? `${key}${value === "true" ? "false" : "true"}` : line,
  );
  writeFileSync(file, text);
  git("commit", "-q", "-am", "three edits");
}
