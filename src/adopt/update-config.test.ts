import { describe, expect, it } from "vitest";
import { liveWebsite } from "../../test/helpers/live-website.ts";
import { loadConfig } from "../config/load.ts";
import type { LiveWebsite } from "../model/website.ts";
import { plan } from "../plan/plan.ts";
import { type UpdateInput, updateConfig } from "./update-config.ts";

const FILE = "sitesync.yaml";

const site = liveWebsite;

function update(source: string, websites: LiveWebsite[], options: Partial<UpdateInput> = {}) {
  const result = updateConfig({ file: FILE, source, live: { websites }, ...options });
  if (!result.ok) throw new Error(`expected an update:\n${result.diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`).join("\n")}`);
  return result;
}

function refusals(source: string, websites: LiveWebsite[], options: Partial<UpdateInput> = {}): string[] {
  const result = updateConfig({ file: FILE, source, live: { websites }, ...options });
  if (result.ok) throw new Error(`expected a refusal, got:\n${result.text}`);
  return result.diagnostics.map((d) => `${d.line}:${d.column} ${d.code} ${d.path}: ${d.message}`);
}

/** What `sitesync plan` would do with the file: the number of changes. */
async function changesAfter(text: string, websites: LiveWebsite[], env: Record<string, string> = {}): Promise<number> {
  const loaded = await loadConfig(FILE, { source: text, env });
  if (!loaded.ok) throw new Error(`the updated file does not load:\n${loaded.errors.map((d) => `${d.line}: ${d.message}`).join("\n")}`);
  const { config } = loaded;
  return plan(config, { websites }, { configFile: FILE, configDigest: config.digest }).changes.length;
}

const HAND_WRITTEN = `# yaml-language-server: $schema=./schemas/sitesync.schema.json
version: 1
websites_url: https://analytics.example.com
policy:
  prune: false   # we share the account with the agency
  ignore: ["tmp-*.example.org"]
defaults:
  exclude_bots: true
  email: false
  password: \${STATS_PASSWORD}

x-office: &office [203.0.113.7, 198.51.100.0/24]

websites:
  # The shop: members only.
  - domain: shop.example.com
    privacy: private   # reviewed 2026-01
    exclude_ips: *office
    favorite: true

  - domain: blog.example.com
    privacy: "public"
    exclude_ips:
      - 192.0.2.1   # home
      - 192.0.2.2
    favorite: false

  # Campaign site for the spring launch
  - domain: launch.example.com
    privacy: public

  - domain: docs.example.com
    privacy: public
    email: true
    exclude_params: [utm_source]

  - domain: old.example.com
    state: absent   # retired 2025
`;

/** The account after a few edits in the web UI. */
const EDITED = [
  site(1, "shop.example.com", { privacy: 2, password: true, exclude_ips: ["198.51.100.0/24", "203.0.113.7"], favorite: true }),
  site(2, "blog.example.com", { email: 1, exclude_ips: ["192.0.2.1", "192.0.2.3"], favorite: true }),
  site(4, "docs.example.com", { email: 1 }),
  site(5, "new.example.com", { privacy: 1, exclude_ips: ["10.0.0.1"], favorite: true }),
  site(6, "tmp-7.example.org"),
];

describe("updateConfig", () => {
  it("rewrites only the drifted lines of a hand-written file, and the result plans to no changes", async () => {
    const result = update(HAND_WRITTEN, EDITED, { addUnlisted: true });
    expect(result.diff).toBe(`Index: sitesync.yaml
===================================================================
--- sitesync.yaml
+++ sitesync.yaml
@@ -14,21 +14,18 @@
 websites:
   # The shop: members only.
   - domain: shop.example.com
-    privacy: private   # reviewed 2026-01
+    privacy: password   # reviewed 2026-01
     exclude_ips: *office
     favorite: true
 
   - domain: blog.example.com
     privacy: "public"
+    email: true
     exclude_ips:
       - 192.0.2.1   # home
-      - 192.0.2.2
-    favorite: false
+      - 192.0.2.3
+    favorite: true
 
-  # Campaign site for the spring launch
-  - domain: launch.example.com
-    privacy: public
-
   - domain: docs.example.com
     privacy: public
     email: true
@@ -36,3 +33,11 @@
 
   - domain: old.example.com
     state: absent   # retired 2025
