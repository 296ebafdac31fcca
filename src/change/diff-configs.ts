/**
 * The change between the desired state at a base revision and now (DESIGN §3 "Plans that follow the
 * change"): which websites and projects it touches, which write-only values it edits, and whether it edits
 * something every website depends on. Pure: two loaded configs in, data out.
 */
import type { Config } from "../config/types.ts";
import type { ConfigChange, EditedKey, FullReadReason, TouchedProject, TouchedWebsite, WriteOnlySend } from "../model/config-change.ts";
import { type DesiredProject, projectKey } from "../model/project.ts";
import { byCodePoint } from "../model/sorted.ts";
import type { DesiredWebsite } from "../model/website.ts";
import { FIELD_NAMES, type FieldName, sameValue, type WebsiteFields, WRITE_ONLY_FIELDS } from "../model/website-fields.ts";

/** What of a loaded config the change reads. */
export type Revision = Pick<Config, "websites" | "projects" | "policy" | "defaults" | "websitesUrl" | "projectsUrl">;

/** Compares the config at `ref` (`base`) with the config now (`head`). */
export function diffConfigs(base: Revision, head: Revision, ref: string): ConfigChange {
  return {
    ref,
    websites: touchedWebsites(base.websites, head.websites),
    projects: head.projects === undefined ? [] : touchedProjects(base.projects ?? [], head.projects),
    fullRead: fullReadReasons(base, head),
  };
}

function fullReadReasons(base: Revision, head: Revision): FullReadReason[] {
  const reasons: FullReadReason[] = [];
  if (!sameFields(base.defaults, head.defaults) || base.defaults.passwordRef !== head.defaults.passwordRef) reasons.push("defaults");
  if (!sameJson(base.policy, head.policy)) reasons.push("policy");
  if (base.websitesUrl !== head.websitesUrl) reasons.push("websites-url");
  if (base.projectsUrl !== head.projectsUrl) reasons.push("projects-url");
  return reasons;
}

function touchedWebsites(base: readonly DesiredWebsite[], head: readonly DesiredWebsite[]): TouchedWebsite[] {
  const before = new Map(base.map((site) => [site.domain, site]));
  const now = new Set(head.map((site) => site.domain));
  const touched: TouchedWebsite[] = [];
  for (const site of head) {
    const old = before.get(site.domain);
    const entry = touchOf(old, site);
    if (entry) touched.push(entry);
  }
  for (const old of base) {
    if (!now.has(old.domain)) touched.push({ domain: old.domain, touch: "removed", edited: [], send: [] });
  }
  return touched.sort((a, b) => byCodePoint(a.domain, b.domain));
}

function touchOf(old: DesiredWebsite | undefined, site: DesiredWebsite): TouchedWebsite | undefined {
  if (site.state === "absent") {
    return old?.state === "absent" ? undefined : { domain: site.domain, touch: "tombstoned", edited: [], send: [] };
  }
  // New to the file (or back from a tombstone): every write-only value it sets is an edit the account has not seen.
  if (old === undefined || old.state === "absent") {
    const send = WRITE_ONLY_FIELDS.filter((field) => site[field] !== undefined).map((field) => ({ field, edit: "edited" as const }));
    return { domain: site.domain, touch: "added", edited: [], send };
  }
  const edited = editedKeys(old, site);
  return edited.length === 0 ? undefined : { domain: site.domain, touch: "changed", edited, send: sends(site, edited) };
}

function editedKeys(old: DesiredWebsite, site: DesiredWebsite): EditedKey[] {
  const edited: EditedKey[] = FIELD_NAMES.filter((field) => !sameField(field, old, site));
  if (old.passwordVersion !== site.passwordVersion) edited.push("password_version");
  return edited;
}

/**
 * `exclude_params` when it differs and the file still sets it; the password when its line differs and the
 * file still sets one (no line now keeps the account's own), or when the marker differs (a rotation: the
 * plan asks for a password when none is set).
 */
function sends(site: DesiredWebsite, edited: readonly EditedKey[]): WriteOnlySend[] {
  const send: WriteOnlySend[] = [];
  for (const field of WRITE_ONLY_FIELDS) {
    if (field === "password" && edited.includes("password_version")) send.push({ field, edit: "rotated" });
    else if (edited.includes(field) && site[field] !== undefined) send.push({ field, edit: "edited" });
  }
  return send;
}

/** A password is compared as written (`${VAR}` or the literal), never as read from the environment. */
function sameField(field: FieldName, a: WebsiteFields & { passwordRef?: string }, b: WebsiteFields & { passwordRef?: string }): boolean {
  if (field === "password") return (a.passwordRef ?? a.password) === (b.passwordRef ?? b.password);
  return sameValue(field, a[field], b[field]);
}

function sameFields(a: WebsiteFields & { passwordRef?: string }, b: WebsiteFields & { passwordRef?: string }): boolean {
  return FIELD_NAMES.every((field) => sameField(field, a, b));
}

function touchedProjects(base: readonly DesiredProject[], head: readonly DesiredProject[]): TouchedProject[] {
  const before = new Map(base.map((p) => [projectKey(p.project), p]));
  const now = new Set(head.map((p) => projectKey(p.project)));
  const touched: TouchedProject[] = [];
  for (const p of head) {
    const old = before.get(projectKey(p.project));
    if (p.state === "absent" && old?.state !== "absent") touched.push({ project: p.project, touch: "tombstoned" });
    else if (p.state === "present" && (old === undefined || old.state === "absent")) touched.push({ project: p.project, touch: "added" });
  }
  for (const old of base) if (!now.has(projectKey(old.project))) touched.push({ project: old.project, touch: "removed" });
  return touched.sort((a, b) => byCodePoint(projectKey(a.project), projectKey(b.project)));
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
