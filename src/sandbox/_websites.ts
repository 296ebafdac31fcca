/** API\WebsiteController (API-NOTES §2): index, show, store, update and destroy. */
import type { InputBag, InputValue } from "./_input.ts";
import { paginate } from "./_paginate.ts";
import { filterInt, isNumeric, likeContains, mysqlNumber, phpString, phpTruthy } from "./_php.ts";
import { json, notFound, serverError, unauthorized, validationFailed } from "./_reply.ts";
import { oneOf, perPageOf, type RouteContext, type RouteResult, type RouteSettings, scalar } from "./_route-context.ts";
import { isoMicros, isoSeconds, rawSeconds } from "./_time.ts";
import { validate } from "./_validator.ts";
import { prepareDomain, storeRules, updateRules } from "./_website-rules.ts";
import type { WebsitePatch } from "./store.ts";
import type { StoredWebsite } from "./types.ts";

type EchoField = "privacy" | "email" | "exclude_bots" | "exclude_ips" | "favorited_at";
/** Values the model holds as they were set, not as the DB would return them (API-NOTES §2.1 echo quirk). */
type Echo = Partial<Record<EchoField, InputValue>>;

/** WebsiteResource, key order exact; `exclude_params` and the password itself are never returned. */
function resource(website: StoredWebsite, echo: Echo = {}): Record<string, unknown> {
  const pick = (field: EchoField) => (Object.hasOwn(echo, field) ? echo[field] : website[field]);
  const favoritedAt = pick("favorited_at");
  return {
    id: website.id,
    domain: website.domain,
    privacy: pick("privacy"),
    email: pick("email"),
    password: phpTruthy(website.password),
    exclude_bots: pick("exclude_bots"),
    exclude_ips: pick("exclude_ips"),
    favorite: phpTruthy(favoritedAt),
    favorited_at: favoritedAt,
    created_at: website.created_at,
    updated_at: website.updated_at,
  };
}

/** `where id = '5abc'` goes through MySQL's string-to-number coercion (API-NOTES §2.3). */
function findWebsite(context: RouteContext): StoredWebsite | undefined {
  const id = mysqlNumber(context.params[0] ?? "");
  return Number.isInteger(id) ? context.store.getWebsite(id) : undefined;
}

export function index(context: RouteContext): RouteResult {
  const { input, store } = context;
  const search = scalar(input.search);
  const favorite = scalar(input.favorite);
  const sortBy = oneOf(input.sort_by, ["id", "domain"], "id");
  const sort = oneOf(input.sort, ["asc", "desc"], "desc");
  const perPage = perPageOf(input.per_page, context.settings.defaultPerPage);

  let rows = sortBy === "id" ? store.websites() : store.websitesByDomain();
  // `->when($search, ...)`: PHP truthiness, so "0" searches nothing.
  if (phpTruthy(search)) {
    const matches = likeContains(phpString(search));
    rows = rows.filter((w) => matches(w.domain));
  }
  // `isset($favorite) && is_numeric($favorite)`, then scopeOfFavorite tests `!$value`.
  if (favorite !== null && isNumeric(favorite)) {
    const wanted = phpTruthy(favorite);
    rows = rows.filter((w) => (w.favorited_at !== null) === wanted);
  }
  const total = rows.length;
  const body = paginate(
    {
      total,
      at: (i) => rows[sort === "asc" ? i : total - 1 - i]!,
      page: input.page,
      perPage: perPage.count,
      path: `${context.baseUrl}/api/v1/websites`,
      appends: [
        ["search", search],
        ["search_by", "domain"],
        ["favorite", favorite],
        ["sort_by", sortBy],
        ["sort", sort],
        ["per_page", perPage.echo],
      ],
    },
    (w) => resource(w),
  );
  return { reply: json(200, body) };
}

export function show(context: RouteContext): RouteResult {
  const website = findWebsite(context);
  return { reply: website ? json(200, { data: resource(website), status: 200 }) : notFound() };
}

/** The DB value of a validated tinyint field. */
const dbInt = (value: InputValue | undefined): number | null => (value === null || value === undefined ? null : filterInt(value));
const dbString = (value: InputValue | undefined): string | null => (typeof value === "string" ? value : null);

