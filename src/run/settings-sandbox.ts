/** The rows of the settings table (run/settings.ts) for `sitesync sandbox`: the imitation's knobs (DESIGN §7). */
import type { Setting } from "./setting.ts";

const on = ["sandbox"] as const;
const chance = <F extends string>(flag: F, help: string) => ({ kind: "chance", flag, valueHint: "p", commands: on, help }) as const;
const count = <F extends string>(flag: F, min: number, help: string) =>
  ({ kind: "count", min, flag, valueHint: "n", commands: on, help }) as const;
const delay = <F extends string>(flag: F, help: string) =>
  ({ kind: "duration", zero: true, flag, valueHint: "duration", commands: on, help }) as const;

export const SANDBOX_SETTINGS = {
  port: { ...count("port", 0, "Port on 127.0.0.1 (0 picks a free one)"), max: 65_535, default: "0" },
  sandboxKey: {
    kind: "string",
    flag: "key",
    env: "SITESYNC_API_KEY",
    sensitive: true,
    valueHint: "key",
    commands: on,
    help: "API key to accept (else SITESYNC_API_KEY, else a generated one)",
  },
  sandboxProjectsKey: {
    kind: "string",
    flag: "projects-key",
    sensitive: true,
    valueHint: "key",
    commands: on,
    help: "Separate key for /api/v1/projects (default: the same key)",
  },
  seed: count("seed", 0, "Generate N websites (site-00001.example.com, ...)"),
  seedProjects: count("seed-projects", 0, "Generate N projects"),
  latency: delay("latency", "Delay before every answer, e.g. 50ms"),
  rateLimit: count("rate-limit", 0, "Requests per window (default 60, like the real API; 0 disables)"),
  sandboxRateWindow: delay("rate-window", "Rate-limit window (default 60s)"),
  perPageDefault: count("per-page-default", 1, "per_page used for values other than 10, 25, 50, 100 (default 10)"),
  websiteLimit: count("website-limit", -1, "Plan limit on websites (default -1: unlimited)"),
  putMissing: {
    kind: "enum",
    options: ["500", "404"],
    flag: "put-missing",
    commands: on,
    help: "Answer to a PUT on a missing website: 500 (the real bug, default) or 404",
  },
  errorRate: chance("error-rate", "Chance (0..1) of a 500 without doing the work"),
  resetRate: chance("reset-rate", "Chance of hanging up without an answer"),
  slowRate: chance("slow-rate", "Chance of answering only after --slow-ms"),
  slowMs: delay("slow-ms", "Delay of a slow answer (default 5s)"),
  dropRate: chance("drop-rate", "Chance that a write is done but its answer is lost"),
  faultSeed: count("fault-seed", 0, "Seed of the fault PRNG, to replay a run"),
  persist: {
    kind: "path",
    flag: "persist",
    valueHint: "file",
    commands: on,
    help: "Load the account from this JSON file and save it after every write",
  },
  log: { kind: "boolean", flag: "log", commands: on, help: "Print one line per request to stderr (the key is never shown)" },
} as const satisfies Record<string, Setting>;
