/**
 * Which fields a website change sends (DESIGN §2, §3): every set field plus the create defaults on create;
 * on update only the readable fields that differ, and write-only fields when they must be sent. Every loop
 * runs over `WEBSITE_FIELDS`, in its order, whatever order the config wrote the fields in.
 */
import type { DesiredWebsite, LiveWebsite } from "../model/website.ts";
import {
  CREATE_DEFAULTS,
  FIELD_NAMES,
  type FieldName,
  type ReadableField,
  WEBSITE_FIELDS,
  type WebsiteFields,
} from "../model/website-fields.ts";
import { type FieldChange, type FieldValue, SENSITIVE, type WriteOnlyReason } from "./types.ts";

type Value = NonNullable<WebsiteFields[FieldName]>;

/** Every value a create sends. */
export function createFields(desired: DesiredWebsite): FieldChange[] {
  const fields: FieldChange[] = [];
  for (const field of FIELD_NAMES) {
    const value = desired[field] ?? CREATE_DEFAULTS[field];
    if (value !== undefined) fields.push(sent(field, value));
  }
  return fields;
}

export interface UpdateDiff {
  /** The fields to send; empty when the website is unchanged. */
  fields: FieldChange[];
  /**
   * The config asks for privacy password without a password, and one must be sent: privacy becomes password
   * on a site with none stored, or `--sync-write-only`. `plan` reports it as a `password-missing` warning; a run refuses it (DESIGN §2).
   */
  passwordMissing: boolean;
}

/**
 * The fields of an update. Only fields the config sets are compared (unset = unmanaged); a `set` field is
 * compared as a set; write-only fields are never compared, only sent when a reason says so
 * (`passwordReason`) or with `syncWriteOnly`.
 */
export function updateFields(desired: DesiredWebsite, live: LiveWebsite, syncWriteOnly: boolean): UpdateDiff {
  const reason = passwordReason(desired, live, syncWriteOnly);
  const fields: FieldChange[] = [];
  for (const field of FIELD_NAMES) {
    const after = desired[field];
    if (after === undefined) continue;
    if (!WEBSITE_FIELDS[field].writeOnly) {
      const change = compared(field as ReadableField, after, live);
      if (change !== undefined) fields.push(change);
      continue;
    }
    const because = field === "password" ? reason : syncWriteOnly ? "sync-write-only" : undefined;
    if (because !== undefined) fields.push({ ...sent(field, after), sentBecause: because });
  }
  return { fields, passwordMissing: passwordMissing(desired, live, syncWriteOnly) };
}

/**
 * `privacy: password` without a password keeps the stored one (DESIGN §2). One must be sent only where
 * privacy becomes password on a site with none stored (`password: false` live: API-NOTES §2.1), or with
 * `--sync-write-only`; a create is checked by its caller. A site already protected without a stored
 * password is left as the account has it: nothing about it changes.
 */
function passwordMissing(desired: DesiredWebsite, live: LiveWebsite, syncWriteOnly: boolean): boolean {
  if (desired.privacy !== 2 || desired.password !== undefined) return false;
  return syncWriteOnly || (live.privacy !== 2 && !live.password);
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

/** A readable field that differs from its live value, before → after; `undefined` when it matches. */
function compared(field: ReadableField, after: Value, live: LiveWebsite): FieldChange | undefined {
  const before = live[field];
  return same(field, after, before) ? undefined : { field, before: shown(field, before), after: shown(field, after) };
}

/** A value sent without comparing it: every field of a create, a write-only field of an update. */
function sent(field: FieldName, value: Value): FieldChange {
  const { sensitive, writeOnly } = WEBSITE_FIELDS[field];
  const change: FieldChange = { field, before: null, after: shown(field, value) };
  if (sensitive) change.sensitive = true;
  if (writeOnly) change.writeOnly = true;
  return change;
}

/** A `set` field (`exclude_ips`) is stored one entry per line and matched as a set: order and duplicates mean nothing (DESIGN §4). */
function same(field: ReadableField, a: Value, b: Value): boolean {
  if (!Array.isArray(a) || !Array.isArray(b)) return a === b;
  if (a.length === b.length && a.every((entry, i) => entry === b[i])) return true;
  if (WEBSITE_FIELDS[field].kind !== "set") return false;
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((entry) => right.has(entry));
}

/** The value as the plan holds it: a secret as `SENSITIVE`, a list copied. */
function shown(field: FieldName, value: Value): FieldValue {
  if (WEBSITE_FIELDS[field].sensitive) return SENSITIVE;
  return Array.isArray(value) ? [...value] : value;
}
