import { firstMatch } from "../../model/glob.ts";
import { agree } from "../../model/plural.ts";
import type { RuleContext } from "./rule-context.ts";

/** `state: absent` deletes the website: any field beside it would be a contradiction or a leftover. */
export function tombstoneWithFields(ctx: RuleContext): void {
  for (const entry of ctx.config.websites) {
    if (entry.site.state !== "absent") continue;
    const extra = Object.keys(entry.raw).filter((key) => key !== "domain" && key !== "state");
    const [first] = extra;
    if (first === undefined) continue;
    ctx.error(
      "tombstone.fields",
      [...entry.path, first],
      `state: absent deletes this website, so it cannot also set ${extra.join(", ")}; remove ${agree(extra.length, "it", "them")}, or remove state: absent`,
      "key",
    );
  }
}

/** `policy.protect` wins over everything (DESIGN §2), so a tombstone for a protected name can never apply. */
export function protectedTombstone(ctx: RuleContext): void {
  const { protect } = ctx.config.policy;
  if (protect.length === 0) return;
  const tombstones = [
    ...ctx.config.websites.map((e) => ({ path: e.path, name: e.site.domain, state: e.site.state })),
    ...(ctx.config.projects ?? []).map((e) => ({ path: e.path, name: e.project.project, state: e.project.state })),
  ];
  for (const { path, name, state } of tombstones) {
    const pattern = state === "absent" ? firstMatch(protect, name) : undefined;
    if (pattern === undefined) continue;
    ctx.error(
      "tombstone.protected",
      [...path, "state"],
      `"${name}" is protected by policy.protect "${pattern}", so state: absent cannot delete it; remove the protection or the tombstone`,
    );
  }
}

/** A listed name that `policy.ignore` matches is never compared, changed or deleted: the entry does nothing. */
export function ignoredButListed(ctx: RuleContext): void {
  const { ignore } = ctx.config.policy;
  if (ignore.length === 0) return;
  const listed = [
    ...ctx.config.websites.map((e) => ({ path: [...e.path, "domain"], name: e.site.domain })),
    ...(ctx.config.projects ?? []).map((e) => ({ path: [...e.path, "project"], name: e.project.project })),
  ];
  for (const { path, name } of listed) {
    const pattern = firstMatch(ignore, name);
    if (pattern === undefined) continue;
    ctx.warn(
      "policy.ignored",
      path,
      `"${name}" matches policy.ignore "${pattern}", so sitesync leaves it alone and this entry has no effect`,
    );
  }
}
