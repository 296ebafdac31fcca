/**
 * The package's schema validators are ajv's standalone code, generated when it is built
 * (scripts/standalone-validators.ts); a checkout compiles them with ajv when it starts
 * (src/config/schema-validators.ts). Both must judge every input alike, with the same errors, or an installed
 * sitesync would word a bad config differently from the one its tests ran: each bad-config fixture, each
 * example and saved plans (valid, and broken in several ways) go through both.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { standaloneValidators } from "../../scripts/standalone-validators.ts";
import { parseFast } from "../../src/config/fast-yaml.ts";
import { configValidators, planValidator } from "../../src/config/schema-validators.ts";
import { plan } from "../../src/index.ts";
import { liveWebsite } from "../helpers/live-website.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
type Validators = { configValidators: typeof configValidators; planValidator: typeof planValidator };

let dir: string;
let built: Validators;

beforeAll(async () => {
  // Inside the checkout, so that the module's require() finds ajv's runtime helpers as the package's does.
  mkdirSync(join(ROOT, "node_modules", ".cache"), { recursive: true });
  dir = mkdtempSync(join(ROOT, "node_modules", ".cache", "sitesync-standalone-"));
  const file = join(dir, "schema-validators.js");
  writeFileSync(file, standaloneValidators());
  built = (await import(pathToFileURL(file).href)) as Validators;
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function yamlFiles(folder: string): { name: string; data: unknown }[] {
  return readdirSync(join(ROOT, folder))
    .filter((name) => name.endsWith(".yaml"))
    .map((name) => ({ name: `${folder}/${name}`, parsed: parseFast(readFileSync(join(ROOT, folder, name), "utf8")) }))
    .filter((file) => file.parsed.ok)
    .map(({ name, parsed }) => ({ name, data: (parsed as { value: unknown }).value }));
}

/** What a validator said about `data`: whether it passed, and its errors as plain data. */
function verdict(validate: ReturnType<typeof planValidator>, data: unknown): unknown {
  const valid = validate(data);
  return { valid, errors: structuredClone(validate.errors ?? null) };
}

describe("the config schema", () => {
  const files = [...yamlFiles("test/fixtures/bad"), ...yamlFiles("examples")];

  it("reads enough fixtures to mean something", () => {
    expect(files.length).toBeGreaterThan(40);
    expect(files.filter((f) => !configValidators().root(f.data)).length).toBeGreaterThan(10);
  });

  it.each(files)("$name: the same verdict and errors, as a root file and as an included file", ({ data }) => {
    for (const kind of ["root", "included"] as const) {
      expect(verdict(built.configValidators()[kind], data)).toEqual(verdict(configValidators()[kind], data));
    }
  });
});

describe("the saved-plan schema", () => {
  const saved = JSON.parse(
    JSON.stringify(
      plan(
        {
          websites: [{ domain: "new.example.com", state: "present", privacy: 1 }],
          policy: { prune: true, maxDeletes: 5, protect: [], ignore: [] },
        },
        { websites: [liveWebsite(1, "gone.example.com")] },
        { configFile: "sitesync.yaml", configDigest: "d" },
      ),
    ),
  ) as Record<string, unknown>;
  const broken: [string, unknown][] = [
    ["as saved", saved],
    ["without its version", { ...saved, version: undefined }],
    ["with changes that are not a list", { ...saved, changes: {} }],
    ["with an unknown member", { ...saved, surprise: true }],
    ["not an object", [saved]],
  ];

  it.each(broken)("a plan %s: the same verdict and errors", (_name, data) => {
    expect(verdict(built.planValidator(), data)).toEqual(verdict(planValidator(), data));
  });

  it("passes the plan as saved, and refuses a broken one", () => {
    expect(built.planValidator()(saved)).toBe(true);
    expect(built.planValidator()({ ...saved, changes: {} })).toBe(false);
  });
});
