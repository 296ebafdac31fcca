/**
 * The sandbox's account: websites kept sorted by id (the default listing order) with indexes by id and
 * domain, so that a list page costs O(per_page) and a create or delete O(log n) plus one splice.
 */
import { isoSeconds, parseTimestamp, rawSeconds } from "./_time.ts";
import type { SeedProject, SeedWebsite, StoredProject, StoredWebsite } from "./types.ts";

export type WebsitePatch = Partial<Omit<StoredWebsite, "id" | "domain" | "created_at">>;
export type ProjectOrder = "created_at" | "project";

/** Everything the store holds, as plain JSON (the persistence format). */
export interface StoreSnapshot {
  version: 1;
  nextId: number;
  websites: StoredWebsite[];
  projects: StoredProject[];
  otherUsersDomains: string[];
}

export class SandboxStore {
  #websites: StoredWebsite[] = [];
  #byId = new Map<number, StoredWebsite>();
  #byDomain = new Map<string, StoredWebsite>();
  #byDomainOrder: StoredWebsite[] | undefined;
  #nextId = 1;
  #projects = new Map<string, StoredProject>();
  #projectOrders = new Map<ProjectOrder, StoredProject[]>();
  #otherDomains = new Set<string>();
  /** Called after every change; the server persists from here. */
  onChange: (() => void) | undefined;

  /** The caller's websites by ascending id. Do not mutate: use `updateWebsite`. */
  websites(): readonly StoredWebsite[] {
    return this.#websites;
  }

  /** The caller's websites by ascending domain (cached until the next create or delete). */
  websitesByDomain(): readonly StoredWebsite[] {
    this.#byDomainOrder ??= [...this.#websites].sort((a, b) => compare(a.domain, b.domain));
    return this.#byDomainOrder;
  }

  getWebsite(id: number): StoredWebsite | undefined {
    return this.#byId.get(id);
  }

  findWebsite(domain: string): StoredWebsite | undefined {
    return this.#byDomain.get(domain.toLowerCase());
  }

  /** True when any user, this one or another, has the domain (the unique rule is global: API-NOTES §2.4). */
  isDomainTaken(domain: string): boolean {
    const key = domain.toLowerCase();
    return this.#byDomain.has(key) || this.#otherDomains.has(key);
  }

