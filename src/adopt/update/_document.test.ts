import { describe, expect, it } from "vitest";
import { liveWebsite } from "../../../test/helpers/live-website.ts";
import type { LiveWebsite } from "../../model/website.ts";
import { type UpdateResult, updateConfig } from "../update-config.ts";
import { type ReadConfig, readConfig } from "./_read.ts";

const FILE = "sitesync.yaml";

function read(source: string): ReadConfig {
  const result = readConfig(FILE, source, {});
  if ("diagnostics" in result) throw new Error(result.diagnostics.map((d) => d.message).join("\n"));
  return result;
}

function text(result: UpdateResult): string {
  if (!result.ok) throw new Error(result.diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`).join("\n"));
  return result.text;
}

/** The update made from the entries it edits, beside the one made from the whole file's document. */
function bothWays(source: string, websites: LiveWebsite[]) {
  const sparse = read(source);
  const fromEntries = text(updateConfig({ file: FILE, source, live: { websites }, read: sparse }));
  // A file whose values hold a ${VAR} is always edited through the whole document.
  const whole = { ...read(source), interpolated: true };
  const fromWhole = text(updateConfig({ file: FILE, source, live: { websites }, read: whole }));
  return { fromEntries, fromWhole, built: sparse.view.built };
}

const entries = (count: number, write: (i: number) => string) => Array.from({ length: count }, (_, i) => write(i)).join("");
const domain = (i: number) => `site-${String(i).padStart(3, "0")}.example.com`;
const live = (count: number, over: (i: number) => Partial<LiveWebsite>) =>
  Array.from({ length: count }, (_, i) => liveWebsite(i + 1, domain(i), over(i)));

describe("adopt's document of the edited entries only", () => {
  it("edits an export exactly as the whole document does, without building the whole document", () => {
    const source = `version: 1\nwebsites:\n${entries(40, (i) => `  - domain: ${domain(i)}\n    privacy: public\n    email: false\n    exclude_ips: [${i % 5 === 0 ? "203.0.113.1" : ""}]\n`)}`;
    const websites = live(40, (i) => ({
      email: i % 7 === 3 ? 1 : 0,
      exclude_ips: i % 5 === 0 ? ["203.0.113.1"] : i === 22 ? ["192.0.2.9"] : [],
    }));
    const { fromEntries, fromWhole, built } = bothWays(source, websites);
    expect(fromEntries).toBe(fromWhole);
    expect(fromEntries).toContain(`  - domain: ${domain(3)}\n    privacy: public\n    email: true\n`);
    expect(fromEntries).toContain(`  - domain: ${domain(22)}\n    privacy: public\n    email: false\n    exclude_ips: [192.0.2.9]\n`);
    expect(built).toBe(false);
  });

  it("keeps the file's habits that only other entries show: numbers, quotes, padding, block lists, comments, CRLF", () => {
    const source = [
      "version: 1",
      "defaults:",
      "  exclude_bots: 1",
      "  exclude_ips: []",
      "  favorite: false",
      "websites:",
      entries(12, (i) =>
        [
          `  # entry ${i}`,
          `  - domain: "${domain(i)}"`,
          "    privacy: 1",
          "    email: 0",
          ...(i === 10 ? [] : ["    favorite: false"]),
          ...(i === 4 ? ["    exclude_ips:", "      - '203.0.113.4'"] : []),
          ...(i === 9 ? ["    exclude_ips: [ '192.0.2.1' ]"] : []),
          "",
          "",
        ].join("\n"),
      ),
      "# the end",
      "",
    ]
      .join("\n")
      .replaceAll("\n", "\r\n");
    const websites = live(12, (i) => ({
      privacy: 1,
      email: i === 2 ? 1 : 0,
      exclude_ips:
        i === 4 ? ["203.0.113.4"] : i === 7 ? ["192.0.2.7", "192.0.2.8", "192.0.2.9", "192.0.2.10"] : i === 9 ? ["192.0.2.1"] : [],
      favorite: i === 10,
    }));
    const { fromEntries, fromWhole, built } = bothWays(source, websites);
    expect(fromEntries).toBe(fromWhole);
    expect(built).toBe(false);
    expect(fromEntries).toContain(`  - domain: "${domain(2)}"\r\n    privacy: 1\r\n    email: 1\r\n`);
    expect(fromEntries).toContain("    email: 0\r\n    exclude_ips:\r\n      - '192.0.2.7'\r\n");
    expect(fromEntries).toContain(`  - domain: "${domain(10)}"\r\n    privacy: 1\r\n    email: 0\r\n    favorite: true\r\n`);
  });

  it("reads the whole document when a `[` that opens no list comes before the first flow list", () => {
    const source = `version: 1\nwebsites:\n${entries(8, (i) => `  - domain: ${domain(i)}   # ${i === 1 ? "[ticket 12]" : ""}\n    exclude_ips: [${i === 5 ? " 192.0.2.5 " : ""}]\n`)}`;
    const websites = live(8, (i) => ({ exclude_ips: i === 5 ? ["192.0.2.5"] : i === 3 ? ["192.0.2.3"] : [] }));
    const { fromEntries, fromWhole, built } = bothWays(source, websites);
    expect(fromEntries).toBe(fromWhole);
    expect(fromEntries).toContain(`  - domain: ${domain(3)}   # \n    exclude_ips: [ 192.0.2.3 ]\n`);
    expect(fromEntries).toContain(`  - domain: ${domain(4)}   # \n    exclude_ips: []\n`);
    expect(built).toBe(true);
  });

  it("restores a tombstone in place, and leaves what follows the list as it was", () => {
    const source = `version: 1\ndefaults:\n  email: false\nwebsites:\n${entries(6, (i) => `  - domain: ${domain(i)}\n${i === 2 ? "    state: absent\n" : ""}`)}projects_url: https://analytics.example.com/projects\n`;
    const websites = live(6, (i) => ({ email: i === 2 ? 1 : 0 }));
    const { fromEntries, fromWhole, built } = bothWays(source, websites);
    expect(fromEntries).toBe(fromWhole);
    expect(fromEntries).toContain(`  - domain: ${domain(2)}\n    email: true\n  - domain: ${domain(3)}\n`);
    expect(built).toBe(false);
  });
});
