/**
 * One soak run's inputs, all drawn from its seed: the account, the config, the faults, the throttle and what
 * someone else does to the account while sitesync lists it.
 */
import type { DesiredWebsite, Policy, Privacy } from "../../src/index.ts";
import type { FaultOptions, SeedWebsite } from "../../src/sandbox/index.ts";
import { createRandom, type Random } from "./random.ts";

/** Live names under these prefixes are protected or ignored by the run's policy. */
export const PROTECT = "keep-*.soak.example.com";
export const IGNORE = "tmp-*.soak.example.org";
/** Shorter than `slowMs`, so a slow answer is a timeout: the client gives up while the server did the work. */
const TIMEOUT_MS = 300;

interface Throttle {
  limit: number;
  windowMs: number;
  /** Someone else on the same IP spends the budget: bursts of requests `atMs` after the run starts (429s follow). */
  bursts: { atMs: number; requests: number }[];
}

/** Someone else changes the account while sitesync lists it (first read only). */
interface Others {
  /** Acts after this many listing pages were served; `every`: after each page of every (re-)read. */
  afterPage: number;
  every: boolean;
  creates: number;
  deletes: number;
  /** Their creates take names the config is about to create (a race sitesync must survive). */
  takeDesired: boolean;
}

export interface Scenario {
  seed: number;
  account: SeedWebsite[];
  desired: DesiredWebsite[];
  policy: Policy;
  /** The config's passwords by domain (the plan never holds them). */
  passwords: Map<string, string>;
  faults: FaultOptions;
  throttle: Throttle | undefined;
  latencyMs: number;
  client: { concurrency: number; timeoutMs: number; retryBaseMs: number };
  others: Others | undefined;
}

const IPS = ["203.0.113.7", "203.0.113.8", "198.51.100.0/24", "192.0.2.1", "2001:db8::/32", "2001:db8:1::/48"];
const PARAMS = ["utm_source", "fbclid", "gclid", "&"];
type Managed = Omit<DesiredWebsite, "domain" | "state" | "source">;

export function makeScenario(seed: number): Scenario {
  const random = createRandom(seed);
  const passwords = new Map<string, string>();
  const account = makeAccount(random, seed);
  const prune = random.chance(0.5);
  const desired = [...desiredForAccount(random, account, passwords), ...newSites(random, passwords)];
  const slow = random.int(TIMEOUT_MS + 100, TIMEOUT_MS + 300);
  const faults: FaultOptions = random.chance(0.1)
    ? { seed }
    : {
        seed,
        errorRate: random.between(0, 0.12),
        resetRate: random.between(0, 0.06),
        slowRate: random.between(0, 0.05),
        slowMs: slow,
        dropAfterCommitRate: random.between(0, 0.12),
      };
  const throttle = random.chance(0.25)
    ? {
        limit: random.int(15, 40),
        windowMs: 1000,
        bursts: Array.from({ length: random.int(1, 2) }, () => ({ atMs: random.int(0, 1500), requests: random.int(5, 25) })),
      }
    : undefined;
  const others = random.chance(0.45)
    ? {
        afterPage: random.int(1, 2),
        every: random.chance(0.15),
        creates: random.int(0, 2),
        deletes: random.int(1, 2),
        takeDesired: random.chance(0.3),
      }
    : undefined;
  return {
    seed,
    account,
    desired: random.sample(desired, desired.length),
    policy: { prune, maxDeletes: 10_000, protect: [PROTECT], ignore: [IGNORE] },
    passwords,
    faults,
    throttle,
    latencyMs: random.int(0, 8),
    client: { concurrency: random.int(1, 8), timeoutMs: TIMEOUT_MS, retryBaseMs: random.int(5, 20) },
    others,
  };
}

