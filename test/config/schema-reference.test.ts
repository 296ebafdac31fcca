/**
 * The `$schema=` that `sitesync export` writes must resolve for a teammate who clones the repository: a path
 * to a schema inside the repository (sitesync installed there, or sitesync's own checkout), else no modeline,
 * never a path into another project or a global install, nor a CDN address that does not exist.
 */
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { schemaReference } from "../../src/config/export-config.ts";
import { schemaLocation } from "../../src/run/schema-location.ts";

const SCHEMA = join("schemas", "sitesync.schema.json");
const installedIn = (project: string) => join(project, "node_modules", "sitesync", SCHEMA);

describe("schemaReference", () => {
  it("points into node_modules when sitesync is a dependency of the repository the file is written in", () => {
    const location = { schemaFiles: [installedIn("/home/ana/site")], projectRoot: "/home/ana/site" };
    expect(schemaReference("/home/ana/site", location)).toBe("./node_modules/sitesync/schemas/sitesync.schema.json");
    expect(schemaReference("/home/ana/site/config", location)).toBe("../node_modules/sitesync/schemas/sitesync.schema.json");
  });

  it("writes no modeline for a copy outside the repository: another project's, a global install, npx's cache", () => {
    for (const running of ["/home/ana/other", "/usr/lib", "/home/ana/.npm/_npx/4f2a", "/home/ana/site-old"]) {
      expect(schemaReference("/home/ana/site", { schemaFiles: [installedIn(running)], projectRoot: "/home/ana/site" })).toBeUndefined();
    }
  });

  it("takes the repository's own installed copy when the running copy is elsewhere", () => {
    const location = { schemaFiles: [installedIn("/home/ana/other"), installedIn("/home/ana/site")], projectRoot: "/home/ana/site" };
    expect(schemaReference("/home/ana/site/infra", location)).toBe("../node_modules/sitesync/schemas/sitesync.schema.json");
  });

  it("points into a checkout of sitesync from inside it, never from beside it", () => {
    const checkout = { schemaFiles: [join("/src/sitesync", SCHEMA)], projectRoot: "/src/sitesync" };
    expect(schemaReference("/src/sitesync", checkout)).toBe("./schemas/sitesync.schema.json");
    expect(schemaReference("/src/sitesync/examples", checkout)).toBe("../schemas/sitesync.schema.json");
    expect(schemaReference("/src/sitesync-fork", { ...checkout, projectRoot: "/src/sitesync-fork" })).toBeUndefined();
  });
});

describe("schemaLocation", () => {
  /** A folder with `files` (empty content) created under it. */
  function tree(files: string[]): string {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "sitesync-schema-location-")));
    for (const file of files) {
      mkdirSync(join(root, file, ".."), { recursive: true });
      writeFileSync(join(root, file), "{}");
    }
    return root;
  }

  it("finds the repository by .git and the copy installed in it; the path resolves from the file's folder", () => {
    const root = tree([".git/HEAD", installedIn("site"), installedIn("other"), "site/infra/analytics/.keep"]);
    const site = join(root, "site");
    // The repository is the whole tree: site/ and other/ are folders of one repository.
    const outputDir = join(site, "infra", "analytics");
    const location = schemaLocation(outputDir, installedIn(join(root, "other")));
    expect(location.projectRoot).toBe(root);
    expect(schemaReference(outputDir, location)).toBe("../../../other/node_modules/sitesync/schemas/sitesync.schema.json");
    expect(resolve(outputDir, schemaReference(outputDir, location)!)).toBe(installedIn(join(root, "other")));
  });

  it("runs from another project's node_modules: no modeline, unless the repository holds its own copy", () => {
    const root = tree(["site/.git/HEAD", "site/package.json", "site/infra/.keep", installedIn("other")]);
    const running = installedIn(join(root, "other"));
    const outputDir = join(root, "site", "infra");
    expect(schemaReference(outputDir, schemaLocation(outputDir, running))).toBeUndefined();
    mkdirSync(join(root, "site", "node_modules", "sitesync", "schemas"), { recursive: true });
    writeFileSync(installedIn(join(root, "site")), "{}");
    expect(schemaReference(outputDir, schemaLocation(outputDir, running))).toBe("../node_modules/sitesync/schemas/sitesync.schema.json");
  });

  it("takes the nearest package.json as the project outside any repository", () => {
    const root = tree(["app/package.json", installedIn("app"), "app/infra/.keep"]);
    const outputDir = join(root, "app", "infra");
    const location = schemaLocation(outputDir, installedIn(join(root, "app")));
    expect(location.projectRoot).toBe(join(root, "app"));
    expect(schemaReference(outputDir, location)).toBe("../node_modules/sitesync/schemas/sitesync.schema.json");
  });
});
