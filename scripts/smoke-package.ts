/**
 * `npm run smoke:package` (run by .ci/run): the package as users get it (DESIGN §11, STYLE 15). Packs the
 * project (prepack builds lib/), installs the tarball into an empty project with production dependencies
 * only, and there, on Node 22 (the lowest version `engines` allows, from the registry's `node` package) and
 * on Node 24 (the project's pinned toolchain), runs the CLI: --version, --help, validate on the shipped
 * examples, a sandbox started from the installed package, plan, apply, export, and the shipped cron wrapper
 * under cron's environment; imports the library from an .mjs file; checks that an old Node gets one line;
 * and type-checks a strict NodeNext TypeScript consumer. Then the other documented path (DESIGN §11): a git
 * install (`npm install git+file://...` of a bare clone of this commit: npm runs `prepare`, never `prepack`,
 * so `prepare` must build lib/). drift.yml's adopt mode runs the Action's own bundle now, tested as the
 * workflow runs it in test/action/drift.test.ts. Loopback only; the network is used for the npm registry alone
 * (installing node@22 and the git install's devDependencies). Leaves its folder behind when a check fails.
 */
import { type ChildProcess, type SpawnSyncReturns, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The lowest Node that `engines` (^22.12 || ^24) allows: what breaks first is tested. */
const NODE_22 = "22.12.0";
const KEY = "smoke-key-0123456789";
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
const work = mkdtempSync(join(tmpdir(), "sitesync-smoke-"));
const app = join(work, "app");
const installed = join(app, "node_modules", "sitesync");
let checks = 0;

function fail(message: string): never {
  throw new Error(message);
}
function check(ok: boolean, what: string, detail = ""): void {
  if (!ok) fail(`${what}${detail ? `\n${detail}` : ""}`);
  checks++;
}
function output(run: SpawnSyncReturns<string>): string {
  return `exit ${run.status ?? run.signal}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`;
}
function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd: options.cwd ?? app, env: options.env ?? process.env, encoding: "utf8", timeout: 120_000 });
}
function step(title: string): void {
  console.log(`== ${title}`);
}

/** Starts `sitesync sandbox --port 0` from the installed package and reads the URL it prints. */
function startSandbox(env: NodeJS.ProcessEnv): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn("sitesync", ["sandbox", "--port", "0", "--key", KEY], { cwd: app, env, stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`the sandbox printed no URL within 20 s:\n${seen}`)), 20_000);
    const read = (chunk: Buffer) => {
      seen += chunk;
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(seen)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ url, child });
      }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.on("exit", (code) => reject(new Error(`the sandbox exited (${code}) before printing its URL:\n${seen}`)));
  });
}

function pack(): string {
  step("npm pack (prepack builds lib/)");
  const packed = run("npm", ["pack", "--pack-destination", work], { cwd: ROOT });
  check(packed.status === 0, "npm pack failed", output(packed));
  const tarball = readdirSync(work).find((name) => /^sitesync-.*\.tgz$/.test(name));
  check(tarball !== undefined, `npm pack left no sitesync-*.tgz in ${work}`);
  const files = run("tar", ["-tzf", join(work, tarball!)], { cwd: work }).stdout.split("\n");
  for (const needed of [
    "lib/index.js",
    "lib/index.d.ts",
    "lib/cli/main.js",
    "bin/sitesync.js",
    "schemas/sitesync.schema.json",
    "examples/cron/sitesync-drift.sh",
    "examples/sitesync.yaml",
    "docs/getting-started.md",
    "LICENSE",
  ]) {
    check(files.includes(`package/${needed}`), `the tarball lacks ${needed}`);
  }
  const stray = files.filter((f) => /^package\/(src|dist|test|bench|lib\/action)\/|\.test\.|\.tsbuildinfo$/.test(f));
  check(stray.length === 0, "the tarball ships files users do not need", stray.join("\n"));
  return join(work, tarball!);
}

