/**
 * `--target GLOB` / `--exclude GLOB` (DESIGN §7): a partial plan. Only the websites (by normalized
 * domain) and projects (by name) the selection keeps are compared, changed or deleted; everything else is left
 * out before planning, so prune, the counts and the safety rails all act inside the selection only. Pure.
 */
import { firstMatch, matchGlob } from "../model/glob.ts";
import type { Desired, Live } from "../model/state.ts";
import { normalizeDomain } from "../model/website.ts";
import type { PlanWarning, Selection } from "./types.ts";

/** Whether a selection leaves anything out: at least one pattern. */
export function isPartial(selection: Selection | undefined): selection is Selection {
  return selection !== undefined && (selection.target.length > 0 || selection.exclude.length > 0);
}

/** Whether `name` is inside the selection: it matches a target (or there is none) and no exclude. */
function selects(selection: Selection, name: string): boolean {
  if (selection.target.length > 0 && firstMatch(selection.target, name) === undefined) return false;
  return firstMatch(selection.exclude, name) === undefined;
}

/**
 * Desired and live state narrowed to the selection, and a warning per pattern that matches no website or
 * project in the config or the account (most likely a typo: the plan would then quietly cover nothing).
 */
export function narrow(desired: Desired, live: Live, selection: Selection): { desired: Desired; live: Live; warnings: PlanWarning[] } {
  const names = [
    ...desired.websites.map((w) => normalizeDomain(w.domain)),
    ...live.websites.map((w) => normalizeDomain(w.domain)),
    ...(desired.projects ?? []).map((p) => p.project.trim()),
    ...(live.projects ?? []).map((p) => p.project.trim()),
  ];
  const keep = (name: string) => selects(selection, name);
  const narrowed: Desired = { ...desired, websites: desired.websites.filter((w) => keep(normalizeDomain(w.domain))) };
  if (desired.projects !== undefined) narrowed.projects = desired.projects.filter((p) => keep(p.project.trim()));
  const websites = live.websites.filter((w) => keep(normalizeDomain(w.domain)));
  const narrowedLive: Live =
    live.projects === undefined ? { websites } : { websites, projects: live.projects.filter((p) => keep(p.project.trim())) };
  return { desired: narrowed, live: narrowedLive, warnings: unmatched(selection, names) };
}

function unmatched(selection: Selection, names: readonly string[]): PlanWarning[] {
  const flags = [
    ...selection.target.map((pattern) => ["target", pattern] as const),
    ...selection.exclude.map((pattern) => ["exclude", pattern] as const),
  ];
  return flags
    .filter(([, pattern]) => !names.some((name) => matchGlob(pattern, name)))
    .map(([flag, pattern]) => ({
      code: "selection-unmatched",
      subject: pattern,
      message: `--${flag} "${pattern}" matches no website or project in the config or the account: check the pattern.`,
    }));
}
