/** Deterministic data for the sandbox: seeded websites and projects, the PRNG, and fresh API keys. */
import { randomBytes } from "node:crypto";
import { rawSeconds } from "./_time.ts";
import type { SeedProject, SeedWebsite } from "./types.ts";

/** mulberry32: a tiny PRNG in [0, 1); the same seed always gives the same sequence. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** Like Laravel's `Str::random(64)`: 64 alphanumeric characters (API-NOTES §1). */
export function randomKey(length = 64): string {
  let key = "";
  while (key.length < length) {
    for (const byte of randomBytes(length)) {
      // 248 = 4 * 62: rejecting the rest keeps every character equally likely.
      if (byte < 248 && key.length < length) key += ALPHANUMERIC[byte % 62];
    }
  }
  return key;
}

const BASE_TIME = Date.UTC(2024, 0, 1);
const pad = (n: number) => String(n).padStart(5, "0");

/**
 * `count` websites `site-00001.example.com`, … with a fixed mix of settings: mostly public, some private or
 * password-protected, some favorites, IP and parameter exclusions, and a few null privacy/email values as
 * the real API stores for a create that omitted them (API-NOTES §2.4).
 */
export function seedWebsites(count: number): SeedWebsite[] {
  const random = prng(0x5eed);
  const websites: SeedWebsite[] = [];
  for (let i = 1; i <= count; i++) {
    const created = new Date(BASE_TIME + i * 37 * 60_000);
    const r = random();
    const privacy = r < 0.7 ? 0 : r < 0.85 ? 1 : 2;
    const untouched = random() < 0.05;
    websites.push({
      domain: `site-${pad(i)}.example.com`,
      privacy: untouched ? null : privacy,
      password: privacy === 2 && !untouched ? `seed-password-${i}` : null,
      email: untouched ? null : random() < 0.3 ? 1 : 0,
      exclude_bots: random() < 0.8 ? 1 : 0,
      exclude_ips: random() < 0.2 ? `203.0.113.${i % 256}\n198.51.100.0/24` : null,
      exclude_params: random() < 0.1 ? "utm_source\nfbclid" : null,
      favorited_at: random() < 0.1 ? rawSeconds(new Date(created.getTime() + 3_600_000)) : null,
      created_at: created.toISOString(),
      updated_at: new Date(created.getTime() + Math.floor(random() * 86_400) * 1000).toISOString(),
    });
  }
  return websites;
}

/** `count` projects `project-00001.example.org`, … with 1–12 reports each. */
export function seedProjects(count: number): SeedProject[] {
  const random = prng(0x9a11);
  const projects: SeedProject[] = [];
  for (let i = 1; i <= count; i++) {
    const reports = 1 + Math.floor(random() * 12);
    let result = 0;
    for (let r = 0; r < reports; r++) result += Math.floor(random() * 101);
    projects.push({
      project: `project-${pad(i)}.example.org`,
      reports,
      result,
      created_at: new Date(BASE_TIME + i * 53 * 60_000).toISOString(),
    });
  }
  return projects;
}
