import { describe, expect, it } from "vitest";
import planSchema from "../../schemas/plan.schema.json" with { type: "json" };
import configSchema from "../../schemas/sitesync.schema.json" with { type: "json" };
import { CREATE_DEFAULTS, FIELD_NAMES, READABLE_FIELDS, WEBSITE_FIELDS, WRITE_ONLY_FIELDS } from "./website-fields.ts";

const yamlNames = FIELD_NAMES.map((field) => WEBSITE_FIELDS[field].yaml);

describe("WEBSITE_FIELDS", () => {
  it("derives the documented facts: field order, write-only fields and create defaults (DESIGN §2, §3)", () => {
    expect(FIELD_NAMES).toEqual(["privacy", "password", "email", "exclude_bots", "exclude_params", "exclude_ips", "favorite"]);
    expect(WRITE_ONLY_FIELDS).toEqual(["password", "exclude_params"]);
    expect(READABLE_FIELDS).toEqual(["privacy", "email", "exclude_bots", "exclude_ips", "favorite"]);
    expect(CREATE_DEFAULTS).toEqual({ privacy: 0, email: 0, exclude_bots: 1 });
  });

  it("is what the committed config schema accepts on a website and under defaults", () => {
    // password_version is the config's own rotation marker, not a field of the API: a website key, not a row.
    expect(Object.keys(configSchema.$defs.website.properties)).toEqual(["domain", "state", ...yamlNames, "password_version"]);
    expect(Object.keys(configSchema.properties.defaults.properties)).toEqual(yamlNames);
  });

  it("is what the committed plan schema accepts in a change and as unverifiable", () => {
    const { fieldChange } = planSchema.$defs;
    expect(fieldChange.properties.field.enum).toEqual(FIELD_NAMES);
    expect(planSchema.properties.unverifiable.items.properties.field.enum).toEqual(WRITE_ONLY_FIELDS);
  });
});