function makeAccount(random: Random, seed: number): SeedWebsite[] {
  return Array.from({ length: random.int(20, 120) }, (_, i) => {
    const kind = random.next();
    const domain = kind < 0.1 ? `keep-${i}.soak.example.com` : kind < 0.15 ? `tmp-${i}.soak.example.org` : `s${i}.soak.example.com`;
    const fields = randomFields(random);
    return {
      domain,
      // The real API stores an omitted privacy or email as null (API-NOTES §2.4).
      privacy: random.chance(0.05) ? null : fields.privacy,
      password: fields.privacy === 2 ? `old-${seed}-${i}` : null,
      email: random.chance(0.05) ? null : fields.email,
      exclude_bots: fields.exclude_bots,
      exclude_ips: fields.exclude_ips,
      exclude_params: fields.exclude_params ?? null,
      favorite: fields.favorite,
    };
  });
}

/** Per live site: unchanged, updated, tombstoned or not listed (prune decides its fate). */
function desiredForAccount(random: Random, account: SeedWebsite[], passwords: Map<string, string>): DesiredWebsite[] {
  const desired: DesiredWebsite[] = [];
  for (const site of account) {
    const ignored = site.domain.startsWith("tmp-");
    const live = liveFields(site);
    const roll = random.next();
    if (ignored) {
      if (roll < 0.1) desired.push({ domain: site.domain, state: "present", ...randomFields(random) }); // listed, yet ignored
    } else if (roll < 0.3) {
      desired.push(present(site.domain, pickFields(random, live), passwords));
    } else if (roll < 0.65) {
      const changed = { ...pickFields(random, live), ...pickFields(random, randomFields(random)) };
      desired.push(present(site.domain, changed, passwords));
    } else if (roll < 0.78 && !site.domain.startsWith("keep-")) {
      desired.push({ domain: site.domain, state: "absent" });
    }
  }
  return desired;
}

/** Creates (some protected), and tombstones of sites that do not exist. */
function newSites(random: Random, passwords: Map<string, string>): DesiredWebsite[] {
  const creates = Array.from({ length: random.int(0, 20) }, (_, i) => {
    const domain = random.chance(0.1) ? `keep-new-${i}.soak.example.com` : `n${i}.soak.example.com`;
    return present(domain, randomFields(random), passwords);
  });
  const gone = Array.from(
    { length: random.int(0, 2) },
    (_, i): DesiredWebsite => ({ domain: `gone-${i}.soak.example.com`, state: "absent" }),
  );
  return [...creates, ...gone];
}

/** A listed website; privacy password needs a password in the config (DESIGN §2). */
function present(domain: string, fields: Managed, passwords: Map<string, string>): DesiredWebsite {
  const website: DesiredWebsite = { domain, state: "present", ...fields };
  delete website.password;
  if (website.privacy === 2) {
    website.password = `pw-${domain}`;
    passwords.set(domain, website.password);
  }
  return website;
}

function randomFields(
  random: Random,
): Required<Pick<Managed, "privacy" | "email" | "exclude_bots" | "exclude_ips" | "favorite">> & Managed {
  const r = random.next();
  const fields = {
    privacy: (r < 0.6 ? 0 : r < 0.8 ? 1 : 2) as Privacy,
    email: random.int(0, 1),
    exclude_bots: random.int(0, 1),
    exclude_ips: random.sample(IPS, random.int(0, 3)),
    favorite: random.chance(0.25),
  };
  return random.chance(0.2) ? { ...fields, exclude_params: random.sample(PARAMS, random.int(1, 2)) } : fields;
}

/** A random subset of the fields (the others stay unmanaged). */
function pickFields(random: Random, fields: Managed): Managed {
  const picked: Managed = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined && random.chance(0.6)) Object.assign(picked, { [key]: value });
  }
  return picked;
}

/** The comparable fields of a seeded site as the API returns them (null privacy/email read as 0). */
function liveFields(site: SeedWebsite): Managed {
  const ips = site.exclude_ips;
  return {
    privacy: (site.privacy ?? 0) as Privacy,
    email: site.email ?? 0,
    exclude_bots: site.exclude_bots ?? 0,
    exclude_ips: Array.isArray(ips) ? [...ips] : ips ? ips.split("\n") : [],
    favorite: site.favorite ?? false,
  };
}