+
+  - domain: new.example.com
+    privacy: private
+    email: false
+    exclude_bots: true
+    exclude_ips:
+      - 10.0.0.1
+    favorite: true
`);
    expect(result.summary).toEqual({
      updated: [
        { domain: "shop.example.com", fields: ["privacy"] },
        { domain: "blog.example.com", fields: ["email", "exclude_ips", "favorite"] },
      ],
      added: ["new.example.com"],
      removed: ["launch.example.com"],
      restored: [],
      unmanaged: [],
      projectChanges: 0,
    });
    expect(await changesAfter(result.text, EDITED, { STATS_PASSWORD: "correct horse" })).toBe(0);
  });

  it("changes nothing, byte for byte, when nothing drifted", async () => {
    const live = [
      site(1, "shop.example.com", { privacy: 1, exclude_ips: ["203.0.113.7", "198.51.100.0/24"], favorite: true }),
      site(2, "blog.example.com", { exclude_ips: ["192.0.2.2", "192.0.2.1"] }),
      site(3, "launch.example.com"),
      site(4, "docs.example.com", { email: 1 }),
    ];
    const result = update(HAND_WRITTEN, live);
    expect(result.text).toBe(HAND_WRITTEN);
    expect(result.diff).toBe("");
  });

  it("leaves unlisted websites unmanaged without prune or addUnlisted, and counts them", async () => {
    const source = "version: 1\nwebsites:\n  - domain: a.example.com\n";
    const result = update(source, [site(1, "a.example.com"), site(2, "z.example.com"), site(3, "b.example.com")]);
    expect(result.text).toBe(source);
    expect(result.summary.unmanaged).toEqual(["b.example.com", "z.example.com"]);
    expect(result.summary.added).toEqual([]);
  });

  it("with prune, adds unlisted websites at their sorted place, never an ignored one", async () => {
    const source = `version: 1
policy:
  prune: true
  ignore: ["tmp-*"]
websites:
  - domain: b.example.com
  - domain: d.example.com   # the docs
`;
    const live = [
      site(1, "b.example.com"),
      site(2, "d.example.com"),
      site(3, "a.example.com"),
      site(4, "c.example.com", { privacy: 2, password: true }),
      site(5, "e.example.com"),
      site(6, "tmp-1.example.com"),
    ];
    const result = update(source, live);
    expect(result.text).toBe(`version: 1
policy:
  prune: true
  ignore: ["tmp-*"]
websites:
  - domain: a.example.com
    privacy: public
    email: false
    exclude_bots: true
    exclude_ips: []
    favorite: false
  - domain: b.example.com
  - domain: c.example.com
    privacy: password
    email: false
    exclude_bots: true
    exclude_ips: []
    favorite: false
  - domain: d.example.com   # the docs
  - domain: e.example.com
    privacy: public
    email: false
    exclude_bots: true
    exclude_ips: []
    favorite: false
`);
    expect(result.summary.added).toEqual(["a.example.com", "c.example.com", "e.example.com"]);
  });

  it("gives a website that became password-protected in the UI privacy: password and no password line", async () => {
    const source = "version: 1\nwebsites:\n  - domain: a.example.com\n    privacy: public\n";
    const result = update(source, [site(1, "a.example.com", { privacy: 2, password: true })]);
    expect(result.text).toBe("version: 1\nwebsites:\n  - domain: a.example.com\n    privacy: password\n");
  });

  it("keeps ${VAR} references and needs no secret to update a password-protected website", async () => {
    const source = `version: 1
websites:
  - domain: members.example.com
    privacy: password
    password: \${MEMBERS_PASSWORD}   # from the vault
    favorite: false
`;
    const live = [site(1, "members.example.com", { privacy: 2, password: true, favorite: true })];
    const result = update(source, live);
    expect(result.text).toBe(source.replace("favorite: false", "favorite: true"));
    expect(await changesAfter(result.text, live, { MEMBERS_PASSWORD: "hunter22" })).toBe(0);
  });

  it("writes an inherited field on the website, in the style the file uses", async () => {
    const source = `version: 1
defaults:
  privacy: 0
  exclude_ips: ['192.0.2.1']
x-base: &base
  email: 0
websites:
  - domain: a.example.com
    <<: *base
    exclude_bots: 1
  - domain: b.example.com
    <<: *base