  /** Adds a website the way the UI would create it; throws when the domain or id is already used. */
  addWebsite(seed: SeedWebsite, now: Date = new Date()): StoredWebsite {
    const website = toStored(seed, seed.id ?? this.#nextId, now);
    if (this.isDomainTaken(website.domain)) throw new Error(`sandbox store: ${website.domain} already exists`);
    if (this.#byId.has(website.id)) throw new Error(`sandbox store: id ${website.id} already exists`);
    this.#nextId = Math.max(this.#nextId, website.id + 1);
    insertSorted(this.#websites, website, (w) => w.id, website.id);
    if (this.#byDomainOrder) insertSorted(this.#byDomainOrder, website, (w) => w.domain, website.domain);
    this.#byId.set(website.id, website);
    this.#byDomain.set(website.domain, website);
    this.onChange?.();
    return website;
  }

  /** Changes stored fields in place. The domain cannot change, like in the API (API-NOTES §2.5). */
  updateWebsite(id: number, patch: WebsitePatch): StoredWebsite | undefined {
    const website = this.#byId.get(id);
    if (!website) return undefined;
    Object.assign(website, patch);
    this.onChange?.();
    return website;
  }

  /** A hard delete (API-NOTES §2.6). */
  removeWebsite(id: number): boolean {
    const website = this.#byId.get(id);
    if (!website) return false;
    removeSorted(this.#websites, (w) => w.id, id);
    if (this.#byDomainOrder) removeSorted(this.#byDomainOrder, (w) => w.domain, website.domain);
    this.#byId.delete(id);
    this.#byDomain.delete(website.domain);
    this.onChange?.();
    return true;
  }

  otherUsersDomains(): string[] {
    return [...this.#otherDomains];
  }

  /** A domain owned by someone else: never listed, but taken. */
  addOtherUserDomain(domain: string): void {
    this.#otherDomains.add(domain.toLowerCase());
    this.onChange?.();
  }

  projects(order: ProjectOrder = "created_at"): readonly StoredProject[] {
    let sorted = this.#projectOrders.get(order);
    if (!sorted) {
      // Ties on created_at are broken by name so that pages never overlap.
      sorted = [...this.#projects.values()].sort((a, b) =>
        order === "project" ? compare(a.project, b.project) : compare(a.created_at, b.created_at) || compare(a.project, b.project),
      );
      this.#projectOrders.set(order, sorted);
    }
    return sorted;
  }

  /** Project names compare case-insensitively, like the MySQL collation. */
  getProject(name: string): StoredProject | undefined {
    return this.#projects.get(name.toLowerCase());
  }

  addProject(seed: SeedProject, now: Date = new Date()): StoredProject {
    const created = seed.created_at === undefined ? now : parseTimestamp(seed.created_at);
    if (!created) throw new Error(`sandbox store: bad created_at ${seed.created_at}`);
    const project: StoredProject = {
      project: seed.project,
      reports: seed.reports ?? 1,
      result: seed.result ?? 0,
      created_at: isoSeconds(created),
    };
    this.#projects.set(project.project.toLowerCase(), project);
    this.#projectOrders.clear();
    this.onChange?.();
    return project;
  }

  removeProject(name: string): boolean {
    const removed = this.#projects.delete(name.toLowerCase());
    if (removed) {
      this.#projectOrders.clear();
      this.onChange?.();
    }
    return removed;
  }

  snapshot(): StoreSnapshot {
    return {
      version: 1,
      nextId: this.#nextId,
      websites: this.#websites.map((w) => ({ ...w })),
      projects: [...this.#projects.values()].map((p) => ({ ...p })),
      otherUsersDomains: this.otherUsersDomains(),
    };
  }

  /** Replaces everything with a snapshot (no onChange). */
  restore(snapshot: StoreSnapshot): void {
    this.#websites = snapshot.websites.map((w) => ({ ...w })).sort((a, b) => a.id - b.id);
    this.#byId = new Map(this.#websites.map((w) => [w.id, w]));
    this.#byDomain = new Map(this.#websites.map((w) => [w.domain, w]));
    this.#byDomainOrder = undefined;
    this.#nextId = Math.max(snapshot.nextId, (this.#websites.at(-1)?.id ?? 0) + 1);
    this.#projects = new Map(snapshot.projects.map((p) => [p.project.toLowerCase(), { ...p }]));
    this.#projectOrders.clear();
    this.#otherDomains = new Set(snapshot.otherUsersDomains);
  }
}

function toStored(seed: SeedWebsite, id: number, now: Date): StoredWebsite {
  const created = seed.created_at === undefined ? now : parseTimestamp(seed.created_at);
  const updated = seed.updated_at === undefined ? created : parseTimestamp(seed.updated_at);
  if (!created || !updated) throw new Error(`sandbox store: bad timestamp for ${seed.domain}`);
  const favorited = seed.favorited_at !== undefined ? seed.favorited_at : seed.favorite ? rawSeconds(created) : null;
  return {
    id,
    domain: seed.domain.toLowerCase(),
    privacy: seed.privacy === undefined ? 0 : seed.privacy,
    email: seed.email === undefined ? 0 : seed.email,
    password: seed.password ?? null,
    exclude_bots: seed.exclude_bots === undefined ? 1 : seed.exclude_bots,
    exclude_params: lines(seed.exclude_params),
    exclude_ips: lines(seed.exclude_ips),
    favorited_at: favorited,
    created_at: isoSeconds(created),
    updated_at: isoSeconds(updated),
  };
}

function lines(value: string | string[] | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  return Array.isArray(value) ? value.join("\n") : value;
}

/** Code-unit order: for lowercase ASCII domains it matches MySQL's collation order. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function lowerBound<T, K extends number | string>(items: T[], key: (item: T) => K, value: K): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (key(items[mid]!) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function insertSorted<T, K extends number | string>(items: T[], item: T, key: (item: T) => K, value: K): void {
  const last = items.at(-1);
  if (last === undefined || key(last) < value) items.push(item);
  else items.splice(lowerBound(items, key, value), 0, item);
}

function removeSorted<T, K extends number | string>(items: T[], key: (item: T) => K, value: K): void {
  const index = lowerBound(items, key, value);
  if (index < items.length && key(items[index]!) === value) items.splice(index, 1);
}
