import { DEFAULT_POLICY, type Policy } from "../model/policy.ts";
import type { DesiredProject } from "../model/project.ts";
import { type DesiredWebsite, normalizeDomain } from "../model/website.ts";
import {
  FIELD_NAMES,
  type FieldKind,
  type FieldName,
  PRIVACY_NAMES,
  type Privacy,
  setField,
  WEBSITE_FIELDS,
  type WebsiteFields,
} from "../model/website-fields.ts";
import { type ConfigPath, isRecord, type Locator } from "./locate.ts";

/** One `websites` entry: what was written beside its canonical, defaults-applied form. */
export interface WebsiteEntry {
  path: ConfigPath;
  raw: Record<string, unknown>;
  /** The domain as written (after interpolation). */
  written: string;
  site: DesiredWebsite;
  /** Fields the site got from `defaults` rather than setting them itself. */
  fromDefaults: ReadonlySet<FieldName>;
}

interface ProjectEntry {
  path: ConfigPath;
  raw: Record<string, unknown>;
  project: DesiredProject;
}

export interface Normalized {
  websitesUrl?: string;
  projectsUrl?: string;
  policy: Policy;
  defaults: WebsiteFields;
  websites: WebsiteEntry[];
  projects?: ProjectEntry[];
}

/**
 * Turns the parsed config into canonical values (DESIGN §2, §4). It runs even when the schema found errors,
 * so that the semantic rules can report in the same run; a value of the wrong type is then left out.
 */
export function normalize(data: unknown, file: string, locate: Locator): Normalized {
  const root = isRecord(data) ? data : {};
  const defaults = isRecord(root.defaults) ? readFields(root.defaults, {}) : {};
  const normalized: Normalized = {
    policy: readPolicy(root.policy),
    defaults,
    websites: readWebsites(root.websites, defaults, file, locate),
  };
  if (typeof root.websites_url === "string") normalized.websitesUrl = root.websites_url;
  if (typeof root.projects_url === "string") normalized.projectsUrl = root.projects_url;
  if (root.projects !== undefined) {
    normalized.projects = records(root.projects).flatMap(([raw, index]) => {
      if (typeof raw.project !== "string") return [];
      const path = ["projects", index];
      const project: DesiredProject = { project: raw.project.trim(), state: raw.state === "absent" ? "absent" : "present" };
      project.source = { file, ...locate.value([...path, "project"]) };
      return [{ path, raw, project }];
    });
  }
  return normalized;
}

/** One loop, no copy per entry: an export of 100,000 websites is normalized on every load (DESIGN §8). */
function readWebsites(list: unknown, defaults: WebsiteFields, file: string, locate: Locator): WebsiteEntry[] {
  const entries: WebsiteEntry[] = [];
  if (!Array.isArray(list)) return entries;
  const given = { fields: defaults, names: Object.keys(defaults) as FieldName[] };
  for (let index = 0; index < list.length; index++) {
    const raw: unknown = list[index];
    if (!isRecord(raw)) continue;
    const entry = readWebsite(raw, ["websites", index], given);
    if (entry === undefined) continue;
    const at = locate.value(["websites", index, "domain"]);
    entry.site.source = { file, line: at.line, column: at.column };
    entries.push(entry);
  }
  return entries;
}

function records(list: unknown): [Record<string, unknown>, number][] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((item, index) => (isRecord(item) ? [[item, index] as [Record<string, unknown>, number]] : []));
}

export function readPolicy(value: unknown): Policy {
  const raw = isRecord(value) ? value : {};
  const maxDeletes = raw.max_deletes;
  return {
    prune: typeof raw.prune === "boolean" ? raw.prune : DEFAULT_POLICY.prune,
    maxDeletes: Number.isInteger(maxDeletes) && (maxDeletes as number) >= 0 ? (maxDeletes as number) : DEFAULT_POLICY.maxDeletes,
    protect: readList(raw.protect) ?? [...DEFAULT_POLICY.protect],
    ignore: readList(raw.ignore) ?? [...DEFAULT_POLICY.ignore],
  };
}