`;
    const live = [
      site(1, "a.example.com", { privacy: 1, email: 1, exclude_ips: ["192.0.2.1", "192.0.2.9"] }),
      site(2, "b.example.com", { exclude_ips: ["192.0.2.1"] }),
    ];
    const result = update(source, live);
    expect(result.text).toBe(`version: 1
defaults:
  privacy: 0
  exclude_ips: ['192.0.2.1']
x-base: &base
  email: 0
websites:
  - domain: a.example.com
    privacy: 1
    email: 1
    <<: *base
    exclude_bots: 1
    exclude_ips: ['192.0.2.1', '192.0.2.9']
  - domain: b.example.com
    <<: *base
`);
    expect(await changesAfter(result.text, live)).toBe(0);
  });

  it("turns a tombstone of a website that exists again back into an entry", async () => {
    const source = "version: 1\ndefaults:\n  favorite: false\nwebsites:\n  - domain: a.example.com   # retired\n    state: absent\n";
    const live = [site(1, "a.example.com", { favorite: true })];
    const result = update(source, live);
    expect(result.text).toBe(
      "version: 1\ndefaults:\n  favorite: false\nwebsites:\n  - domain: a.example.com   # retired\n    favorite: true\n",
    );
    expect(result.summary.restored).toEqual(["a.example.com"]);
    expect(await changesAfter(result.text, live)).toBe(0);
  });

  it("replaces an alias on the drifted entry only, keeping the anchor for the others", async () => {
    const source = `version: 1
x-office: &office [192.0.2.1, 192.0.2.2]
websites:
  - domain: a.example.com
    exclude_ips: *office
  - domain: b.example.com
    exclude_ips: *office
`;
    const live = [
      site(1, "a.example.com", { exclude_ips: ["192.0.2.9"] }),
      site(2, "b.example.com", { exclude_ips: ["192.0.2.2", "192.0.2.1"] }),
    ];
    const result = update(source, live);
    expect(result.text).toBe(source.replace("exclude_ips: *office\n  - domain: b", "exclude_ips: [192.0.2.9]\n  - domain: b"));
    expect(await changesAfter(result.text, live)).toBe(0);
  });

  it("keeps the entries, quotes and padding of a flow list it changes", async () => {
    const source = `version: 1\nwebsites:\n  - domain: a.example.com\n    exclude_ips: [ "192.0.2.1", '192.0.2.2' ]   # office\n`;
    const result = update(source, [site(1, "a.example.com", { exclude_ips: ["192.0.2.3", "192.0.2.2"] })]);
    expect(result.text).toBe(
      `version: 1\nwebsites:\n  - domain: a.example.com\n    exclude_ips: [ '192.0.2.2', "192.0.2.3" ]   # office\n`,
    );
  });

  it("empties a block list onto the key's line, keeping the file's CRLF line endings", async () => {
    const source =
      "version: 1\r\nwebsites:\r\n  - domain: a.example.com\r\n    exclude_ips:\r\n      - 192.0.2.1\r\n    favorite: false\r\n";
    const result = update(source, [site(1, "a.example.com")]);
    expect(result.text).toBe("version: 1\r\nwebsites:\r\n  - domain: a.example.com\r\n    exclude_ips: []\r\n    favorite: false\r\n");
  });

  it("removes the last entry with its comment and the blank line before it", async () => {
    const source = `version: 1
websites:
  - domain: a.example.com

  # going away
  - domain: b.example.com
    favorite: true
# projects are managed elsewhere
`;
    const result = update(source, [site(1, "a.example.com")]);
    expect(result.text).toBe("version: 1\nwebsites:\n  - domain: a.example.com\n# projects are managed elsewhere\n");
    expect(result.summary.removed).toEqual(["b.example.com"]);
  });

  it("leaves websites: [] when every listed website is gone, and keeps tombstones of gone websites", async () => {
    const gone = "version: 1\nwebsites:\n  # all of them\n  - domain: a.example.com\n  - domain: b.example.com\n";
    expect(update(gone, []).text).toBe("version: 1\nwebsites: []\n");
    const tombstone = "version: 1\nwebsites:\n  - domain: a.example.com\n    state: absent\n";
    expect(update(tombstone, []).text).toBe(tombstone);
  });

  describe("refuses what it cannot update safely, naming the line", () => {
    it("a domain from ${VAR}", async () => {
      const source = "version: 1\nwebsites:\n  - domain: ok.example.com\n  - domain: ${SHOP_DOMAIN}\n";
      expect(refusals(source, [site(1, "ok.example.com")], { env: { SHOP_DOMAIN: "shop.example.com" } })).toEqual([
        "4:13 update.variable websites[1].domain: the domain comes from a ${VAR} reference, so which website this entry is depends on the environment; write the domain itself",
      ]);
    });

    it("a drifted value from ${VAR}", async () => {
      const source = "version: 1\nwebsites:\n  - domain: a.example.com\n    email: ${SEND_REPORTS}\n";
      expect(refusals(source, [site(1, "a.example.com", { email: 1 })], { env: { SEND_REPORTS: "false" } })).toEqual([
        "4:12 update.variable websites[0].email: the live value differs, but this value comes from a ${VAR} reference; change the variable (or write the value) so that it says 1",
      ]);
    });

    it("an anchored value that other entries use", async () => {
      const source = `version: 1
websites:
  - domain: a.example.com
    exclude_ips: &office [192.0.2.1]
  - domain: b.example.com
    exclude_ips: *office
`;
      const live = [site(1, "a.example.com", { exclude_ips: ["192.0.2.7"] }), site(2, "b.example.com", { exclude_ips: ["192.0.2.1"] })];
      expect(refusals(source, live)).toEqual([
        "4:26 update.shared-anchor websites[0].exclude_ips: this value is anchored as &office and used elsewhere through *office; changing it to the live value would change those entries too. Write this entry's value without the anchor, then run again",
      ]);
    });

    it("a live value the file cannot express, rather than a file that still plans a change", async () => {
      // The API has no range check on email (API-NOTES §2.4); a config only says true or false.
      const source = "version: 1\nwebsites:\n  - domain: a.example.com\n    email: false\n";
      expect(refusals(source, [site(1, "a.example.com", { email: 2 })])).toEqual([
        "3:13 update.unsettled : a.example.com: the file cannot say what the account holds; the plan would still update this website (email). Update this entry by hand",
      ]);
    });

    it("an invalid file, with its own diagnostics", async () => {
      expect(refusals("version: 1\nwebsites:\n  - domain: a.example.com\n    privacy: secret\n", [])).toEqual([
        expect.stringMatching(/^4:14 schema\.enum websites\[0\]\.privacy: /),
      ]);
    });
  });
});

