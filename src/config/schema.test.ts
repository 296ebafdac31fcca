import { readdirSync, readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import schema from "../../schemas/sitesync.schema.json" with { type: "json" };
import { diagnosticsOf } from "../../test/helpers/config.ts";
import { loadConfig } from "./load.ts";
import { describeEnum } from "./schema-messages.ts";

const examples = new URL("../../examples/", import.meta.url);
const exampleFiles = readdirSync(examples, { recursive: true, encoding: "utf8" }).filter(
  (f) => /\.ya?ml$/.test(f) && !f.startsWith("workflows/"),
); // workflows are GitHub files, not configs
const exampleEnv = { EXAMPLE_STATS_PASSWORD: "example-password" };

/** Every subschema of the schema, with where it sits. */
function* subschemas(node: unknown, at = "#"): Generator<[string, Record<string, unknown>]> {
  if (typeof node !== "object" || node === null) return;
  if (Array.isArray(node)) return;
  const record = node as Record<string, unknown>;
  yield [at, record];
  for (const key of ["properties", "$defs"]) {
    for (const [name, child] of Object.entries((record[key] as Record<string, unknown> | undefined) ?? {})) {
      yield* subschemas(child, `${at}/${key}/${name}`);
    }
  }
  if (record.items) yield* subschemas(record.items, `${at}/items`);
}

describe("the JSON Schema", () => {
  it("is a valid 2020-12 schema that compiles under ajv's strict mode", async () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
    expect(ajv.validateSchema(schema)).toBe(true);
    expect(() => ajv.compile(schema)).not.toThrow();
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema.$id).toBeTruthy();
  });

  it("refuses unknown keys in every mapping", async () => {
    // A map of names (accounts) checks every value against its own closed schema instead.
    const open = [...subschemas(schema)].filter(
      ([, s]) => s.type === "object" && s.additionalProperties !== false && typeof s.additionalProperties !== "object",
    );
    expect(open.map(([at]) => at)).toEqual([]);
  });

  it("describes every key, so that editors can explain it", async () => {
    const defs = schema.$defs as Record<string, Record<string, unknown>>;
    const undescribed = [...subschemas(schema)]
      .filter(([at]) => /\/properties\/[^/]+$/.test(at))
      .filter(([, s]) => !s.description && !defs[String(s.$ref).replace("#/$defs/", "")]?.description);
    expect(undescribed.map(([at]) => at)).toEqual([]);
  });

  it.each(exampleFiles)("accepts examples/%s as an editor would (before interpolation)", async (name) => {
    const validate = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true }).compile(schema);
    const data: unknown = parse(readFileSync(new URL(name, examples), "utf8"));
    expect(validate(data), JSON.stringify(validate.errors)).toBe(true);
  });

  it.each(exampleFiles)("loads examples/%s without errors or warnings", async (name) => {
    const result = await loadConfig(new URL(name, examples).pathname, { env: exampleEnv });
    expect(diagnosticsOf(result)).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it("has an example that shows every key of the format", async () => {
    const text = readFileSync(new URL("sitesync.yaml", examples), "utf8");
    const keys = new Set([...subschemas(schema)].map(([at]) => /\/properties\/([^/]+)$/.exec(at)?.[1]).filter(Boolean));
    // The API addresses come from flags or env in the example; they are shown in a comment.
    const missing = [...keys].filter((key) => !new RegExp(`^\\s*(- )?#?\\s*${key}:`, "m").test(text));
    expect(missing).toEqual([]);
    expect(text).toMatch(/^# yaml-language-server: \$schema=\.\.\/schemas\/sitesync\.schema\.json$/m);
  });
});

describe("describeEnum", () => {
  it("names the words, then the numbers that are also accepted", async () => {
    expect(describeEnum(["public", "private", "password", 0, 1, 2])).toBe("must be one of public, private, password (or 0, 1, 2)");
    expect(describeEnum([true, false, 0, 1])).toBe("must be true or false (or 0, 1)");
    expect(describeEnum(["present", "absent"])).toBe("must be present or absent");
  });
});
