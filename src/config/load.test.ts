import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { diagnosticsOf, load, yaml } from "../../test/helpers/config.ts";
import { formatDiagnostic } from "../errors.ts";
import { loadConfig } from "./load.ts";

const WEBSITE_KEYS = "domain, state, privacy, password, email, exclude_bots, exclude_params, exclude_ips, favorite, password_version";

describe("loadConfig", () => {
  it("reads the file from disk, naming it in the config and in every diagnostic", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sitesync-config-"));
    const file = join(dir, "sitesync.yaml");
    writeFileSync(file, "version: 1\nwebsites:\n  - domain: a.example.com\n    privacy: secret\n");
    const result = await loadConfig(file, { env: {} });
    expect(result.ok).toBe(false);
    expect(result.ok ? [] : result.errors.map(formatDiagnostic)).toEqual([
      `${file}:4:14 websites[0].privacy: must be one of public, private, password (or 0, 1, 2)`,
    ]);
    writeFileSync(file, "version: 1\nwebsites: []\n");
    expect(await loadConfig(file, { env: {} })).toMatchObject({ ok: true, config: { file } });
  });

  it("reports a missing file as a diagnostic instead of throwing", async () => {
    const result = await loadConfig("/nonexistent/sitesync.yaml");
    expect(result.ok ? [] : result.errors.map(formatDiagnostic)).toEqual([
      "/nonexistent/sitesync.yaml: cannot read the config: no such file (pass another path with -c/--config, or write one from the account: sitesync export --out /nonexistent/sitesync.yaml)",
    ]);
  });

  it("reads the same text again with each load's own environment", async () => {
    const source = "# a comment may say ${ANYTHING}\nversion: 1\nwebsites:\n  - domain: ${DOMAIN}\n  - domain: b.example.com\n";
    const domains = async (env: Record<string, string>) => {
      const result = await loadConfig("sitesync.yaml", { source, env });
      return result.ok ? result.config.websites.map((w) => w.domain) : result.errors.map((d) => d.message);
    };
    expect(await domains({ DOMAIN: "a.example.com" })).toEqual(["a.example.com", "b.example.com"]);
    expect(await domains({ DOMAIN: "c.example.com" })).toEqual(["c.example.com", "b.example.com"]);
    const plain = source.replace("${DOMAIN}", "a.example.com");
    const first = await loadConfig("sitesync.yaml", { source: plain, env: {} });
    expect(await loadConfig("sitesync.yaml", { source: plain, env: {} })).toEqual(first);
  });

  it("reports an alias without its anchor at the alias, and finds none in a file without a *", async () => {
    const aliased = await loadConfig("sitesync.yaml", {
      source: "version: 1\nwebsites:\n  - domain: a.example.com\n    exclude_ips: *office\n",
      env: {},
    });
    expect(aliased.ok ? [] : aliased.errors.map(formatDiagnostic)).toEqual([
      "sitesync.yaml:4:18 alias *office has no anchor &office before it",
    ]);
    expect((await loadConfig("sitesync.yaml", { source: "version: 1\nwebsites:\n  - domain: a.example.com\n", env: {} })).ok).toBe(true);
  });

  it("reports every problem of a file in one run, in file order", async () => {
    const result = load(yaml`
      version: 1
      websites_url: http://analytics.example.com
      policy:
        max_deletes: many
      websites:
        - domain: a.example.com
          privacy: password
          exclude_ips: [1.2.3]
        - domain: b.example.com
          password: \${NOT_SET}
          colour: blue
        - domain: a.example.com
    `);
    expect(diagnosticsOf(result)).toEqual([
      "2:15 websites_url: plain http:// would send the API key unencrypted to analytics.example.com; use https:// (http:// is allowed only for localhost, 127.0.0.1 and [::1])",
      "4:16 policy.max_deletes: must be a whole number, not text",
      '8:19 websites[0].exclude_ips[0]: "1.2.3" is not an IP address or CIDR range (like 203.0.113.7, 198.51.100.0/24 or 2001:db8::/32)',
      "10:15 websites[1].password: environment variable NOT_SET is not set; set it, or give a default with ${NOT_SET:-value}",
      '11:5 websites[1].colour: unknown key "colour"; expected one of domain, state, privacy, password, email, exclude_bots, exclude_params, exclude_ips, favorite, password_version',
      '12:13 websites[2].domain: duplicate website "a.example.com": already listed at line 6; keep one entry',
    ]);
  });

  it("shows a key of megabytes by its start and its length, in the path and the message", () => {
    const key = `colour${"x".repeat(2_000_000)}`;
    const told = diagnosticsOf(load(`version: 1\nwebsites:\n  - domain: a.example.com\n    ? ${key}\n    : blue\n`));
    const shown = `colour${"x".repeat(54)}… (2,000,006 characters)`;
    expect(told).toEqual([`4:7 websites[0].${shown}: unknown key "${shown}"; expected one of ${WEBSITE_KEYS}`]);
    // Written `key: value`, yaml refuses a key that long.
    expect(diagnosticsOf(load(`version: 1\nwebsites:\n  - domain: a.example.com\n    ${key}: blue\n`))).toEqual([
      "4:5 invalid YAML: the : indicator must be at most 1024 chars after the start of an implicit block mapping key",
    ]);
  });

  it("returns warnings beside a valid config", async () => {
    const result = load("version: 1\nwebsites:\n  - domain: www.example.com\n");
    expect(result.ok).toBe(true);
    expect(diagnosticsOf(result)).toEqual([
      '3:13 (warning) websites[0].domain: "www.example.com" is stored by the API as "example.com"; write it that way',
    ]);
    expect(result.warnings[0]).toMatchObject({ code: "domain.normalized", severity: "warning", file: "sitesync.yaml" });
  });

  it("never puts a password into a message", async () => {
    const secret = "p4ssw0rd-that-must-stay-hidden";
    const result = load(
      yaml`
        version: 1
        defaults:
          password: \${PW}
        websites:
          - domain: a.example.com
            privacy: public
            password: "${secret}\${PW}"
          - domain: b.example.com
            password: "${secret.repeat(5)}"
          - domain: c.example.com
            password: "\${PW"
      `,
      { PW: secret },
    );
    expect(diagnosticsOf(result).length).toBeGreaterThan(0);
    expect(JSON.stringify(result)).not.toContain(secret);
  });

  it("turns a file that is not a config at all into diagnostics", async () => {
    for (const source of ["", "just text", "- a\n- b\n", "\u0000\u0001binary", "[", "version: 1\nwebsites: [*a]\n"]) {
      const result = load(source);
      expect(result.ok, source).toBe(false);
      expect(result.ok ? [] : result.errors.length, source).toBeGreaterThan(0);
    }
  });

  it("stops after YAML syntax errors, since the rest of the tree cannot be trusted", async () => {
    const result = load("version: 1\nwebsites:\n  - domain: a\n    privacy: x\n  bad: [\n");
    // privacy: x is wrong too, but only the YAML problems are reported until they are fixed.
    expect(result.ok ? [] : result.errors.map((d) => `${d.line}:${d.column} ${d.code}`)).toEqual([
      "5:1 yaml.bad-indent",
      "6:1 yaml.bad-indent",
    ]);
  });
});
