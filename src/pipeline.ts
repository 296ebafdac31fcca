/**
 * The pipeline as the CLI and the Action both run it (DESIGN §1): config → live → the pure `plan`, and the
 * secret values `apply` needs, which the plan itself never holds.
 */
import { readLive } from "./api/read-live.ts";
import type { Client } from "./api/types.ts";
import { parseCount, parseDuration } from "./cli/_args.ts";
import type { Config } from "./config/types.ts";
import { plan } from "./plan/plan.ts";
import type { Plan } from "./plan/types.ts";

/** The planning flags, as the CLI spells them (the Action maps its inputs onto them). */
export interface PlanFlags {
  "sync-write-only"?: boolean;
  "max-deletes"?: string;
  "allow-empty"?: boolean;
  "rate-window"?: string;
}

/** Reads the live account and plans the config against it. */
export async function planFromConfig(config: Config, client: Client, flags: PlanFlags): Promise<Plan> {
  const maxDeletes = parseCount("max-deletes", flags["max-deletes"], 0);
  const live = await readLive(client, config);
  const desired = { websites: config.websites, ...(config.projects ? { projects: config.projects } : {}), policy: config.policy };
  return plan(desired, live, {
    configFile: config.file,
    configDigest: config.digest,
    syncWriteOnly: Boolean(flags["sync-write-only"]),
    allowEmpty: Boolean(flags["allow-empty"]),
    ...(maxDeletes === undefined ? {} : { maxDeletes }),
    rateLimit: { limit: client.stats().rateLimit ?? 60, windowSeconds: parseDuration("rate-window", flags["rate-window"] ?? "60s") / 1000 },
  });
}

/** `ApplyOptions.passwordOf` for a config: the password of each website, by normalized domain. */
export function passwordsOf(config: Config): (domain: string) => string | undefined {
  const passwords = new Map(config.websites.map((w) => [w.domain, w.password]));
  return (domain) => passwords.get(domain);
}
