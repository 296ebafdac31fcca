/**
 * `npm run mutants`: how strong is the suite? Plants each slip of `test/mutants.ts` (a small, realistic bug)
 * one at a time in a scratch copy of the working tree, runs the tests listed as covering it, and prints
 * whether they caught it (some test failed) or let it survive (all green). Nothing in the working tree is
 * touched, so an interrupted run leaves nothing to restore. A slip whose text is not found exactly once, or
 * whose test file is gone, is an error: the list cannot rot silently when code moves (test/mutants.test.ts
 * checks the same in CI). A slip in code the Action bundles rebuilds dist/index.js in the copy, since the
 * tests that run the Action (wherever they are) run the bundle.
 *
 *   node scripts/mutants.ts [--only <text in the id or file>] [--keep] [--timeout <s>]
 *
 * Exits 1 when a slip is an error or fewer than 90% are caught.
 */
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { MUTANTS, type Mutant } from "../test/mutants.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const REQUIRED_RATE = 0.9;

const { values } = parseArgs({
  options: { only: { type: "string" }, keep: { type: "boolean", default: false }, timeout: { type: "string", default: "300" } },
});
const timeoutMs = Number(values.timeout) * 1000;
const selected = MUTANTS.filter((m) => !values.only || m.id.includes(values.only) || m.file.includes(values.only));

type Verdict = "caught" | "survived" | "error";

const scratch = scratchCopy();
/** The process group of the tests running now: detached, so Ctrl-C reaches it only through us. */
let running: number | undefined;
const cleanup = () => {
  if (!values.keep) rmSync(scratch, { recursive: true, force: true });
};
process.on("SIGINT", () => {
  if (running !== undefined) process.kill(-running, "SIGKILL");
  cleanup();
  process.exit(130);
});

const verdicts: { mutant: Mutant; verdict: Verdict; detail: string }[] = [];
try {
  for (const [index, mutant] of selected.entries()) {
    const started = Date.now();
    const { verdict, detail } = await tryMutant(mutant);
    verdicts.push({ mutant, verdict, detail });
    const mark = verdict === "caught" ? "caught  " : verdict === "survived" ? "SURVIVED" : "ERROR   ";
    const seconds = Math.round((Date.now() - started) / 1000);
    console.log(
      `${String(index + 1).padStart(3)}/${selected.length} ${mark} ${mutant.id}: ${mutant.description}${detail ? ` (${detail})` : ""} [${seconds}s]`,
    );
  }
} finally {
  cleanup();
}

const count = (verdict: Verdict) => verdicts.filter((v) => v.verdict === verdict).length;
const planted = count("caught") + count("survived");
const rate = planted === 0 ? 0 : count("caught") / planted;
console.log(
  `\n${count("caught")} caught, ${count("survived")} survived, ${count("error")} errors, of ${verdicts.length} slips: ` +
    `${(rate * 100).toFixed(1)}% caught (at least ${REQUIRED_RATE * 100}% wanted)`,
);
for (const { mutant } of verdicts.filter((v) => v.verdict === "survived")) console.log(`  survived: ${mutant.id} in ${mutant.file}`);
process.exitCode = count("error") > 0 || rate < REQUIRED_RATE ? 1 : 0;

/** The tracked and untracked (not ignored) files of the working tree, with node_modules linked, not copied. */
function scratchCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), "sitesync-mutants-"));
  const listed = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  for (const file of listed.stdout.split("\0").filter(Boolean)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    try {
      cpSync(join(ROOT, file), join(dir, file));
    } catch {
      // A file deleted but not yet staged: the copy goes without it, as the tree does.
    }
  }
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  return dir;
}

async function tryMutant(mutant: Mutant): Promise<{ verdict: Verdict; detail: string }> {
  const path = join(scratch, mutant.file);
  let original: string;
  try {
    original = readFileSync(path, "utf8");
  } catch {
    return { verdict: "error", detail: `${mutant.file} does not exist` };
  }
  const found = original.split(mutant.find).length - 1;
  if (found !== 1) return { verdict: "error", detail: `the text to replace is found ${found} times in ${mutant.file}, not once` };
  // vitest fails when a path matches no test file: without this, a moved test would count its slip as caught.
  const gone = mutant.tests.filter((test) => !existsSync(join(scratch, test)));
  if (gone.length > 0) return { verdict: "error", detail: `no test file ${gone.join(", ")}` };
  const bundled = inBundle(mutant.file);
  writeFileSync(
    path,
    original.replace(mutant.find, () => mutant.replace),
  );
  try {
    if (bundled && !buildAction()) return { verdict: "caught", detail: "the bundle no longer builds" };
    const code = await runTests(mutant);
    if (code === "timeout") return { verdict: "caught", detail: `the tests hung past ${timeoutMs / 1000}s` };
    return { verdict: code === 0 ? "survived" : "caught", detail: "" };
  } finally {
    writeFileSync(path, original);
    if (bundled) buildAction();
  }
}

/**
 * Whether the Action's bundle holds `file`: its tests (under test/action/ or elsewhere) run dist/index.js, so
 * a slip there must be rebuilt into it. The bundle is not minified: esbuild heads each module with its path.
 */
function inBundle(file: string): boolean {
  return readFileSync(join(scratch, "dist", "index.js"), "utf8").includes(`\n// ${file}\n`);
}

function buildAction(): boolean {
  return spawnSync(process.execPath, ["scripts/build-action.ts"], { cwd: scratch, stdio: "ignore" }).status === 0;
}

function runTests(mutant: Mutant): Promise<number | "timeout"> {
  const vitest = join(ROOT, "node_modules", "vitest", "vitest.mjs");
  const args = [vitest, "run", "--bail", "1", ...(mutant.names ? ["-t", mutant.names] : []), ...mutant.tests];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: scratch, stdio: "ignore", detached: true });
    running = child.pid;
    const timer = setTimeout(() => {
      process.kill(-child.pid!, "SIGKILL");
      resolve("timeout");
    }, timeoutMs);
    child.on("exit", (code) => {
      running = undefined;
      clearTimeout(timer);
      resolve(code ?? 1);
    });
  });
}