export function store(context: RouteContext): RouteResult {
  const { store: account, settings, now } = context;
  const domain = prepareDomain(context.input.domain);
  // mb_strtolower() of an array throws a TypeError: a 500 in production.
  if (domain === undefined) return { reply: serverError(context.expectsJson) };
  const input: InputBag = { ...context.input, domain };
  const limit = settings.websiteLimit;
  const bag = validate(
    input,
    storeRules(input, {
      isTaken: (d) => account.isDomainTaken(d),
      canCreate: () => limit === -1 || (limit > 0 && account.websites().length < limit),
    }),
  );
  if (bag) return { reply: validationFailed(bag) };

  // `exclude_bots` absent means 1, sent empty means null; privacy and email are stored as sent (API-NOTES §2.4).
  const bots = Object.hasOwn(input, "exclude_bots") ? (input.exclude_bots ?? null) : 1;
  const website = account.addWebsite(
    {
      domain,
      privacy: dbInt(input.privacy),
      email: dbInt(input.email),
      password: dbString(input.password),
      exclude_bots: dbInt(bots),
      exclude_params: dbString(input.exclude_params),
      exclude_ips: storedIps(dbString(input.exclude_ips), context.settings),
      favorited_at: null,
      created_at: now.toISOString(),
    },
    now,
  );
  const echo: Echo = {
    privacy: input.privacy ?? null,
    email: input.email ?? null,
    exclude_bots: bots,
    exclude_ips: input.exclude_ips ?? null,
  };
  // HTTP 201 (wasRecentlyCreated) while the body says 200.
  return { reply: json(201, { data: resource(website, echo), status: 200 }), wrote: true };
}

export function update(context: RouteContext): RouteResult {
  const { input, store: account } = context;
  // UpdateWebsiteRequest::authorize runs before the rules: any `user_id` from a non-admin is a 403.
  if (Object.hasOwn(input, "user_id")) return { reply: unauthorized(context.expectsJson) };
  const bag = validate(input, updateRules(input));
  if (bag) return { reply: validationFailed(bag) };
  const website = findWebsite(context);
  if (!website) {
    // v31 calls response()->json(404, [...]): a TypeError, so a 500 (API-NOTES §2.5).
    return { reply: context.settings.putMissing === 404 ? notFound() : serverError(context.expectsJson) };
  }
  const { patch, echo, dirty } = changes(website, input, context.now, context.settings);
  // Eloquent's dirty check: updated_at moves only when some attribute really changed.
  if (dirty) patch.updated_at = isoSeconds(context.now);
  const updated = account.updateWebsite(website.id, patch) ?? website;
  return { reply: json(200, { data: resource(updated, echo), status: 200 }), wrote: dirty };
}

/** WebsiteTrait::websiteUpdate: every present field is set; the domain never changes. */
function changes(
  website: StoredWebsite,
  input: InputBag,
  now: Date,
  settings: RouteSettings,
): { patch: WebsitePatch; echo: Echo; dirty: boolean } {
  const patch: WebsitePatch = {};
  const echo: Echo = {};
  let dirty = false;
  const has = (field: string) => Object.hasOwn(input, field);
  for (const field of ["privacy", "email", "exclude_bots"] as const) {
    if (!has(field)) continue;
    const value = input[field] ?? null;
    echo[field] = value;
    patch[field] = dbInt(value);
    if (!equivalent(website[field], value)) dirty = true;
  }
  for (const field of ["exclude_ips", "exclude_params"] as const) {
    if (!has(field)) continue;
    const value = field === "exclude_ips" ? storedIps(dbString(input[field]), settings) : dbString(input[field]);
    if (field === "exclude_ips") echo[field] = value;
    patch[field] = value;
    if (website[field] !== value) dirty = true;
  }
  if (has("password")) {
    // Crypt::encryptString uses a fresh IV, so setting any password (even null) always dirties the row.
    patch.password = dbString(input.password);
    dirty = true;
  }
  if (has("favorite")) {
    // Truthiness, not validation: "false" favorites, "0" and "" do not (API-NOTES §2.5). A new Carbon is
    // always dirty, and it serializes with microseconds until the row is read back (API-NOTES §2.1).
    const on = phpTruthy(input.favorite);
    patch.favorited_at = on ? rawSeconds(now) : null;
    echo.favorited_at = on ? isoMicros(now) : null;
    if (on || website.favorited_at !== null) dirty = true;
  }
  return { patch, echo, dirty };
}

/** Eloquent's originalIsEquivalent: identical, or both numeric with the same string form. */
function equivalent(original: number | null, value: InputValue): boolean {
  if (original === value) return true;
  return original !== null && isNumeric(value) && String(original) === phpString(value);
}

export function destroy(context: RouteContext): RouteResult {
  const website = findWebsite(context);
  if (!website) return { reply: notFound() };
  context.store.removeWebsite(website.id);
  return { reply: json(200, { id: website.id, object: "website", deleted: true, status: 200 }), wrote: true };
}

/** The `dropLastExcludedIp` knob: a list stored without its last line (not the real API's behaviour). */
function storedIps(value: string | null, settings: RouteSettings): string | null {
  if (!settings.dropLastExcludedIp || value === null) return value;
  return value.split(/\n|\r/).slice(0, -1).join("\n") || null;
}
