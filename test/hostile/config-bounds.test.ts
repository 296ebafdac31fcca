/**
 * DESIGN §12 at the user's end: a config's parse is bounded by what it builds (nesting depth, nodes, what
 * aliases expand to), so a hostile file is refused at its file:line:col with the bound named, exit 1, and no
 * request sent: by `validate` and `plan` (the real CLI, the sandbox over real HTTP) and by the Action's
 * bundle. The nested file is 20 MiB of `{[` (flow nesting ten million deep), which once aborted the process
 * after 45 s; `npm run bench` holds it to 2 s.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { startActionFixture } from "../action/fixture.ts";
import { pullRequestPayload } from "../action/run-action.ts";
import { sitesync } from "../helpers/cli.ts";

const NESTED = "{[".repeat(10 * 2 ** 20);
/** Coarse, for a shared machine: the refusal reads 20 MiB and stops at the 32nd level; the bench's bound is 2 s. */
const QUICKLY_MS = 10_000;
const DEPTH = "1:32 the YAML nests deeper than 32 levels (a config needs fewer than 10)";
/** Nine levels of nine aliases each: 387 million nodes once expanded, from 400 bytes. */
const LAUGHS = [
  'a: &a ["x","x","x","x","x","x","x","x","x"]',
  ..."bcdefghi".split("").map((name, i) => `${name}: &${name} [${`*${"abcdefghi"[i]},`.repeat(9).slice(0, -1)}]`),
].join("\n");

let sandbox: Sandbox;
let dir: string;
beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: 0, websites: [{ domain: "example.com" }] });
  dir = mkdtempSync(join(tmpdir(), "sitesync-bounds-"));
  writeFileSync(join(dir, "nested.yaml"), NESTED);
  writeFileSync(join(dir, "laughs.yaml"), `${LAUGHS}\n`);
});
afterAll(async () => {
  await sandbox.close();
});

async function timed<T>(run: () => Promise<T>): Promise<T & { ms: number }> {
  const started = performance.now();
  const result = await run();
  return { ...result, ms: performance.now() - started };
}

describe("a config that nests or expands without end", () => {
  it("validate refuses 20 MiB of flow nesting at the bound, at once, naming where", async () => {
    const file = join(dir, "nested.yaml");
    const result = await timed(() => sitesync(["validate", "-c", file]));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${file}:${DEPTH}`);
    expect(result.ms).toBeLessThan(QUICKLY_MS);
  });

  it("validate refuses aliases that expand past the node bound, at the alias that crosses it", async () => {
    const file = join(dir, "laughs.yaml");
    const result = await sitesync(["validate", "-c", file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${file}:8:8 the aliases expand the file past 8,000,000 YAML nodes`);
  });

  it("plan refuses it at once, before any request", async () => {
    const file = join(dir, "nested.yaml");
    const env = { SITESYNC_API_KEY: sandbox.apiKey };
    const result = await timed(() => sitesync(["plan", "-c", file, "--websites-url", sandbox.url], { env }));
    expect(result.code).toBe(1);
    expect(result.ms).toBeLessThan(QUICKLY_MS);
    expect(result.stderr).toContain(`${file}:${DEPTH}`);
    expect(sandbox.requests).toHaveLength(0);
  });

  it("the Action refuses it at once, with an annotation at the line and column", async () => {
    const action = await startActionFixture({ sandboxes: { main: { websites: [{ domain: "example.com" }] } } });
    try {
      const { url, apiKey } = action.sandboxes.main;
      action.write({ "sitesync.yaml": NESTED });
      const run = await timed(() =>
        action.run({ inputs: { "api-key": apiKey, "websites-url": url }, event: { name: "pull_request", payload: pullRequestPayload(3) } }),
      );
      expect(run.code).toBe(1);
      expect(run.ms).toBeLessThan(QUICKLY_MS);
      const annotation = run.commands.find((c) => c.includes("file=sitesync.yaml,line=1,col=32::"));
      expect(annotation).toContain("::the YAML nests deeper than 32 levels");
      expect(action.sandboxes.main.requests).toHaveLength(0);
    } finally {
      await action.close();
    }
  });
});
