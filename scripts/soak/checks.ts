/**
 * What a soak run checks against the sandbox's store directly (no HTTP, no faults): did every change that
 * apply reported as applied take effect, does the account equal the config, and was anything deleted or
 * duplicated that should not have been.
 */
import { type ApplyResult, type DesiredWebsite, type FieldName, type FieldValue, matchGlob, type Plan } from "../../src/index.ts";
import { splitLines } from "../../src/model/website.ts";
import type { SandboxStore, StoredWebsite } from "../../src/sandbox/index.ts";
import { IGNORE, PROTECT, type Scenario } from "./scenario.ts";
import type { Watch } from "./someone-else.ts";

export type ViolationKind =
  | "duplicate"
  | "lost"
  | "unintended-delete"
  | "unreported-failure"
  | "not-converged"
  | "replan"
  | "write-after-failed-read";

export interface Violation {
  kind: ViolationKind;
  detail: string;
}

const COMPARABLE = ["privacy", "email", "exclude_bots", "exclude_ips", "favorite"] as const;

/** The config's verdict on a domain: keep it (listed or protected/ignored/unmanaged) or delete it. */
function shouldDelete(scenario: Scenario, domain: string): boolean {
  if (matchGlob(IGNORE, domain)) return false;
  const listed = scenario.desired.find((d) => d.domain === domain);
  if (listed) return listed.state === "absent";
  return scenario.policy.prune && !matchGlob(PROTECT, domain);
}

/** Whether a stored website holds `value` for `field`, read the way the API returns it (API-NOTES §2.1). */
function holds(site: StoredWebsite, field: FieldName, value: FieldValue, password: string | undefined): boolean {
  switch (field) {
    case "privacy":
    case "email":
    case "exclude_bots":
      return (site[field] ?? 0) === value;
    case "exclude_ips":
    case "exclude_params":
      return sameSet(splitLines(site[field]), (value as string[] | null) ?? []);
    case "favorite":
      return (site.favorited_at !== null) === value;
    case "password":
      return password !== undefined && site.password === password;
  }
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a);
  return set.size === new Set(b).size && b.every((item) => set.has(item));
}

/** Every item apply reported as applied took effect (so every change that did not was reported). */
export function unreportedFailures(result: ApplyResult, plan: Plan, scenario: Scenario, store: SandboxStore): Violation[] {
  const found: Violation[] = [];
  const report = (detail: string) => found.push({ kind: "unreported-failure", detail });
  if (result.items.length !== plan.changes.length) report(`${plan.changes.length} changes planned, ${result.items.length} reported`);
  for (const { change, status, note } of result.items) {
    if (status !== "applied" || change.kind !== "website") continue;
    if (change.action === "delete") {
      if (store.getWebsite(change.id)) report(`delete of ${change.domain} reported applied, but id ${change.id} exists`);
      continue;
    }
    const site = change.action === "create" ? store.findWebsite(change.domain) : store.getWebsite(change.id);
    if (!site) {
      report(`${change.action} of ${change.domain} reported applied, but the website does not exist`);
      continue;
    }
    const password = scenario.passwords.get(change.domain);
    const wrong = change.fields.filter((f) => !holds(site, f.field, f.after, password)).map((f) => f.field);
    if (wrong.length > 0)
      report(`${change.action} of ${change.domain} reported applied${note ? ` (${note})` : ""}, but ${wrong.join(", ")} differ`);
  }
  return found;
}

/** How the account differs from the config: empty when it converged. */
export function differences(scenario: Scenario, store: SandboxStore): string[] {
  const found: string[] = [];
  for (const d of scenario.desired) {
    if (matchGlob(IGNORE, d.domain)) continue;
    const site = store.findWebsite(d.domain);
    if (d.state === "absent") {
      if (site) found.push(`${d.domain}: tombstoned, still exists`);
    } else if (!site) {
      found.push(`${d.domain}: missing`);
    } else {
      found.push(...fieldDifferences(d, site, scenario.passwords.get(d.domain)));
    }
  }
  for (const site of store.websites()) {
    if (!scenario.desired.some((d) => d.domain === site.domain) && shouldDelete(scenario, site.domain)) {
      found.push(`${site.domain}: not listed, prune is on, still exists`);
    }
  }
  return found;
}

function fieldDifferences(d: DesiredWebsite, site: StoredWebsite, password: string | undefined): string[] {
  const wrong: string[] = COMPARABLE.filter((field) => d[field] !== undefined && !holds(site, field, d[field]!, password));
  // The password is write-only: only its presence is known for a site that existed (API-NOTES §2.1).
  if (d.privacy === 2 && site.password === null) wrong.push("password");
  return wrong.length > 0 ? [`${d.domain}: ${wrong.join(", ")} differ`] : [];
}

export interface Start {
  /** Every website at the start, by id. */
  initial: Map<number, string>;
}

/**
 * Deletes and losses over the whole run. Unintended delete: a website (there at start, or created by
 * someone else) that is gone although the config does not ask for its deletion. Lost: a website the config
 * keeps that was there at start, or that sitesync created, and whose row is gone (its statistics with it).
 * Websites someone else deleted are left out of both. Duplicate: a domain held twice, or a create refused
 * because sitesync's own earlier POST had already made it (a blind repeat).
 */
export function endOfRunViolations(scenario: Scenario, start: Start, watch: Watch, store: SandboxStore): Violation[] {
  const found: Violation[] = [];
  const tracked = new Map([...start.initial, ...watch.otherCreated]);
  for (const [id, domain] of tracked) {
    if (watch.otherDeleted.has(id) || store.getWebsite(id)) continue;
    if (!shouldDelete(scenario, domain)) found.push({ kind: "unintended-delete", detail: `${domain} (id ${id}) was deleted` });
    if (start.initial.has(id) && isKept(scenario, domain)) {
      found.push({
        kind: "lost",
        detail: `${domain} (id ${id}) is gone${store.findWebsite(domain) ? `, recreated as id ${store.findWebsite(domain)!.id}` : ""}`,
      });
    }
  }
  for (const [domain, creator] of watch.creator) {
    if (creator === "us" && !store.findWebsite(domain) && !shouldDelete(scenario, domain))
      found.push({ kind: "lost", detail: `${domain}, created by sitesync, is gone` });
  }
  const domains = store.websites().map((w) => w.domain);
  for (const domain of new Set(domains.filter((d, i) => domains.indexOf(d) !== i)))
    found.push({ kind: "duplicate", detail: `${domain} exists twice` });
  for (const refusal of watch.takenRefusals) {
    if (refusal.creator === "us")
      found.push({ kind: "duplicate", detail: `a second POST of ${refusal.domain} after sitesync's own create` });
  }
  return found;
}

/** Listed as present and not ignored: the config wants it kept. */
function isKept(scenario: Scenario, domain: string): boolean {
  return !matchGlob(IGNORE, domain) && scenario.desired.some((d) => d.domain === domain && d.state === "present");
}
