/**
 * The validators of the committed JSON Schemas: a config file's two shapes (the root and an included file) and
 * a saved plan's. In a checkout ajv compiles them on first use. The package build replaces this module with
 * ajv's standalone code of the same validators (scripts/standalone-validators.ts), so an installed sitesync
 * neither loads ajv's compiler nor compiles a schema when it starts: about 100 ms less CPU for every command
 * (DESIGN §8; ajv's own advice for start-up time). A test holds the two to the same errors on every fixture.
 */
import { Ajv2020, type Options, type ValidateFunction } from "ajv/dist/2020.js";
import planSchema from "../../schemas/plan.schema.json" with { type: "json" };
import configSchema from "../../schemas/sitesync.schema.json" with { type: "json" };

/**
 * Each set of validators: ajv's options, its schema, and the validators by name (the `$ref` each compiles).
 * @internal The build (scripts/standalone-validators.ts) and its test compile the same sets.
 */
export const SCHEMA_SETS = {
  config: {
    // verbose: the messages need the offending data and the parent schema (allowed keys for did-you-mean).
    // allowUnionTypes: `password_version` is text or a number (DESIGN §2).
    // validateSchema: false: the committed schema is checked against the 2020-12 meta-schema by schema.test.ts.
    options: { allErrors: true, verbose: true, strict: true, allowUnionTypes: true, validateSchema: false },
    schema: configSchema,
    // A website and a project alone: a long list is validated item by item (schema.ts).
    refs: {
      root: configSchema.$id,
      included: `${configSchema.$id}#/$defs/includedFile`,
      website: `${configSchema.$id}#/$defs/website`,
      project: `${configSchema.$id}#/$defs/project`,
    },
  },
  plan: { options: { allErrors: true }, schema: planSchema, refs: { plan: planSchema.$id } },
} as const satisfies Record<string, { options: Options; schema: object; refs: Record<string, string> }>;

/** The config's validators: of the root file's shape, an included file's, and one website's or project's. */
type ConfigValidators = Record<keyof typeof SCHEMA_SETS.config.refs, ValidateFunction>;

let config: ConfigValidators | undefined;
let plan: ValidateFunction | undefined;

/** The config's validators, each compiled on first use. */
export function configValidators(): ConfigValidators {
  if (config === undefined) {
    const ajv = compilerOf("config");
    const { refs } = SCHEMA_SETS.config;
    config = {
      root: compiled(ajv, refs.root),
      included: compiled(ajv, refs.included),
      website: compiled(ajv, refs.website),
      project: compiled(ajv, refs.project),
    };
  }
  return config;
}

/** The validator of a plan saved by `plan --out`. */
export function planValidator(): ValidateFunction {
  plan ??= compiled(compilerOf("plan"), SCHEMA_SETS.plan.refs.plan);
  return plan;
}

/**
 * An ajv holding one set's schema, with the options its standalone code is generated with.
 * @internal Shared with the build.
 */
export function compilerOf(set: keyof typeof SCHEMA_SETS): Ajv2020 {
  const { options, schema } = SCHEMA_SETS[set];
  return new Ajv2020({ ...options, code: { source: true } }).addSchema(schema);
}

function compiled(ajv: Ajv2020, ref: string): ValidateFunction {
  const validate = ajv.getSchema(ref);
  if (validate === undefined) throw new Error(`${ref} is not in the committed schemas: this is a bug in sitesync`);
  return validate;
}