function install(tarball: string): void {
  step("npm install the tarball into an empty project (production dependencies only)");
  mkdirSync(app);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "smoke-app", private: true, type: "module" }));
  const done = run("npm", ["install", "--omit=dev", "--no-audit", "--no-fund", tarball]);
  check(done.status === 0, "npm install of the tarball failed", output(done));
  check(
    !existsSync(join(app, "node_modules", "typescript")) && !existsSync(join(app, "node_modules", "vitest")),
    "devDependencies were installed",
  );
  const declarations = readdirSync(join(installed, "lib"), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".d.ts"));
  const tsImports = declarations.filter((f) => /["']\.\.?\/[^"'\n]*\.ts["']/.test(readFileSync(join(installed, "lib", f), "utf8")));
  check(tsImports.length === 0, "declaration files import .ts files the package does not ship", tsImports.join("\n"));
}

function installNode22(): string {
  step(`npm install node@${NODE_22}`);
  const dir = join(work, "node22");
  mkdirSync(dir);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ private: true, allowScripts: { node: true } }));
  const done = run("npm", ["install", "--no-audit", "--no-fund", `node@${NODE_22}`], { cwd: dir });
  check(done.status === 0, `npm install node@${NODE_22} failed`, output(done));
  return join(dir, "node_modules", "node", "bin", "node");
}

async function onNode(node: string): Promise<void> {
  const version = run(node, ["--version"]).stdout.trim();
  step(`the installed package on Node ${version} (${node})`);
  // Only what a user's shell would have: this Node first, the project's node_modules/.bin, the system.
  const env = { PATH: `${dirname(node)}:${join(app, "node_modules", ".bin")}:/usr/bin:/bin`, HOME: join(work, "home"), NO_COLOR: "1" };
  const sitesync = (args: string[], extra: NodeJS.ProcessEnv = {}) => run("sitesync", args, { env: { ...env, ...extra } });

  const v = sitesync(["--version"]);
  check(v.status === 0 && v.stdout.trim() === VERSION, `sitesync --version should print ${VERSION}`, output(v));
  const help = sitesync(["--help"]);
  check(help.status === 0 && help.stdout.includes("USAGE  sitesync <command>"), "sitesync --help", output(help));
  for (const example of ["sitesync.yaml", "minimal.yaml"]) {
    const valid = sitesync(["validate", "-c", join(installed, "examples", example)], { EXAMPLE_STATS_PASSWORD: "smoke" });
    check(valid.status === 0, `sitesync validate examples/${example}`, output(valid));
  }

  const sandbox = await startSandbox(env);
  try {
    const api = { SITESYNC_API_KEY: KEY, SITESYNC_WEBSITES_URL: sandbox.url };
    writeFileSync(join(app, "sitesync.yaml"), "version: 1\nwebsites:\n  - domain: smoke.example.com\n    privacy: private\n");
    const before = sitesync(["plan", "--detailed-exitcode"], api);
    check(before.status === 2 && before.stdout.includes("smoke.example.com"), "plan shows the create (exit 2)", output(before));
    const applied = sitesync(["apply", "--auto-approve"], api);
    check(applied.status === 0, "apply --auto-approve", output(applied));
    const after = sitesync(["plan", "--detailed-exitcode"], api);
    check(after.status === 0, "plan after apply shows no changes (exit 0)", output(after));

    mkdirSync(join(app, "infra"), { recursive: true });
    rmSync(join(app, "infra", "sitesync.yaml"), { force: true });
    const exported = sitesync(["export", "--out", "infra/sitesync.yaml"], api);
    check(exported.status === 0, "export --out", output(exported));
    const again = sitesync(["export", "--out", "infra/sitesync.yaml"], api);
    check(
      again.status === 1 && again.stderr.includes("sitesync adopt infra/sitesync.yaml"),
      "export --out never overwrites a file (exit 1, naming sitesync adopt)",
      output(again),
    );
    const schema = /\$schema=(\S+)/.exec(readFileSync(join(app, "infra", "sitesync.yaml"), "utf8"))?.[1] ?? "";
    check(existsSync(resolve(app, "infra", schema)), `the exported modeline's schema (${schema}) resolves from the file's folder`);

    writeFileSync(join(app, "library.mjs"), LIBRARY_MJS);
    const library = run(node, ["library.mjs"], { env: { ...env, ...api } });
    check(
      library.status === 0 && library.stdout.includes("library: planned 1 create, applied 1"),
      "the library from an .mjs file",
      output(library),
    );
    const bare = run(node, ["-e", 'import("sitesync").then((m) => { if (typeof m.plan !== "function") process.exit(1); })'], { env });
    check(bare.status === 0, `node -e 'import("sitesync")'`, output(bare));

    if (spawnSync("sh", ["-c", "command -v flock"], { env: { PATH: "/usr/bin:/bin" } }).status === 0) {
      // The shipped wrapper under cron's environment, with the command (Node + bin) in SITESYNC_BIN.
      const cron = run(join(installed, "examples", "cron", "sitesync-drift.sh"), ["-c", join(app, "sitesync.yaml")], {
        env: {
          PATH: "/usr/bin:/bin",
          SITESYNC_BIN: `${node} ${join(installed, "bin", "sitesync.js")}`,
          SITESYNC_LOG: join(work, "drift.log"),
          SITESYNC_LOCK: join(work, "drift.lock"),
          ...api,
        },
      });
      check(
        cron.status === 0 && readFileSync(join(work, "drift.log"), "utf8").includes("no drift"),
        "the cron wrapper under env -i PATH=/usr/bin:/bin",
        output(cron),
      );
    } else console.log("   (no flock here: the cron wrapper is not run)");
  } finally {
    sandbox.child.kill();
  }
}

