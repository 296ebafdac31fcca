/**
 * `sitesync adopt FILE` (formerly `export --update FILE`, DESIGN §7): after changes made in the account as a person makes them in the
 * web UI, a hand-written config (comments, anchors, defaults, a tombstone, ${VAR}, x- keys) is edited in
 * place so that it plans to no changes, and only the drifted lines move. Real CLI, real HTTP, the sandbox.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { sitesync, workdir } from "../helpers/cli.ts";

const CONFIG = `# yaml-language-server: $schema=../schemas/sitesync.schema.json
version: 1
policy:
  prune: false
  ignore: ["tmp-*.example.org"]

defaults:
  exclude_bots: true   # bots never count
  email: false

x-office: &office [203.0.113.7, 198.51.100.0/24]

websites:
  # The shop: customers only
  - domain: shop.example.com
    privacy: password
    password: \${SHOP_PASSWORD}   # from the vault
    exclude_ips: *office

  - domain: blog.example.com
    privacy: public
    favorite: true

  # Docs are public, reports go to the team
  - domain: docs.example.com
    privacy: "public"
    email: true
    exclude_ips:
      - 192.0.2.10

  - domain: legacy.example.com   # to be retired
    privacy: private

  - domain: old.example.com
    state: absent
`;

let sandbox: Sandbox;
let env: Record<string, string>;
beforeAll(async () => {
  sandbox = await startSandbox({
    rateLimit: 0,
    websites: [
      { domain: "shop.example.com", privacy: 2, password: "vault-password", email: 0, exclude_ips: ["203.0.113.7", "198.51.100.0/24"] },
      { domain: "blog.example.com", privacy: 0, email: 0, favorite: true },
      { domain: "docs.example.com", privacy: 0, email: 1, exclude_ips: ["192.0.2.10"] },
      { domain: "legacy.example.com", privacy: 1, email: 0 },
      { domain: "tmp-1.example.org", privacy: 1 },
    ],
  });
  env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
});
afterAll(() => sandbox.close());

/** A change made in the account the way the web UI makes it: a form post to the API. */
async function ui(method: string, path: string, form: Record<string, string> = {}): Promise<void> {
  const response = await fetch(`${sandbox.url}/api/v1/websites${path}`, {
    method,
    headers: { Authorization: `Bearer ${sandbox.apiKey}`, Accept: "application/json" },
    ...(method === "DELETE" ? {} : { body: new URLSearchParams(form) }),
  });
  expect(response.ok, await response.text()).toBe(true);
}

const idOf = (domain: string) => sandbox.store.findWebsite(domain)!.id;

