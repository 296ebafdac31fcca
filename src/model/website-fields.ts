/**
 * The website fields a config can manage: one table that normalize, the plan's diff, the API encoding,
 * `apply` and the schema messages loop over (STYLE habit 12). Adding a field means one row here plus its
 * API encoding.
 */

/** 0 = public, 1 = private, 2 = password (API-NOTES §2.4). */
export type Privacy = 0 | 1 | 2;

export const PRIVACY_NAMES = ["public", "private", "password"] as const satisfies readonly string[];
export type PrivacyName = (typeof PRIVACY_NAMES)[number];

/** The canonical value of each kind of field. */
interface KindValues {
  /** Written `public`/`private`/`password` (or 0–2). */
  privacy: Privacy;
  /** An integer written `true`/`false` (or 1/0) in the config. */
  flag: number;
  boolean: boolean;
  /** Text kept exactly as written, never trimmed (the API keeps a password's spaces: API-NOTES §1). */
  secret: string;
  /** Trimmed entries, in config order. */
  list: string[];
  /** A list stored one entry per line and compared as a set: order and duplicates mean nothing (DESIGN §4). */
  set: string[];
}

export type FieldKind = keyof KindValues;

export interface FieldSpec {
  kind: FieldKind;
  /** Sent on create when the config leaves the field unset. */
  createDefault?: number;
  /** The API accepts the field but never returns it (DESIGN §3): it is sent, never compared. */
  writeOnly: boolean;
  /** A secret: the plan and every output show `(sensitive)` instead (DESIGN §3). */
  sensitive: boolean;
  /** The key in `sitesync.yaml` (on a website entry and under `defaults`). */
  yaml: string;
  /** The form field of POST/PUT and the member of the API's website object. */
  api: string;
}

/**
 * In the order fields appear in a change and a request, whatever order the config wrote them in. Create
 * defaults: the API stores an omitted privacy or email as null (API-NOTES §2.4); the documented defaults
 * are 0, 0 and 1 (DESIGN §2).
 */
export const WEBSITE_FIELDS = {
  privacy: { kind: "privacy", createDefault: 0, writeOnly: false, sensitive: false, yaml: "privacy", api: "privacy" },
  // The API returns only whether one is stored (`password: true|false`, API-NOTES §2.1).
  password: { kind: "secret", writeOnly: true, sensitive: true, yaml: "password", api: "password" },
  // Periodic email reports. The API has no range check (API-NOTES §2.4), so any integer may come back.
  email: { kind: "flag", createDefault: 0, writeOnly: false, sensitive: false, yaml: "email", api: "email" },
  exclude_bots: { kind: "flag", createDefault: 1, writeOnly: false, sensitive: false, yaml: "exclude_bots", api: "exclude_bots" },
  // Accepted and stored, never returned (API-NOTES §2.1). `&` alone drops all parameters.
  exclude_params: { kind: "list", writeOnly: true, sensitive: false, yaml: "exclude_params", api: "exclude_params" },
  exclude_ips: { kind: "set", writeOnly: false, sensitive: false, yaml: "exclude_ips", api: "exclude_ips" },
  // Only settable by PUT (DESIGN §4).
  favorite: { kind: "boolean", writeOnly: false, sensitive: false, yaml: "favorite", api: "favorite" },
} as const satisfies Record<string, FieldSpec>;

type Table = typeof WEBSITE_FIELDS;
export type FieldName = keyof Table;
export type FieldValueOf<F extends FieldName> = KindValues[Table[F]["kind"]];
export type WriteOnlyField = { [F in FieldName]: Table[F]["writeOnly"] extends true ? F : never }[FieldName];
/** The fields the API returns, which `plan` compares. */
export type ReadableField = Exclude<FieldName, WriteOnlyField>;

/** The fields a config can manage on a website, in canonical types. Absent means unmanaged. */
export type WebsiteFields = { [F in FieldName]?: FieldValueOf<F> };

/** The managed fields as the API returns them, in canonical types. */
export type ReadableFields = { [F in ReadableField]: FieldValueOf<F> };

export const FIELD_NAMES = Object.keys(WEBSITE_FIELDS) as FieldName[];

export const WRITE_ONLY_FIELDS = FIELD_NAMES.filter((f): f is WriteOnlyField => WEBSITE_FIELDS[f].writeOnly);

export const READABLE_FIELDS = FIELD_NAMES.filter((f): f is ReadableField => !WEBSITE_FIELDS[f].writeOnly);

/** What a create sends for a field the config leaves unset. */
export const CREATE_DEFAULTS: WebsiteFields = Object.fromEntries(
  FIELD_NAMES.flatMap((f) => {
    const spec: FieldSpec = WEBSITE_FIELDS[f];
    return spec.createDefault === undefined ? [] : [[f, spec.createDefault]];
  }),
);

/** Sets one field; the table's loops lose the link between a name and its value type, this keeps it in one place. */
export function setField<F extends FieldName>(fields: WebsiteFields, field: F, value: FieldValueOf<F>): void {
  (fields as Record<F, FieldValueOf<F>>)[field] = value;
}

/**
 * Whether two canonical values of a field are the same: a `set` field (`exclude_ips`) is stored one entry per
 * line and matched as a set, so order and duplicates mean nothing (DESIGN §4); a `list` keeps its order.
 */
export function sameValue(field: FieldName, a: WebsiteFields[FieldName], b: WebsiteFields[FieldName]): boolean {
  if (!Array.isArray(a) || !Array.isArray(b)) return a === b;
  if (a.length === b.length && a.every((entry, i) => entry === b[i])) return true;
  if (WEBSITE_FIELDS[field].kind !== "set") return false;
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((entry) => right.has(entry));
}