describe("duplicate live domains (DESIGN §4)", () => {
  it("adopts, among live websites whose domains normalize alike, the one with the lowest id, as plan manages it", async () => {
    const source = "version: 1\nwebsites:\n  - domain: shop.example.com\n    privacy: public\n";
    const live = [site(7, "shop.Example.com", { privacy: 0 }), site(3, "Shop.example.com", { privacy: 1 })];
    expect(update(source, live).text).toContain("privacy: private");
  });
});

describe("a large plain file (DESIGN §8: the edited entries alone are read again)", () => {
  const domains = Array.from({ length: 300 }, (_, i) => `site-${i}.example.com`);
  const source = `version: 1\nwebsites:\n${domains.map((d) => `  - domain: ${d}\n    privacy: public\n    # notes on ${d}\n`).join("")}projects: []\n`;
  const live = domains.map((d, i) => site(i + 1, d, i === 7 || i === 299 ? { privacy: 1 } : {}));

  it("rewrites only the drifted entries, a middle one and the last alike, and the file then plans to no changes", async () => {
    const result = update(source, live);
    expect(result.summary.updated.map((u) => u.domain)).toEqual(["site-7.example.com", "site-299.example.com"]);
    expect(result.text).toContain("  - domain: site-7.example.com\n    privacy: private\n    # notes on site-7.example.com\n");
    expect(result.text).toContain(
      "  - domain: site-299.example.com\n    privacy: private\n    # notes on site-299.example.com\nprojects: []\n",
    );
    expect(result.text.replace(/privacy: private/g, "privacy: public")).toBe(source);
    expect(await changesAfter(result.text, live)).toBe(0);
  });

  it("adopts a website whose live domain is written in another case, as plan compares them", async () => {
    const mixed = live.map((s, i) => (i === 3 ? site(s.id, "SITE-3.example.com", { privacy: 1 }) : s));
    const result = update(source, mixed);
    expect(result.summary.updated.map((u) => u.domain)).toEqual(["site-3.example.com", "site-7.example.com", "site-299.example.com"]);
    expect(await changesAfter(result.text, mixed)).toBe(0);
  });
});
