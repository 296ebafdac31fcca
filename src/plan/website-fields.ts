/**
 * Which fields a website change sends (DESIGN §2, §3): every set field plus explicit defaults on create; on
 * update only the comparable fields that differ, and write-only fields when they must be sent.
 */
import type { DesiredWebsite, LiveWebsite, Privacy, WebsiteFields } from "../model/website.ts";
import { SENSITIVE, type FieldChange, type FieldName, type FieldValue, type WriteOnlyReason } from "./types.ts";

/** The order fields appear in a change, whatever order the config wrote them in. */
export const FIELD_ORDER = [
  "privacy",
  "password",
  "email",
  "exclude_bots",
  "exclude_params",
  "exclude_ips",
  "favorite",
] as const satisfies readonly FieldName[];

/**
 * Sent on create when the config leaves them unset: the API stores an omitted privacy or email as null
 * (API-NOTES §2.4), and the documented defaults are 0, 0 and 1 (DESIGN §2).
 */
const CREATE_DEFAULTS = { privacy: 0, email: 0, exclude_bots: 1 } as const satisfies WebsiteFields;

const WRITE_ONLY: ReadonlySet<FieldName> = new Set(["password", "exclude_params"]);

/** Every value a create sends, in `FIELD_ORDER`. */
export function createFields(desired: DesiredWebsite): FieldChange[] {
  const withDefaults: WebsiteFields = { ...CREATE_DEFAULTS, ...definedFields(desired) };
  const fields: FieldChange[] = [];
  for (const field of FIELD_ORDER) {
    const value = withDefaults[field];
    if (value === undefined) continue;
    const change: FieldChange = { field, before: null, after: shown(field, value) };
    if (field === "password") change.sensitive = true;
    if (WRITE_ONLY.has(field)) change.writeOnly = true;
    fields.push(change);
  }
  return fields;
}

export interface UpdateDiff {
  /** The fields to send, in `FIELD_ORDER`; empty when the website is unchanged. */
  fields: FieldChange[];
  /** The config asks for privacy password, the password must be sent, and the config gives none. */
  passwordMissing: boolean;
}

/**
 * The fields of an update. Only fields the config sets are compared (unset = unmanaged); `exclude_ips` is a
 * set; write-only fields are never compared, only sent when a reason says so (`passwordReason`) or with
 * `syncWriteOnly`.
 */
export function updateFields(desired: DesiredWebsite, live: LiveWebsite, syncWriteOnly: boolean): UpdateDiff {
  const fields: FieldChange[] = [];
  if (desired.privacy !== undefined && desired.privacy !== live.privacy) {
    fields.push({ field: "privacy", before: live.privacy, after: desired.privacy });
  }
  const reason = passwordReason(desired, live, syncWriteOnly);
  if (reason !== undefined && desired.password !== undefined) {
    const after = SENSITIVE;
    fields.push({ field: "password", before: null, after, sensitive: true, writeOnly: true, sentBecause: reason });
  }
  for (const field of ["email", "exclude_bots"] as const) {
    const after = desired[field];
    if (after !== undefined && after !== live[field]) fields.push({ field, before: live[field], after });
  }
  if (syncWriteOnly && desired.exclude_params !== undefined) {
    const after = [...desired.exclude_params];
    fields.push({ field: "exclude_params", before: null, after, writeOnly: true, sentBecause: "sync-write-only" });
  }
  if (desired.exclude_ips !== undefined && !sameSet(desired.exclude_ips, live.exclude_ips)) {
    fields.push({ field: "exclude_ips", before: [...live.exclude_ips], after: [...desired.exclude_ips] });
  }
  if (desired.favorite !== undefined && desired.favorite !== live.favorite) {
    fields.push({ field: "favorite", before: live.favorite, after: desired.favorite });
  }
  const mustSend = reason === "privacy-change" || reason === "no-password";
  return { fields, passwordMissing: desired.privacy === 2 && mustSend && desired.password === undefined };
}

/**
 * Why the password must be sent, if it must. The stored password is never returned, but whether one is
 * stored is (`password: true|false`, API-NOTES §2.1): a password-protected site without one is observable.
 */
function passwordReason(desired: DesiredWebsite, live: LiveWebsite, syncWriteOnly: boolean): WriteOnlyReason | undefined {
  if (desired.privacy === 2 && live.privacy !== 2) return "privacy-change";
  if ((desired.privacy ?? live.privacy) === 2 && !live.password) return "no-password";
  return syncWriteOnly ? "sync-write-only" : undefined;
}

/** `exclude_ips` is stored one entry per line and matched as a set: order and duplicates mean nothing (DESIGN §4). */
function sameSet(a: readonly string[], b: readonly string[]): boolean {
  if (a.length === b.length && a.every((entry, i) => entry === b[i])) return true;
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((entry) => right.has(entry));
}

function definedFields(desired: DesiredWebsite): WebsiteFields {
  const fields: WebsiteFields = {};
  for (const field of FIELD_ORDER) {
    if (desired[field] !== undefined) Object.assign(fields, { [field]: desired[field] });
  }
  return fields;
}

function shown(field: FieldName, value: Privacy | number | boolean | string | string[]): FieldValue {
  if (field === "password") return SENSITIVE;
  return Array.isArray(value) ? [...value] : value;
}