/** The library example of docs/library.md, against a sandbox started in-process. */
const LIBRARY_MJS = `
import { writeFileSync } from "node:fs";
import { loadConfig, createClient, readLive, plan, render, apply, startSandbox } from "sitesync";

const sandbox = await startSandbox({ rateLimit: 0 });
try {
  writeFileSync("library.yaml", "version: 1\\nwebsites:\\n  - domain: library.example.com\\n");
  const loaded = await loadConfig("library.yaml");
  if (!loaded.ok) throw new Error(loaded.errors.map((d) => d.message).join("\\n"));
  const { config } = loaded;
  const client = createClient({ websitesUrl: sandbox.url, apiKey: sandbox.apiKey });
  const p = plan(config, await readLive(client, config), { configFile: config.file, configDigest: config.digest });
  if (!render(p, "text").includes("library.example.com")) throw new Error("render lost the website");
  const result = await apply(p, client, { passwordOf: () => undefined });
  console.log(\`library: planned \${p.summary.create} create, applied \${result.counts.applied}\`);
} finally {
  await sandbox.close();
}
`;

/** A strict NodeNext consumer of the whole advertised surface. */
const CONSUMER_TS = `
import { loadConfig, createClient, readLive, plan, render, apply, startSandbox, type Plan } from "sitesync";

const sandbox = await startSandbox({ websites: [{ domain: "example.com", privacy: 1 }] });
const loaded = await loadConfig("sitesync.yaml");
if (!loaded.ok) throw new Error(loaded.errors.map((d) => d.message).join("\\n"));
const { config } = loaded;
const client = createClient({ websitesUrl: sandbox.url, apiKey: sandbox.apiKey });
const p: Plan = plan(config, await readLive(client, config), { configFile: config.file, configDigest: config.digest });
const text: string = render(p, "text");
const result = await apply(p, client, { passwordOf: (domain) => config.websites.find((w) => w.domain === domain)?.password });
export const summary = [text.length, result] as const;
await sandbox.close();
`;

function typecheckConsumer(): void {
  step("a strict NodeNext TypeScript consumer type-checks against the published types");
  writeFileSync(join(app, "consumer.ts"), CONSUMER_TS);
  // Default lib and target; no skipLibCheck, so every .d.ts the surface reaches is checked too.
  writeFileSync(
    join(app, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { strict: true, module: "nodenext", noEmit: true }, files: ["consumer.ts"] }),
  );
  const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
  const plain = run(process.execPath, [tsc, "-p", app]);
  check(plain.status === 0, "tsc: strict NodeNext consumer", output(plain));
  // An older lib: the published types name nothing from ES2024 (Promise.withResolvers and the like).
  const es2022 = run(process.execPath, [tsc, "-p", app, "--target", "es2022"]);
  check(es2022.status === 0, "tsc: the same consumer with target and lib es2022", output(es2022));
}

