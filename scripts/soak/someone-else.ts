/**
 * Everything in a run that is not sitesync: someone else creating and deleting websites while sitesync lists
 * them, someone else spending the shared rate budget, and a watch on the sandbox's store that records who
 * created each website and every create the API refused because the domain was taken.
 */
import type { Sandbox, SeedWebsite } from "../../src/sandbox/index.ts";
import { createRandom, type Random } from "./random.ts";
import type { Scenario } from "./scenario.ts";

export interface Watch {
  /** Who created each domain during the run: sitesync ("us", through the API) or someone else. */
  creator: Map<string, "us" | "other">;
  /** Ids someone else created or deleted (excluded from sitesync's own tally). */
  otherCreated: Map<number, string>;
  otherDeleted: Set<number>;
  /** Creates refused as "already taken", with who had created the domain (undefined: it was there at start). */
  takenRefusals: { domain: string; creator: "us" | "other" | undefined }[];
  /** Listing pages served while `listening`, and whether someone else acts on them. */
  listening: boolean;
  pagesServed: number;
}

/**
 * Wraps the store's `addWebsite` and `isDomainTaken` (the API's unique rule, API-NOTES §2.4) to see every
 * create; a test seam: `Sandbox.store` is there for tests to look at and change the account directly.
 */
export function watchStore(sandbox: Sandbox): Watch & { asOther<T>(action: () => T): T } {
  const store = sandbox.store;
  const add = store.addWebsite.bind(store);
  const taken = store.isDomainTaken.bind(store);
  const watch: Watch = {
    creator: new Map(),
    otherCreated: new Map(),
    otherDeleted: new Set(),
    takenRefusals: [],
    listening: false,
    pagesServed: 0,
  };
  let actor: "us" | "other" = "us";
  let adding = false;
  store.addWebsite = (seed, now) => {
    adding = true;
    try {
      const website = add(seed, now);
      watch.creator.set(website.domain, actor);
      if (actor === "other") watch.otherCreated.set(website.id, website.domain);
      return website;
    } finally {
      adding = false;
    }
  };
  store.isDomainTaken = (domain) => {
    const result = taken(domain);
    // Called by the API's validation of a POST (and by addWebsite itself, which is not a refusal).
    if (result && !adding) watch.takenRefusals.push({ domain, creator: watch.creator.get(domain.toLowerCase()) });
    return result;
  };
  const asOther = <T>(action: () => T): T => {
    actor = "other";
    try {
      return action();
    } finally {
      actor = "us";
    }
  };
  return Object.assign(watch, { asOther });
}

/**
 * The sandbox's `log` hook for someone else: after the chosen listing page was served (and before sitesync
 * received it), they create and delete websites. Deletes favour low ids, which shifts later pages.
 */
export function othersHook(
  scenario: Scenario,
  getSandbox: () => Sandbox | undefined,
  getWatch: () => ReturnType<typeof watchStore> | undefined,
) {
  const random = createRandom(scenario.seed ^ 0x5a5a5a5a);
  let created = 0;
  return (_line: string): void => {
    const sandbox = getSandbox();
    const watch = getWatch();
    const others = scenario.others;
    if (!sandbox || !watch || !others || !watch.listening) return;
    const request = sandbox.requests.at(-1);
    if (request?.method !== "GET" || request.path !== "/api/v1/websites" || request.status !== 200 || request.query.search) return;
    watch.pagesServed++;
    if (!others.every && watch.pagesServed !== others.afterPage) return;
    watch.asOther(() => act(sandbox, watch, scenario, random, () => created++));
  };
}

function act(sandbox: Sandbox, watch: Watch, scenario: Scenario, random: Random, nextName: () => number): void {
  const others = scenario.others!;
  const store = sandbox.store;
  const wanted = scenario.desired.filter((d) => d.state === "present" && !store.findWebsite(d.domain)).map((d) => d.domain);
  for (let i = 0; i < others.creates; i++) {
    const domain =
      others.takeDesired && wanted.length > 0
        ? wanted.splice(random.int(0, wanted.length - 1), 1)[0]!
        : `other-${nextName()}.soak.example.com`;
    const seed: SeedWebsite = { domain, privacy: random.int(0, 1), email: random.int(0, 1), favorite: random.chance(0.3) };
    if (!store.findWebsite(domain)) store.addWebsite(seed);
  }
  const ids = store
    .websites()
    .slice(0, 100)
    .map((w) => w.id);
  for (const id of random.sample(ids, others.deletes)) {
    if (store.removeWebsite(id)) watch.otherDeleted.add(id);
  }
}

/** What someone else's burst requests ask for: a path sitesync never uses, to tell them apart in the log. */
export const BURST_PATH = "/api/v1/websites/0";

/** Someone else on the same IP: plain requests that spend the throttle's budget (their answers do not matter). */
export function scheduleBursts(scenario: Scenario, url: string): () => void {
  const timers = (scenario.throttle?.bursts ?? []).map(({ atMs, requests }) =>
    setTimeout(() => {
      for (let i = 0; i < requests; i++) {
        fetch(`${url}${BURST_PATH}`, { headers: { Accept: "application/json" } })
          .then(
            (r) => r.arrayBuffer(),
            () => undefined,
          )
          .catch(() => undefined);
      }
    }, atMs),
  );
  return () => timers.forEach(clearTimeout);
}
