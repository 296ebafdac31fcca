/**
 * The `$schema=` that `sitesync export` writes must resolve from where the file is written, for the user and
 * for a teammate who clones the repository when the schema belongs to that project; never a CDN address that
 * does not exist.
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { schemaReference } from "../../src/config/export-config.ts";

const version = "1.2.3";
const schemaIn = (packageRoot: string) => ({ schemaFile: join(packageRoot, "schemas", "sitesync.schema.json"), version });

describe("schemaReference", () => {
  it("points into node_modules when sitesync is a dependency of the project the file is written in", () => {
    const installed = schemaIn("/home/ana/site/node_modules/sitesync");
    expect(schemaReference("/home/ana/site", installed)).toBe("./node_modules/sitesync/schemas/sitesync.schema.json");
    expect(schemaReference("/home/ana/site/config", installed)).toBe("../node_modules/sitesync/schemas/sitesync.schema.json");
  });

  it("resolves on disk from the folder of the written file", () => {
    const project = mkdtempSync(join(tmpdir(), "sitesync-schema-ref-"));
    const schema = schemaIn(join(project, "node_modules", "sitesync"));
    mkdirSync(join(project, "node_modules", "sitesync", "schemas"), { recursive: true });
    writeFileSync(schema.schemaFile, "{}");
    const outputDir = join(project, "infra", "analytics");
    expect(existsSync(resolve(outputDir, schemaReference(outputDir, schema)))).toBe(true);
  });

  it("points at the running copy's own file for a global install or npx's cache: it resolves, unlike a CDN address", () => {
    expect(schemaReference("/home/ana/site", schemaIn("/usr/lib/node_modules/sitesync"))).toBe(
      "../../../usr/lib/node_modules/sitesync/schemas/sitesync.schema.json",
    );
    expect(schemaReference("/home/ana/site", schemaIn("/home/ana/.npm/_npx/4f2a/node_modules/sitesync"))).toBe(
      "../.npm/_npx/4f2a/node_modules/sitesync/schemas/sitesync.schema.json",
    );
  });

  it("points into a checkout of sitesync, from inside it or beside it", () => {
    const checkout = schemaIn("/src/sitesync");
    expect(schemaReference("/src/sitesync", checkout)).toBe("./schemas/sitesync.schema.json");
    expect(schemaReference("/src/sitesync/examples", checkout)).toBe("../schemas/sitesync.schema.json");
    expect(schemaReference("/src/sitesync-fork", checkout)).toBe("../sitesync/schemas/sitesync.schema.json");
  });
});