function oldNode(): void {
  const system = "/usr/bin/node";
  const version = existsSync(system) ? run(system, ["--version"]).stdout.trim() : "";
  const [major = 0, minor = 0] = version.replace(/^v/, "").split(".").map(Number);
  if (!version || major > 22 || (major === 22 && minor >= 12)) {
    console.log(`   (no Node older than 22.12 at ${system}: the old-Node message is not checked)`);
    return;
  }
  step(`the installed CLI on Node ${version} refuses in one line`);
  const refused = run(system, [join(installed, "bin", "sitesync.js"), "--help"]);
  const lines = refused.stderr.trim().split("\n");
  check(
    refused.status === 1 && lines.length === 1 && lines[0]!.includes("needs Node 22.12") && refused.stdout === "",
    "old Node: one line, exit 1",
    output(refused),
  );
}

/** The commit under test: a git install and the adopt step's checkout take what is committed, not the work tree. */
function headCommit(): string {
  const head = run("git", ["rev-parse", "HEAD"], { cwd: ROOT });
  check(head.status === 0, "git rev-parse HEAD", output(head));
  const dirty = run("git", ["status", "--porcelain", "--untracked-files=no"], { cwd: ROOT }).stdout.trim();
  if (dirty) console.log("   (uncommitted changes are not part of the git install and the adopt step: they test HEAD)");
  return head.stdout.trim();
}

/** `npm install` from a git URL, as docs/getting-started.md says: `prepare` builds lib/, and the command runs. */
function gitInstall(node: string, commit: string): void {
  step("npm install from a git URL (a bare clone of this commit): prepare builds lib/");
  const repo = join(work, "sitesync.git");
  const cloned = run("git", ["clone", "--quiet", "--bare", ROOT, repo], { cwd: work });
  check(cloned.status === 0, "git clone --bare", output(cloned));
  const project = join(work, "git-app");
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "smoke-git-app", private: true, type: "module" }));
  // npm runs the clone's scripts with the Node first on PATH: the pinned one, as `npx`/npm scripts would.
  const env = { ...process.env, PATH: `${dirname(node)}:${process.env.PATH ?? ""}` };
  const done = run("npm", ["install", "--no-audit", "--no-fund", `git+file://${repo}#${commit}`], { cwd: project, env });
  check(done.status === 0, "npm install git+file://... failed", output(done));
  const copy = join(project, "node_modules", "sitesync");
  check(existsSync(join(copy, "lib", "cli", "main.js")), "the git install has no lib/: prepare did not build it");
  check(existsSync(join(copy, "LICENSE")), "the git install has no LICENSE");
  const shell = { PATH: `${dirname(node)}:${join(project, "node_modules", ".bin")}:/usr/bin:/bin`, HOME: join(work, "home") };
  const v = run("sitesync", ["--version"], { cwd: project, env: shell });
  check(v.status === 0 && v.stdout.trim() === VERSION, `sitesync --version from the git install should print ${VERSION}`, output(v));
  const valid = run("sitesync", ["validate", "-c", join(copy, "examples", "minimal.yaml")], { cwd: project, env: shell });
  check(valid.status === 0, "sitesync validate from the git install", output(valid));
}

try {
  const node24 = realpathSync(process.execPath);
  const node22 = installNode22();
  install(pack());
  await onNode(node22);
  await onNode(node24);
  oldNode();
  typecheckConsumer();
  const commit = headCommit();
  gitInstall(node24, commit);
  console.log(`package smoke: all ${checks} checks hold on Node ${NODE_22} and ${process.version}`);
  rmSync(work, { recursive: true, force: true });
} catch (error) {
  console.error(`package smoke FAILED: ${error instanceof Error ? error.message : String(error)}`);
  console.error(`(its folder is left in ${work})`);
  process.exitCode = 1;
}
