/** Planning as `plan` and `apply` both do it: config → live → the pure `plan`. */
import type { Client } from "../api/types.ts";
import type { Config } from "../config/types.ts";
import { plan } from "../plan/plan.ts";
import type { Plan } from "../plan/types.ts";
import { parseCount, parseDuration } from "./_args.ts";
import { readLive } from "./_session.ts";

export interface PlanFlags {
  "sync-write-only"?: boolean;
  "max-deletes"?: string;
  "allow-empty"?: boolean;
  "rate-window"?: string;
}

export async function planFromConfig(config: Config, client: Client, flags: PlanFlags): Promise<Plan> {
  const maxDeletes = parseCount("max-deletes", flags["max-deletes"], 0);
  const live = await readLive(client, config);
  return plan({ websites: config.websites, ...(config.projects ? { projects: config.projects } : {}), policy: config.policy }, live, {
    configFile: config.file,
    configDigest: config.digest,
    syncWriteOnly: Boolean(flags["sync-write-only"]),
    allowEmpty: Boolean(flags["allow-empty"]),
    ...(maxDeletes === undefined ? {} : { maxDeletes }),
    rateLimit: { limit: client.stats().rateLimit ?? 60, windowSeconds: parseDuration("rate-window", flags["rate-window"] ?? "60s") / 1000 },
  });
}

export function hasChanges(p: Plan): boolean {
  return p.changes.length > 0;
}
