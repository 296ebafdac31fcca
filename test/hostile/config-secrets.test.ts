/**
 * Values read from the environment, in the library (DESIGN §12): every value read from the environment is a secret from the moment it is
 * read, even when the config then fails; diagnostics quote the file, and exported text comes back literally.
 */
import { describe, expect, it } from "vitest";
import { exportConfig } from "../../src/config/export-config.ts";
import { loadConfig } from "../../src/config/load.ts";
import { formatDiagnostic } from "../../src/errors.ts";
import { liveWebsite } from "../helpers/live-website.ts";

const SECRET = "a-long-value-from-the-environment-42";

describe("values read from the environment", () => {
  it("are handed to onSecret as they are read, before a failing config returns its errors", async () => {
    const seen: string[] = [];
    const source = 'version: 1\nwebsites:\n  - domain: a.example.com\n    exclude_ips: ["${EXCLUDE}"]\n    email: ${FLAG}\n';
    const result = await loadConfig("sitesync.yaml", { source, env: { EXCLUDE: SECRET, FLAG: "1" }, onSecret: (v) => seen.push(v) });
    expect(seen).toEqual([SECRET, "1"]);
    expect(result.ok).toBe(false);
    const lines = result.ok ? [] : result.errors.map(formatDiagnostic);
    expect(lines).toEqual([
      'sitesync.yaml:4:19 websites[0].exclude_ips[0]: "${EXCLUDE}" is not an IP address or CIDR range (like 203.0.113.7, 198.51.100.0/24 or 2001:db8::/32)',
    ]);
  });

  it("are quoted as their source whole, also a value with a space that ends in another's value", async () => {
    const source = 'version: 1\nwebsites:\n  - domain: "${X}"\n    email: "${Y}"\n';
    const env = { X: "topsecret-one betasecret-two", Y: "betasecret-two" };
    const result = await loadConfig("sitesync.yaml", { source, env });
    const text = (result.ok ? [] : result.errors).map(formatDiagnostic).join("\n");
    expect(text).toContain('the API rejects "${X}"');
    expect(text).not.toContain("topsecret");
    expect(text).not.toContain("betasecret");
  });

  it("never make a diagnostic that does not quote them withheld: `true` is also a word of the message", async () => {
    const source = 'version: 1\nwebsites:\n  - domain: a.example.com\n    favorite: "${FAV}"\n';
    const result = await loadConfig("sitesync.yaml", { source, env: { FAV: "true" } });
    expect(result.ok ? [] : result.errors.map((d) => d.message)).toEqual(["must be true or false, not text"]);
  });
});

describe("export", () => {
  it("writes a live ${...} as $${...}, so that loading the file gives the same text back", async () => {
    const site = liveWebsite(1, "a.example.com", { exclude_ips: ["${SITESYNC_API_KEY}", "$${HOME}"] });
    const { yaml, leftOut } = exportConfig(
      { websites: [site], projects: [{ project: "p-${HOME}", reports: 0, result: 0, created_at: "" }] },
      { schemaPath: "s.json" },
    );
    // The lines are no IPs, so they are left out (export-fit.ts), said in a comment that nothing reads.
    expect(leftOut.map((item) => item.field)).toEqual(["exclude_ips"]);
    expect(yaml).toContain('# exclude_ips left out: the account\'s line "${SITESYNC_API_KEY}" is not');
    const loaded = await loadConfig("sitesync.yaml", { source: yaml, env: { SITESYNC_API_KEY: SECRET, HOME: "/root" } });
    expect(loaded.ok && loaded.config.projects?.map((p) => p.project)).toEqual(["p-${HOME}"]);
    expect(loaded.ok && loaded.config.websites[0]?.exclude_ips).toBeUndefined();
    expect(JSON.stringify(loaded)).not.toContain(SECRET);
  });

  it("writes what it leaves out so that the file still loads: no control character, lone surrogate or U+FFFF in a comment", async () => {
    const hostile = "10.0.0.1\u001b[2J\u0085\uffff\ud800\r";
    const sites = [
      liveWebsite(1, "a.example.com", { exclude_ips: [hostile] }),
      liveWebsite(2, "b\u0007\udfff"),
      liveWebsite(3, "c.example.com"),
    ];
    const { yaml, leftOut } = exportConfig({ websites: sites }, { schemaPath: "s.json" });
    expect(leftOut.map((item) => item.id)).toEqual([1, 2]);
    expect(yaml).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\ufffe\uffff\ud800-\udfff]/);
    expect(yaml).toContain(String.raw`"10.0.0.1\e[2J\x85\uffff\ud800" is not an IP address`);
    expect(yaml).toContain(String.raw`#   b\x07\udfff (id 2): the API rejects this domain`);
    const loaded = await loadConfig("sitesync.yaml", { source: yaml, env: {} });
    expect(loaded.ok && loaded.config.websites.map((w) => w.domain)).toEqual(["a.example.com", "c.example.com"]);
    // A line of 100,000 characters is named by its start and its length.
    const long = exportConfig(
      { websites: [liveWebsite(4, "d.example.com", { exclude_ips: ["x".repeat(100_000)] })] },
      { schemaPath: "s.json" },
    );
    expect(long.yaml.length).toBeLessThan(3_000);
    expect(long.leftOut[0]?.why).toContain(`"${"x".repeat(60)}… (100,000 characters)" is not an IP address`);
  });
});
