#!/usr/bin/env node
// The `sitesync` command. Kept in plain, old syntax with no static import, so that any Node that can load an
// ES module gets as far as the version check and prints one line instead of a stack trace.
//
// Installed from npm, it runs the compiled build in lib/ (built by `prepack`; the package ships no src/).
// In a git checkout, src/ is there and it runs the TypeScript sources directly (Node 24, the project's pinned
// toolchain, strips types), so `npm ci && npm run demo` needs no build step (DESIGN §10, §11).
var parts = process.versions.node.split(".");
var major = Number(parts[0]);
var minor = Number(parts[1]);
if (major < 22 || (major === 22 && minor < 12)) {
  process.stderr.write(
    "sitesync needs Node 22.12 or later (it is tested on Node 22 and 24); this is Node " +
      process.version +
      " at " +
      process.execPath +
      "\n",
  );
  process.exit(1);
}

const { existsSync } = await import("node:fs");
const source = new URL("../src/cli/main.ts", import.meta.url);
let entry = new URL("../lib/cli/main.js", import.meta.url);
if (existsSync(source)) {
  if (!process.features.typescript) {
    process.stderr.write(
      "sitesync: a git checkout runs its TypeScript sources, which needs Node 22.18 or later with type stripping; " +
        "this is Node " +
        process.version +
        ". Run it through npm (`npm run sitesync -- --help`: the pinned Node 24), " +
        "or install the package (`npm pack`, then `npm install ./sitesync-*.tgz`)\n",
    );
    process.exit(1);
  }
  entry = source;
}
const { runCli } = await import(entry.href);

// Signals are handled here, at the edge, like Terraform's "Interrupt received": the first SIGINT or SIGTERM
// aborts the run's stop signal (no new request is sent, requests in flight finish, the summary and the
// results file are still written, then exit 130 or 143); a second one exits at once (DESIGN §7).
const stop = new AbortController();
const CODES = { SIGINT: 130, SIGTERM: 143 };
for (const name of ["SIGINT", "SIGTERM"]) {
  process.on(name, () => {
    if (stop.signal.aborted) process.exit(CODES[name]);
    process.stderr.write(`\n${name} received: stopping after the requests in flight (send it again to quit at once)\n`);
    stop.abort(name);
  });
}

// This is the edge: the environment is read here, once, and passed down.
process.exitCode = await runCli(process.argv.slice(2), { env: { ...process.env }, signal: stop.signal });
