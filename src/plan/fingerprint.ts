/**
 * Fingerprints of live items and the plan's own hash (DESIGN §3): a saved plan records, per change, what the
 * live item looked like, so that `apply plan.json` can skip items that changed since.
 */
import { createHash } from "node:crypto";
import type { LiveProject } from "../model/project.ts";
import type { LiveWebsite } from "../model/website.ts";
import { READABLE_FIELDS, WEBSITE_FIELDS } from "../model/website-fields.ts";
import type { Plan } from "./types.ts";

const FINGERPRINT_LENGTH = 16;

/**
 * A short sha256 of what identifies a live website's state: id, domain, every readable field, whether a
 * password is stored, and `updated_at` (which moves on every real change: API-NOTES §2.5). A `set` field
 * (`exclude_ips`) counts as a set, like `plan` compares it.
 */
export function websiteFingerprint(w: LiveWebsite): string {
  const state: Record<string, unknown> = { id: w.id, domain: w.domain, password: w.password, updated_at: w.updated_at };
  for (const field of READABLE_FIELDS) {
    const value = w[field];
    state[field] = WEBSITE_FIELDS[field].kind === "set" && Array.isArray(value) ? [...new Set(value)].sort() : value;
  }
  return shortHash(state);
}

/** A short sha256 of a live project's listing row (it has no id nor `updated_at`: API-NOTES §5). */
export function projectFingerprint(p: LiveProject): string {
  return shortHash({ project: p.project, reports: p.reports, result: p.result, created_at: p.created_at });
}

/** The sha256 (hex) of the canonical JSON of a plan without its `hash` field. */
export function planHash(planWithoutHash: Omit<Plan, "hash">): string {
  const { hash: _ignored, ...rest } = planWithoutHash as Omit<Plan, "hash"> & { hash?: string };
  return sha256(canonicalJson(rest));
}

/**
 * JSON with object keys sorted at every depth and `undefined` members dropped (as `JSON.stringify` drops
 * them), so that the same data always gives the same bytes whatever order it was built in.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(",")}]`;
  const entries = Object.keys(value)
    .sort()
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
  return `{${entries.join(",")}}`;
}

function shortHash(value: unknown): string {
  return sha256(canonicalJson(value)).slice(0, FINGERPRINT_LENGTH);
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** `body` with its hash, in the order every saved plan is written: `format`, `version`, `hash`, the rest. */
export function sealPlan(body: Omit<Plan, "hash">): Plan {
  const { format, version, ...rest } = body;
  return { format, version, hash: planHash(body), ...rest };
}

/** Whether a plan's hash matches its content (an accident, not a forger: DESIGN §3). */
export function isSealed(plan: Plan): boolean {
  const { hash, ...rest } = plan;
  return planHash(rest) === hash;
}