describe("adopt (formerly export --update)", () => {
  it("accepts UI edits into a hand-written config: only the drifted lines change, and the plan is empty", async () => {
    const dir = workdir({ "sitesync.yaml": CONFIG });
    const file = join(dir, "sitesync.yaml");
    // The file matches the account, with the shop's password from the vault.
    const before = await sitesync(["plan", "--detailed-exitcode"], { env: { ...env, SHOP_PASSWORD: "vault-password" }, cwd: dir });
    expect(before.code, before.stdout + before.stderr).toBe(0);

    await ui("PUT", `/${idOf("docs.example.com")}`, { privacy: "1", exclude_ips: "192.0.2.10\n192.0.2.11" });
    await ui("PUT", `/${idOf("blog.example.com")}`, { favorite: "0", email: "1" });
    await ui("POST", "", { domain: "new.example.com", privacy: "2", password: "set-in-the-ui" });
    await ui("DELETE", `/${idOf("legacy.example.com")}`);
    await ui("POST", "", { domain: "tmp-2.example.org" });

    // No secret: the shop's ${SHOP_PASSWORD} is write-only and never needed to update the file.
    const dry = await sitesync(["adopt", "sitesync.yaml", "--add-unlisted", "--dry-run"], { env, cwd: dir });
    expect(dry.code, dry.stderr).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(CONFIG);
    expect(dry.stderr).toBe(
      "sitesync.yaml would be updated (--dry-run: nothing written): websites 2 updated, 1 added, 1 removed, 0 unmanaged.\n",
    );

    const updated = await sitesync(["adopt", "sitesync.yaml", "--add-unlisted"], { env, cwd: dir });
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.stdout).toBe(dry.stdout);
    expect(updated.stdout).toBe(EXPECTED_DIFF);
    expect(updated.stderr).toBe("Updated sitesync.yaml: websites 2 updated, 1 added, 1 removed, 0 unmanaged.\n");

    const after = await sitesync(["plan", "--detailed-exitcode"], { env: { ...env, SHOP_PASSWORD: "vault-password" }, cwd: dir });
    expect(after.code, after.stdout + after.stderr).toBe(0);
    expect(after.stdout).toContain("No changes.");

    // Run again, it has nothing left to do.
    const again = await sitesync(["adopt", "sitesync.yaml", "--add-unlisted"], { env, cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe("");
    expect(again.stderr).toBe("sitesync.yaml already matches the account: websites 0 updated, 0 added, 0 removed, 0 unmanaged.\n");
  });

  it("is still reached as export --update FILE, which says it is sitesync adopt FILE now", async () => {
    const dir = workdir({ "sitesync.yaml": CONFIG });
    await ui("PUT", `/${idOf("docs.example.com")}`, { exclude_bots: "0" });
    const adopt = await sitesync(["adopt", "sitesync.yaml", "--dry-run"], { env, cwd: dir });
    const alias = await sitesync(["export", "--update", "sitesync.yaml", "--dry-run"], { env, cwd: dir });
    expect([alias.code, alias.stdout]).toEqual([adopt.code, adopt.stdout]);
    expect(alias.stdout).toMatch(/^\+ +exclude_bots: false/m);
    expect(alias.stderr).toBe(`note: \`sitesync export --update sitesync.yaml\` is now \`sitesync adopt sitesync.yaml\`\n${adopt.stderr}`);
    const help = await sitesync(["adopt", "--help"]);
    expect(help.stdout).toContain("--add-unlisted");
    expect(help.stdout).not.toMatch(/--(projects|out|force)(?![-\w])/);
    // adopt's flags on export itself are refused, not ignored: export reads no config, so no account of one.
    const stray = await sitesync(["export", "--account", "eu"], { env, cwd: dir });
    expect(stray.code).toBe(1);
    expect(stray.stderr).toBe("error: --add-unlisted, --into, --account and --dry-run go with --update FILE, now sitesync adopt FILE\n");
  });

  it("leaves unlisted websites unmanaged without --add-unlisted, and counts them (after the test above)", async () => {
    const config = 'version: 1\npolicy:\n  ignore: ["tmp-*.example.org"]\nwebsites:\n  - domain: shop.example.com # mine\n';
    const dir = workdir({ "sitesync.yaml": config });
    const result = await sitesync(["adopt", "sitesync.yaml"], { env, cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe(
      "sitesync.yaml already matches the account: websites 0 updated, 0 added, 0 removed, 3 unmanaged; --add-unlisted adds the unmanaged websites.\n",
    );
  });

  it("refuses a file it cannot update safely, naming the line, and writes nothing", async () => {
    const config = "version: 1\nwebsites:\n  - domain: ${SHOP_DOMAIN}\n    privacy: public\n";
    const dir = workdir({ "sitesync.yaml": config });
    const result = await sitesync(["adopt", "sitesync.yaml"], { env: { ...env, SHOP_DOMAIN: "shop.example.com" }, cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      [
        "sitesync.yaml:3:13 websites[0].domain: the domain comes from a ${VAR} reference, so which website this entry is depends on the environment; write the domain itself",
        'sitesync.yaml cannot be updated safely: it was not changed. Edit the lines above by hand, or run "sitesync plan" to see the drift.',
        "",
      ].join("\n"),
    );
    expect(readFileSync(join(dir, "sitesync.yaml"), "utf8")).toBe(config);

    // The account the file points at must be known: an unset variable in its address is an error, as in plan.
    const elsewhere = workdir({ "sitesync.yaml": "version: 1\nwebsites_url: https://${STATS_HOST}\nwebsites: []\n" });
    sandbox.resetLog();
    const unset = await sitesync(["adopt", "sitesync.yaml"], { env: { SITESYNC_API_KEY: sandbox.apiKey }, cwd: elsewhere });
    expect(unset.code).toBe(1);
    expect(unset.stderr.split("\n")[0]).toBe(
      "sitesync.yaml:2:23 websites_url: environment variable STATS_HOST is not set; set it, or give a default with ${STATS_HOST:-value}",
    );
    expect(sandbox.requests).toHaveLength(0);
  });
});

/**
 * Only the drifted lines: blog's email (inherited from defaults, so a new line) and favorite; docs' privacy in
 * its own quoting and one more IP; legacy's entry with its comment; new.example.com at the end (the file's
 * domains are not in order), privacy: password with no password line. Shop (${VAR}, anchor), comments,
 * defaults, x- keys and the tombstone stay as they were; tmp-2 is ignored by policy.
 */
const EXPECTED_DIFF = `Index: sitesync.yaml
===================================================================
--- sitesync.yaml
+++ sitesync.yaml
@@ -19,17 +19,23 @@
 
   - domain: blog.example.com
     privacy: public
-    favorite: true
+    email: true
+    favorite: false
 
   # Docs are public, reports go to the team
   - domain: docs.example.com
-    privacy: "public"
+    privacy: "private"
     email: true
     exclude_ips:
       - 192.0.2.10
+      - 192.0.2.11
 
-  - domain: legacy.example.com   # to be retired
-    privacy: private
-
   - domain: old.example.com
     state: absent
+
+  - domain: new.example.com
+    privacy: password
+    email: false
+    exclude_bots: true
+    exclude_ips: []
+    favorite: false
`;
