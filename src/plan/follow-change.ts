/**
 * Planning with the change (DESIGN §3 "Plans that follow the change"): the write-only values it edits are
 * sent with their reason, and a scoped plan covers only the names it touches, saying what it did not
 * evaluate. Pure, like `plan`.
 */
import type { ConfigChange, FullReadCause, UnknownChangeReason, WriteOnlySend } from "../model/config-change.ts";
import { projectKey } from "../model/project.ts";
import type { Desired, Live } from "../model/state.ts";
import { normalizeDomain } from "../model/website.ts";
import type { PlanSince } from "./types.ts";

/**
 * The change a plan follows. `scoped`: only the touched names were read (their lookups); `full`: the account
 * was read in full, and why (`ConfigChange.fullRead`, `--full`, lookups over budget); `known: false`: no
 * change to go by, and why.
 */
export type PlanChange =
  | { known: true; change: ConfigChange; read: "scoped" }
  | { known: true; change: ConfigChange; read: "full"; because: FullReadCause[] }
  | { known: false; ref: string; reason: UnknownChangeReason; file?: string };

/** The write-only values a known change edits, by normalized domain, and the base they are edits since. */
export interface ChangeSends {
  ref: string;
  byDomain: ReadonlyMap<string, readonly WriteOnlySend[]>;
}

export function sendsOf(input: PlanChange | undefined): ChangeSends | undefined {
  if (!input?.known) return undefined;
  const byDomain = new Map(input.change.websites.map((w) => [w.domain, w.send] as const));
  return { ref: input.change.ref, byDomain };
}

/** Whether the plan covers only the touched names. */
export function isScoped(input: PlanChange | undefined): input is Extract<PlanChange, { read: "scoped" }> {
  return input?.known === true && input.read === "scoped";
}

/**
 * Desired and live state narrowed to the touched websites and projects: whatever else the file lists or the
 * account holds was not read (or is not to be judged) in a scoped plan. A removed website stays in the live
 * side, so that prune deletes it as an unlisted one; a live website the file never listed is not there.
 */
export function narrowToChange(desired: Desired, live: Live, change: ConfigChange): { desired: Desired; live: Live } {
  const domains = new Set(change.websites.map((w) => w.domain));
  const projects = new Set(change.projects.map((p) => projectKey(p.project)));
  const touchedSite = (domain: string) => domains.has(normalizeDomain(domain));
  const narrowed: Desired = { ...desired, websites: desired.websites.filter((w) => touchedSite(w.domain)) };
  if (desired.projects !== undefined) narrowed.projects = desired.projects.filter((p) => projects.has(projectKey(p.project)));
  const websites = live.websites.filter((w) => touchedSite(w.domain));
  const liveProjects = live.projects?.filter((p) => projects.has(projectKey(p.project)));
  return { desired: narrowed, live: liveProjects === undefined ? { websites } : { websites, projects: liveProjects } };
}

/** What the plan records about the change it followed. */
export function sinceOf(input: PlanChange): PlanSince {
  if (!input.known) return { known: false, ref: input.ref, reason: input.reason, ...(input.file ? { file: input.file } : {}) };
  const { change } = input;
  const commit = change.commit === undefined ? {} : { commit: change.commit };
  if (input.read === "full") return { known: true, ref: change.ref, ...commit, read: "full", because: [...input.because] };
  return {
    known: true,
    ref: change.ref,
    ...commit,
    read: "scoped",
    websites: change.websites.map((w) => w.domain),
    projects: change.projects.map((p) => p.project),
    notEvaluated: ["untouched-drift", "unlisted-live"],
  };
}
