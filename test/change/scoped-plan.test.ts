import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createClient } from "../../src/api/client.ts";
import { lookUpWebsites } from "../../src/api/lookup.ts";
import { apply } from "../../src/apply/apply.ts";
import { changeSince } from "../../src/change/change-since.ts";
import { namesToRead } from "../../src/change/names-to-read.ts";
import { loadConfig } from "../../src/config/load.ts";
import type { Config } from "../../src/config/types.ts";
import { plan } from "../../src/plan/plan.ts";
import { render } from "../../src/render/index.ts";
import { passwordsOf } from "../../src/run/plan-from-config.ts";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { git } from "../helpers/git.ts";

const folders: string[] = [];
let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A repository whose sitesync.yaml is `base` at HEAD~1 and `head` at HEAD. */
function repository(base: string, head: string): string {
  const dir = mkdtempSync(join(tmpdir(), "sitesync-scoped-"));
  folders.push(dir);
  git(dir, "init", "-q");
  const file = join(dir, "sitesync.yaml");
  for (const [text, message] of [
    [base, "base"],
    [head, "head"],
  ] as const) {
    writeFileSync(file, text);
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", message);
  }
  return file;
}

const BASE = `version: 1
websites:
  - domain: a.com
    email: false
  - domain: blog.example.com
    exclude_params: [utm_source]
  - domain: shop.example.com
    privacy: password
    password: \${SHOP_PW}
  - domain: site-00001.example.com
  - domain: site-00002.example.com
    email: true
`;
// Three edits: a readable field, exclude_params only, and a rotation by password_version.
const HEAD = BASE.replace("email: false", "email: true")
  .replace("[utm_source]", "[utm_source, fbclid]")
  .replace("password: ${SHOP_PW}", "password: ${SHOP_PW}\n    password_version: 2");

const env = { SHOP_PW: "n3w-shop-secret" };

async function load(file: string): Promise<Config> {
  const result = await loadConfig(file, { env });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.config;
}

describe("a plan that follows the change (DESIGN §3)", () => {
  it("reads k + 1 requests instead of the account, plans the three edits with their reasons, and apply sends them", async () => {
    sandbox = await startSandbox({
      rateLimit: 0,
      seed: 1_000,
      websites: [
        { domain: "a.com", email: 0 },
        { domain: "data.com" },
        { domain: "a.com.au" },
        { domain: "blog.example.com", exclude_params: "utm_source" },
        { domain: "shop.example.com", privacy: 2, password: "old-shop-secret" },
      ],
    });
    // site-00002.example.com drifted (email 0 live), but the change does not touch it.
    const client = createClient({ websitesUrl: sandbox.url, apiKey: sandbox.apiKey });
    const file = repository(BASE, HEAD);
    const head = await load(file);

    const result = await changeSince("HEAD~1", head, { env: {} });
    if (!result.known) throw new Error(`no change known: ${result.reason}`);
    const names = namesToRead(result.change, head.policy);
    expect(names.websites).toEqual(["a.com", "blog.example.com", "shop.example.com"]);
    const found = await lookUpWebsites(client, names.websites);
    if (found.read !== "scoped") throw new Error(`read in full: ${found.reason}`);
    expect(found.requests).toBe(4);
    expect(sandbox.stats().listRequests).toBe(4);

    const desired = { websites: head.websites, policy: head.policy };
    const planned = plan(
      desired,
      { websites: found.items },
      {
        configFile: head.file,
        configDigest: head.digest,
        change: { known: true, change: result.change, read: "scoped" },
      },
    );
    expect(
      planned.changes.map((c) => c.action === "update" && [c.domain, c.fields.map((f) => [f.field, f.changedSince?.edit ?? f.after])]),
    ).toEqual([
      ["a.com", [["email", 1]]],
      ["blog.example.com", [["exclude_params", "edited"]]],
      ["shop.example.com", [["password", "rotated"]]],
    ]);
    expect(planned.since).toMatchObject({ read: "scoped", notEvaluated: ["untouched-drift", "unlisted-live"] });
    for (const output of [JSON.stringify(planned), render(planned, "text"), render(planned, "markdown")]) {
      expect(output).not.toContain(env.SHOP_PW);
    }

    const applied = await apply(planned, client, { passwordOf: passwordsOf(head) });
    expect(applied.counts).toMatchObject({ applied: 3, failed: 0 });
    expect(sandbox.store.findWebsite("shop.example.com")?.password).toBe(env.SHOP_PW);
    expect(sandbox.store.findWebsite("blog.example.com")?.exclude_params).toBe("utm_source\nfbclid");
    expect(sandbox.store.findWebsite("a.com")?.email).toBe(1);
    expect(sandbox.store.findWebsite("site-00002.example.com")?.email).toBe(0);
    expect(sandbox.stats()).toMatchObject({ listRequests: 4, writeRequests: 3 });
  });
});
