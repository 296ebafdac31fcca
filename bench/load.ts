/**
 * Scenario 9 (DESIGN §8 "Loading", §12): the loader against floors measured in the same run. An exported
 * account's file is validated, planned (no changes) and planned with `--changed-since` (3 websites edited),
 * each in a fresh process of the built package (bench/cli-child.ts), beside js-yaml's `load` of the same file
 * in a fresh process (bench/load-floor-child.ts); a config at the byte cap validates within a 1 GB heap; a
 * 20 MB file of `{[` is refused at once; `adopt` rewrites the drift of an export (bench/adopt.ts). The rows
 * against a floor are medians of ratios taken within rounds (`measureRounds`).
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
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
  /** Rounds of the commands measured against the floor (`measureRounds`): 5 in a full run, 1 in CI's quick one. */
  rounds: number;
}

const CHILD = fileURLToPath(new URL("./cli-child.ts", import.meta.url));
const FLOOR = fileURLToPath(new URL("./load-floor-child.ts", import.meta.url));
const READ_FLOOR = fileURLToPath(new URL("./read-floor-child.ts", import.meta.url));
const HOSTILE_BOUND_MS = 2000;

export async function loadScenario(sizes: LoadSizes): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), "sitesync-bench-load-"));
  try {
    const cli = buildPackage(join(dir, "package"));
    const rows = await againstFloor(cli, sizes, dir);
    if (sizes.cap) rows.push(...(await atTheCap(cli, dir)));
    rows.push(await hostile(cli, dir));
    rows.push(await everyEntryWrong(cli, dir));
    rows.push(await minifiedJson(cli, dir));
    for (const websites of sizes.adopt) rows.push(...(await adoptRows(cli, websites, dir)));
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function againstFloor(cli: string, { websites: size, rounds: count }: LoadSizes, dir: string): Promise<Row[]> {
  const sandbox = await startSandboxProcess({ seed: size, rateLimit: 0 });
  const file = join(dir, "sitesync.yaml");
  try {
    const env = JSON.stringify({ SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url });
    await run([CHILD, cli, JSON.stringify(["export", "--out", file]), env]);
    const scopedFile = join(dir, "scoped", "sitesync.yaml");
    mkdirSync(dirname(scopedFile));
    copyFileSync(file, scopedFile);
    commitThreeEdits(dirname(scopedFile), scopedFile);
    const rounds = await measureRounds(count, {
      floor: [FLOOR, file],
      read: [READ_FLOOR, sandbox.url, sandbox.apiKey, String(size)],
      validate: [CHILD, cli, JSON.stringify(["validate", "-c", file]), "{}"],
      plan: [CHILD, cli, JSON.stringify(["plan", "--detailed-exitcode", "--quiet", "-c", file]), env],
      scoped: [CHILD, cli, JSON.stringify(["plan", "--changed-since", "HEAD~1", "--quiet", "-c", scopedFile]), env],
    });
    const n = size.toLocaleString("en");
    const mb = (statSync(file).size / 2 ** 20).toFixed(1);
    const floor = middle(rounds.map((r) => r.floor));
    const floorWords = `js-yaml load of the same file: CPU ${seconds(floor.commandCpuMs)}, ${floor.maxRssMb.toFixed(0)} MB peak RSS (${ofRounds(rounds)})`;
    const scoped = middle(rounds.map((r) => r.scoped));
    const scopedRatio = median(rounds.map((r) => r.scoped.commandCpuMs / r.validate.commandCpuMs));
    return [
      {
        scenario: `9 floor: js-yaml load of a ${n}-website export (${mb} MiB)`,
        measured: floorWords,
        bound: "context",
        ok: true,
        kind: "info",
      },
      ...ratios(`9 validate of that file (exit ${rounds[0]?.validate.code})`, rounds, "validate"),
      ...ratios(`9 plan of that file, no changes (exit ${rounds[0]?.plan.code})`, rounds, "plan"),
      readContext(rounds, size),
      {
        scenario: `9 plan --changed-since with 3 websites edited (exit ${scoped.code}): CPU`,
        measured: `${seconds(scoped.commandCpuMs)} = ${scopedRatio.toFixed(2)} × validate's (${seconds(middle(rounds.map((r) => r.validate)).commandCpuMs)})`,
        bound: "≤ 1.5 × validate's CPU",
        ratio: scopedRatio / 1.5,
        ok: scopedRatio <= 1.5 && scoped.code !== 1,
        kind: "bound",
      },
    ];
  } finally {
    await sandbox.close();
  }
}

type Round = Record<"floor" | "read" | "validate" | "plan" | "scoped", Report>;

/**
 * `count` rounds of every command, each a fresh process, one after another within a round: on a shared
 * machine a run of the same command varied by a third, and a ratio of two runs made minutes apart moved with
 * whatever else the machine did. Each ratio is then taken within a round, and its median reported.
 */
async function measureRounds(count: number, commands: Record<keyof Round, string[]>): Promise<Round[]> {
  const rounds: Round[] = [];
  for (let i = 0; i < count; i++) {
    const round: Partial<Round> = {};
    for (const [name, args] of Object.entries(commands) as [keyof Round, string[]][]) round[name] = await run(args);
    rounds.push(round as Round);
  }
  return rounds;
}

/** How the figures were taken, for the rows. */
function ofRounds(rounds: Round[]): string {
  return rounds.length === 1 ? "one round" : `medians of ${rounds.length} rounds`;
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[values.length >> 1] ?? Number.NaN;
}

/** The report of median CPU, with the median peak memory (for display; the bounds use ratios within rounds). */
function middle(reports: Report[]): Report {
  const byCpu = [...reports].sort((a, b) => a.commandCpuMs - b.commandCpuMs)[reports.length >> 1] as Report;
  return { ...byCpu, maxRssMb: median(reports.map((r) => r.maxRssMb)) };
}

/**
 * Context beside the plan row: a plan also reads the account (1,000 pages at 100,000 websites), which no
 * YAML parser pays. Its CPU against js-yaml's load plus a bare read of the same account (read-floor-child.ts).
 */
function readContext(rounds: Round[], size: number): Row {
  const ratio = median(rounds.map((r) => r.plan.commandCpuMs / (r.floor.commandCpuMs + r.read.commandCpuMs)));
  const [plan, floor, read] = (["plan", "floor", "read"] as const).map((name) => middle(rounds.map((r) => r[name])).commandCpuMs);
  return {
    scenario: "9 plan's CPU against js-yaml's load plus a bare read of the account",
    measured:
      `${seconds(plan ?? 0)} = ${ratio.toFixed(2)} × (load ${seconds(floor ?? 0)} + ` +
      `${Math.ceil(size / 100).toLocaleString("en")} GETs with fetch and JSON.parse ${seconds(read ?? 0)})`,
    bound: "context",
    ok: true,
    kind: "info",
  };
}

function ratios(label: string, rounds: Round[], name: "validate" | "plan"): Row[] {
  const report = middle(rounds.map((r) => r[name]));
  const cpu = median(rounds.map((r) => r[name].commandCpuMs / r.floor.commandCpuMs));
  const memory = median(rounds.map((r) => r[name].maxRssMb / r.floor.maxRssMb));
  const failed = rounds.some((r) => r[name].code === 1);
  return [
    {
      scenario: `${label}: CPU`,
      measured: `${seconds(report.commandCpuMs)} = ${cpu.toFixed(2)} × the floor (${ofRounds(rounds)})`,
      bound: "≤ 3 × js-yaml's load",
      ratio: cpu / 3,
      ok: cpu <= 3 && !failed,
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

/**
 * The export grown to just under the cap: its entries repeated under new domains. It validates within a 1 GB
 * heap, and so does the same file with a typo in its last entry, which must be located without `yaml`'s
 * Document of 64 MiB (about 5 GB).
 */
async function atTheCap(cli: string, dir: string): Promise<Row[]> {
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
  const typo = join(dir, "cap-typo.yaml");
  // A typo in its first entry and in its last: each told at its line.
  const text = `${parts.join("").replace(/^( {4}privacy: )\w+$/m, "$1publc")}  - domain: typo.example.com\n    privcy: private\n`;
  writeFileSync(typo, text);
  const line = text.split("\n").length - 1;
  // Out of memory, the child dies without its report: a failed row, not a failed bench.
  const crashed = (error: Error): Report => ({ code: -1, ms: 0, commandCpuMs: 0, maxRssMb: 0, stderr: error.message });
  const refused = await run([...heap, CHILD, cli, JSON.stringify(["validate", "-c", typo]), "{}"], true).catch(crashed);
  const first = text.split("\n").indexOf("    privacy: publc") + 1;
  const located = refused.stderr.includes(`${typo}:${line}:5 `) && refused.stderr.includes(`${typo}:${first}:14 `);
  return [
    {
      scenario: `9 validate of a config at the byte cap (${(statSync(file).size / 2 ** 20).toFixed(1)} MiB, ${websites.toLocaleString("en")} websites) with a 1 GB heap`,
      measured: `exit ${report.code}, ${seconds(report.ms)}, ${report.maxRssMb.toFixed(0)} MB peak RSS`,
      bound: "exit 0 under --max-old-space-size=1024",
      ok: report.code === 0,
      kind: "count",
    },
    {
      scenario: "9 the same config with a typo in its first and its last entry, with a 1 GB heap",
      measured: `exit ${refused.code}${located ? ", at their lines" : ", NOT located"}, ${seconds(refused.ms)}, ${refused.maxRssMb.toFixed(0)} MB peak RSS`,
      bound: "exit 1 at file:line:col under --max-old-space-size=1024",
      ok: refused.code === 1 && located,
      kind: "count",
    },
  ];
}

/**
 * One `validate` of `file` (under a 1 GB heap with `heap`) as a row bounded in wall time: it holds when the
 * command exits `code` in time and `said` finds what it must tell (a position, how many problems).
 */
async function timedValidate(
  cli: string,
  file: string,
  row: { scenario: string; code: number; boundMs: number; heap?: boolean; said?: { words: string; found: (stderr: string) => boolean } },
): Promise<Row> {
  const heap = row.heap ? ["--max-old-space-size=1024"] : [];
  const report = await run([...heap, CHILD, cli, JSON.stringify(["validate", "-c", file]), "{}"], true);
  const said = row.said === undefined || row.said.found(report.stderr);
  const words = row.said === undefined ? "" : said ? `, ${row.said.words}` : `, NOT ${row.said.words}`;
  return {
    scenario: row.scenario,
    measured: `exit ${report.code} in ${seconds(report.ms)}${words}, ${report.maxRssMb.toFixed(0)} MB peak RSS`,
    bound: `exit ${row.code}${row.said ? `, ${row.said.words}` : ""}, < ${seconds(row.boundMs)}`,
    ratio: report.ms / row.boundMs,
    ok: report.code === row.code && said && report.ms < row.boundMs,
    kind: "bound",
  };
}

/** 20 MB of `{[`: flow nesting ten million deep. */
function hostile(cli: string, dir: string): Promise<Row> {
  const file = join(dir, "hostile.yaml");
  writeFileSync(file, "{[".repeat(10 * 2 ** 20));
  const said = { words: "at file:line:col", found: (stderr: string) => stderr.includes(`${file}:1:`) };
  return timedValidate(cli, file, {
    scenario: "9 validate of 20 MB of `{[` (nesting ten million deep)",
    code: 1,
    boundMs: HOSTILE_BOUND_MS,
    said,
  });
}

/**
 * The export with a mistake in every entry (`privacy: privte`), under a 1 GB heap: the first 1,000 problems are
 * told, at their lines, and that there are more (DESIGN §12), rather than each of them after minutes (34 s, or
 * out of memory).
 */
function everyEntryWrong(cli: string, dir: string): Promise<Row> {
  const file = join(dir, "every-wrong.yaml");
  writeFileSync(file, readFileSync(join(dir, "sitesync.yaml"), "utf8").replace(/^( {4}privacy: )\w+$/gm, "$1privte"));
  const said = {
    words: "the first 1,000 told",
    found: (stderr: string) => stderr.includes("more than 1,000 problems") && stderr.includes(`${file}:`),
  };
  const scenario = "9 validate of that export with a mistake in every entry, 1 GB heap";
  return timedValidate(cli, file, { scenario, code: 1, boundMs: 15_000, heap: true, said });
}

/**
 * A valid config written as one line of JSON (JSON is YAML; a generator's JSON.stringify), 70,000 websites (over 4 MiB):
 * past 4 MiB, each node had searched back over its 5 MB line (7 minutes).
 */
function minifiedJson(cli: string, dir: string): Promise<Row> {
  const file = join(dir, "minified.yaml");
  const websites = Array.from({ length: 70_000 }, (_, i) => ({ domain: `site-${i}.example.com`, privacy: "private", email: false }));
  writeFileSync(file, JSON.stringify({ version: 1, websites }));
  const scenario = `9 validate of a config written as one line of JSON (70,000 websites, ${(statSync(file).size / 2 ** 20).toFixed(1)} MiB), 1 GB heap`;
  return timedValidate(cli, file, { scenario, code: 0, boundMs: 10_000, heap: true });
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