/**
 * Tombstones get no defaults. `defaults.password` only reaches websites whose privacy is `password`: sending
 * a password to a public site would store it unused (API-NOTES §2.4).
 */
function readWebsite(
  raw: Record<string, unknown>,
  path: ConfigPath,
  given: { fields: WebsiteFields; names: readonly FieldName[] },
): WebsiteEntry | undefined {
  if (typeof raw.domain !== "string") return undefined;
  const domain = normalizeDomain(raw.domain);
  if (raw.state === "absent") {
    return { path, raw, written: raw.domain, site: { domain, state: "absent" }, fromDefaults: NONE };
  }
  const site = readFields<DesiredWebsite>(raw, { domain, state: "present" });
  const { fields: defaults, names } = given;
  // One empty set for the websites that take nothing from defaults (an export's: DESIGN §8's loading cost).
  const fromDefaults = names.length === 0 ? NONE : new Set<FieldName>();
  const version = raw.password_version;
  if (typeof version === "string" || (typeof version === "number" && Number.isFinite(version))) site.passwordVersion = String(version);
  for (const field of names) {
    // Only the entry's own fields are set at this point: each field is looked at once.
    if (site[field] !== undefined || field === "password") continue;
    Object.assign(site, { [field]: copy(defaults[field]) });
    (fromDefaults as Set<FieldName>).add(field);
  }
  if (site.privacy === 2 && site.password === undefined && defaults.password !== undefined) {
    site.password = defaults.password;
    (fromDefaults as Set<FieldName>).add("password");
  }
  return { path, raw, written: raw.domain, site, fromDefaults };
}

const NONE: ReadonlySet<FieldName> = new Set();

function copy<T>(value: T): T {
  return Array.isArray(value) ? ([...value] as T) : value;
}

/** Reads a config value of each kind of field; `undefined` when the value has the wrong type. */
const READERS = {
  privacy: readPrivacy,
  flag: readBit,
  boolean: (value) => (typeof value === "boolean" ? value : undefined),
  // Never trimmed: the API keeps a password's spaces (TrimStrings skips it, API-NOTES §1).
  secret: (value) => (typeof value === "string" ? value : undefined),
  list: readList,
  set: readList,
} satisfies Record<FieldKind, (value: unknown) => unknown>;

/** Each field with its YAML key and its reader, looked up once rather than per website. */
const READS = FIELD_NAMES.map((field) => {
  const { kind, yaml } = WEBSITE_FIELDS[field];
  return { field, yaml, read: READERS[kind] as (value: unknown) => unknown };
});

/**
 * The website fields of a mapping, canonical (privacy 0–2, flags 0–1), set on `into`; wrong types left out.
 * By index over a table made once: an export of 100,000 websites is read on every load (DESIGN §8).
 */
function readFields<T extends WebsiteFields>(raw: Record<string, unknown>, into: T): T {
  for (let i = 0; i < READS.length; i++) {
    const { field, yaml, read } = READS[i] as (typeof READS)[number];
    const written = raw[yaml];
    if (written === undefined) continue;
    const value = read(written);
    if (value !== undefined) setField(into, field, value as NonNullable<WebsiteFields[FieldName]>);
  }
  return into;
}

function readPrivacy(value: unknown): Privacy | undefined {
  if (value === 0 || value === 1 || value === 2) return value;
  const index = PRIVACY_NAMES.indexOf(value as (typeof PRIVACY_NAMES)[number]);
  return index === -1 ? undefined : (index as Privacy);
}

function readBit(value: unknown): number | undefined {
  if (value === true || value === 1) return 1;
  if (value === false || value === 0) return 0;
  return undefined;
}

/** A list of trimmed, non-empty strings; `undefined` when the value is not a list. */
function readList(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const list: string[] = [];
  for (const item of value) {
    const trimmed = typeof item === "string" ? item.trim() : "";
    if (trimmed !== "") list.push(trimmed);
  }
  return list;
}
