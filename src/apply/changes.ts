/** How each kind of planned change turns into requests, with the API's quirks handled (API-NOTES §2.4–§2.6, §5). */
import type { Client, WebsiteCreateInput, WebsiteUpdateInput } from "../api/types.ts";
import { ApiError, SafetyError } from "../errors.ts";
import type { LiveWebsite } from "../model/website.ts";
import { type FieldName, WEBSITE_FIELDS } from "../model/website-fields.ts";
import type { FieldChange, ProjectDelete, WebsiteCreate, WebsiteDelete, WebsiteUpdate } from "../plan/types.ts";
import type { ApplyOptions, ItemResult } from "./types.ts";

/** POST attempts for one create when each answer was ambiguous and the domain was then not found. */
const CREATE_ATTEMPTS = 3;

export async function createWebsite(change: WebsiteCreate, client: Client, options: ApplyOptions): Promise<ItemResult> {
  const values = fieldValues(change, options);
  // POST does not take favorite; it is sent by the PUT below.
  const { favorite: _favorite, password, ...fields } = values;
  const input: WebsiteCreateInput = { domain: change.domain, ...fields, ...(password ? { password } : {}) };
  let posted: { site: LiveWebsite; adopted: boolean };
  try {
    posted = await postOrAdopt(input, client);
  } catch (error) {
    if (error instanceof ApiError && error.domainTaken) return await taken(change, error, client);
    throw error;
  }
  const { site, adopted } = posted;
  try {
    // The site found after a lost answer need not be the one our POST made: someone else may have created the
    // domain meanwhile, or the listing missed it. Send every planned value, so that "applied" means what it says.
    if (adopted) await client.websites.update(site.id, values);
    // favorite is only settable by PUT (DESIGN §4): the planned create is executed as POST then PUT.
    else if (change.requests === 2) await client.websites.update(site.id, { favorite: true });
  } catch (error) {
    // The site exists now: say so, with its id, so that nobody creates it again by hand (a rerun converges).
    const message = error instanceof Error ? error.message : String(error);
    const missing = adopted ? "values" : "favorite";
    return { change, status: "failed", reason: "incomplete", detail: { missing }, id: site.id, error: { message } };
  }
  return { change, status: "applied", reason: adopted ? "adopted" : "applied", id: site.id };
}

/**
 * A POST that failed ambiguously (timeout, reset, 5xx) may have been committed, so it is never blindly
 * repeated: look the domain up first and adopt the site if it exists (DESIGN §6).
 */
async function postOrAdopt(input: WebsiteCreateInput, client: Client): Promise<{ site: LiveWebsite; adopted: boolean }> {
  let ambiguous = false;
  for (let attempt = 1; ; attempt++) {
    try {
      return { site: await client.websites.create(input), adopted: false };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // After an ambiguous attempt, "already taken" may be our own earlier POST, committed late.
      const takenByUs = ambiguous && error.domainTaken;
      if (!error.ambiguous && !takenByUs) throw error;
      ambiguous = true;
      const existing = await client.websites.find(input.domain);
      if (existing) return { site: existing, adopted: true };
      if (takenByUs || attempt >= CREATE_ATTEMPTS) throw error;
    }
  }
}

/**
 * A create refused because the domain is taken. Domains are unique across the whole server (API-NOTES §2.4),
 * so it is either in this account now, made after the plan read it (another run of sitesync, or the web UI),
 * or another account's: one lookup tells which, for the hint. Never adopted: it is not ours to take over.
 */
async function taken(change: WebsiteCreate, error: ApiError, client: Client): Promise<ItemResult> {
  const existing = await client.websites.find(change.domain).catch(() => undefined);
  const detail = existing ? { takenBy: "this-account" as const, id: existing.id } : { takenBy: "another-account" as const };
  return { change, status: "failed", reason: "taken", detail, error: errorOf(error) };
}

/** What a results file keeps of an API error. */
export function errorOf(error: ApiError): NonNullable<ItemResult["error"]> {
  return {
    message: error.message,
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.fieldErrors ? { fieldErrors: error.fieldErrors } : {}),
  };
}

export async function updateWebsite(change: WebsiteUpdate, client: Client, options: ApplyOptions): Promise<ItemResult> {
  try {
    await client.websites.update(change.id, fieldValues(change, options));
  } catch (error) {
    // The real API answers a PUT on a missing website with 500, not 404 (API-NOTES §2.5): tell them apart.
    if (error instanceof ApiError && error.status === 500 && (await isGone(client, change.id))) {
      throw new ApiError({
        kind: "http",
        method: error.method,
        url: error.url,
        status: 404,
        message: `website ${change.domain} (id ${change.id}) no longer exists; plan again`,
        cause: error,
      });
    }
    throw error;
  }
  return { change, status: "applied", reason: "applied", id: change.id };
}

async function isGone(client: Client, id: number): Promise<boolean> {
  try {
    await client.websites.show(id);
    return false;
  } catch (error) {
    return error instanceof ApiError && error.status === 404;
  }
}

export async function deleteWebsite(change: WebsiteDelete, client: Client): Promise<ItemResult> {
  return alreadyGoneIsDone(change, () => client.websites.delete(change.id));
}

export async function deleteProject(change: ProjectDelete, client: Client): Promise<ItemResult> {
  return alreadyGoneIsDone(change, () => client.projects.delete(change.project));
}

/** A delete answered 404 reached its goal: the item is gone (DESIGN §5, and what a rerun needs to converge). */
async function alreadyGoneIsDone(change: WebsiteDelete | ProjectDelete, request: () => Promise<unknown>): Promise<ItemResult> {
  try {
    await request();
    return { change, status: "applied", reason: "applied" };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return { change, status: "applied", reason: "already-gone" };
    throw error;
  }
}

/** The request fields of a planned change; the password comes from the config, never from the plan. */
function fieldValues(change: WebsiteCreate | WebsiteUpdate, options: ApplyOptions): WebsiteUpdateInput {
  const input: WebsiteUpdateInput = {};
  for (const field of change.fields) setField(input, field, change.domain, options);
  return input;
}

function setField(input: WebsiteUpdateInput, field: FieldChange, domain: string, options: ApplyOptions): void {
  if (field.field === "password") {
    const password = options.passwordOf(domain);
    // apply() refuses such a plan before any request; this is the last line of defence.
    if (password === undefined) throw new SafetyError("password-unavailable", `the password of ${domain} is not available`);
    input.password = password;
    return;
  }
  // The plan holds every other value as the API takes it; an unknown (`null`) list is sent empty.
  const value = field.after === null && isList(field.field) ? [] : field.after;
  Object.assign(input, { [field.field]: value });
}

function isList(field: FieldName): boolean {
  const { kind } = WEBSITE_FIELDS[field];
  return kind === "list" || kind === "set";
}
