/**
 * Which fields a website change sends (DESIGN §2, §3): every set field plus the create defaults on create;
 * on update only the readable fields that differ, and write-only fields when they must be sent. Every loop
 * runs over `WEBSITE_FIELDS`, in its order, whatever order the config wrote the fields in.
 */

import type { WriteOnlySend } from "../model/config-change.ts";
import type { DesiredWebsite, LiveWebsite } from "../model/website.ts";
import {
  CREATE_DEFAULTS,
  FIELD_NAMES,
  type FieldName,
  type ReadableField,
  sameValue,
  WEBSITE_FIELDS,
  type WebsiteFields,
  type WriteOnlyField,
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

/** What decides whether a write-only value is sent, besides the live website. */
export interface WriteOnlyInputs {
  /** `--sync-write-only`: send every write-only value the config sets. */
  sync: boolean;
  /**
   * A known change: the base revision, the write-only values it still sends this website, and `resend` when
   * the website was written since the commit the config now is (they were sent already: `liveSends`).
   */
  change?: { ref: string; sends: readonly WriteOnlySend[]; resend?: { commit: string } };
}

export interface UpdateDiff {
  /** The fields to send; empty when the website is unchanged. */
  fields: FieldChange[];
  /**
   * A password must be sent but the config sets none: privacy becomes password on a site with none stored
   * (`privacy`), or the change rotates it (`rotated`). `plan` flags the change with it; `apply` refuses that
   * change (DESIGN §2).
   */
  passwordMissing: "privacy" | "rotated" | undefined;
}

/** Each field and whether it is write-only, in the table's order. */
const UPDATE_FIELDS = FIELD_NAMES.map((field) => ({ field, writeOnly: WEBSITE_FIELDS[field].writeOnly }));

/**
 * The fields of an update. Only fields the config sets are compared (unset = unmanaged); a `set` field is
 * compared as a set; write-only fields are never compared, only sent when a reason says so (`sendReason`).
 */
export function updateFields(desired: DesiredWebsite, live: LiveWebsite, writeOnly: WriteOnlyInputs): UpdateDiff {
  const fields: FieldChange[] = [];
  // An index over a table made once: written `for (const field of FIELD_NAMES)` with the table looked up
  // inside, this function (run once per website) cost V8 about 25 ms to optimize, and the plan's loop 30 ms
  // more (measured with --trace-opt on a plan of 100,000); this way about 3 and 6.
  for (let i = 0; i < UPDATE_FIELDS.length; i++) {
    const { field, writeOnly: isWriteOnly } = UPDATE_FIELDS[i] as (typeof UPDATE_FIELDS)[number];
    const after = desired[field];
    if (after === undefined) continue;
    if (!isWriteOnly) {
      const change = compared(field as ReadableField, after, live);
      if (change !== undefined) fields.push(change);
      continue;
    }
    const because = sendReason(field as WriteOnlyField, desired, live, writeOnly);
    if (because !== undefined) fields.push({ ...sent(field, after), ...because });
  }
  return { fields, passwordMissing: passwordMissing(desired, live, writeOnly) };
}

/**
 * `privacy: password` without a password keeps the stored one (DESIGN §2), `--sync-write-only` included:
 * it sends what the config sets. One must be sent only where privacy becomes password on a site with none
 * stored (`password: false` live: API-NOTES §2.1), or where the change rotates it (`password_version`); a
 * create is checked by its caller. A site already protected without a stored password is left as it is.
 */
function passwordMissing(desired: DesiredWebsite, live: LiveWebsite, writeOnly: WriteOnlyInputs): UpdateDiff["passwordMissing"] {
  if (desired.password !== undefined) return undefined;
  if (writeOnly.change?.sends.some((s) => s.field === "password" && s.edit === "rotated")) return "rotated";
  return desired.privacy === 2 && live.privacy !== 2 && !live.password ? "privacy" : undefined;
}

/**
 * Why a write-only value must be sent, if it must, the first reason that holds. The stored password is
 * never returned, but whether one is stored is (`password: true|false`, API-NOTES §2.1): a
 * password-protected site without one is observable. Then the change's edits, then `--sync-write-only`.
 */
function sendReason(
  field: WriteOnlyField,
  desired: DesiredWebsite,
  live: LiveWebsite,
  writeOnly: WriteOnlyInputs,
): Pick<FieldChange, "sentBecause" | "changedSince"> | undefined {
  if (field === "password" && desired.privacy === 2 && live.privacy !== 2) return { sentBecause: "privacy-change" };
  if (field === "password" && (desired.privacy ?? live.privacy) === 2 && !live.password) return { sentBecause: "no-password" };
  const edit = writeOnly.change?.sends.find((s) => s.field === field);
  if (edit && writeOnly.change) {
    const { ref, resend } = writeOnly.change;
    return { changedSince: { ref, edit: edit.edit, ...(resend ? { resend: { ...resend } } : {}) } };
  }
  return writeOnly.sync ? { sentBecause: "sync-write-only" satisfies WriteOnlyReason } : undefined;
}

/** A readable field that differs from its live value, before → after; `undefined` when it matches. */
function compared(field: ReadableField, after: Value, live: LiveWebsite): FieldChange | undefined {
  const before = live[field];
  return sameValue(field, after, before) ? undefined : { field, before: shown(field, before), after: shown(field, after) };
}

/** A value sent without comparing it: every field of a create, a write-only field of an update. */
function sent(field: FieldName, value: Value): FieldChange {
  const { sensitive, writeOnly } = WEBSITE_FIELDS[field];
  const change: FieldChange = { field, before: null, after: shown(field, value) };
  if (sensitive) change.sensitive = true;
  if (writeOnly) change.writeOnly = true;
  return change;
}

/** The value as the plan holds it: a secret as `SENSITIVE`, a list copied. */
function shown(field: FieldName, value: Value): FieldValue {
  if (WEBSITE_FIELDS[field].sensitive) return SENSITIVE;
  return Array.isArray(value) ? [...value] : value;
}
