/**
 * `sitesync export`: the live account as a config file in the same format (DESIGN §7), sorted, with the
 * schema modeline. Write-only fields cannot be read back, so they are omitted with a comment. A password
 * protected site is `privacy: password` with no password line: that keeps the password the account already
 * has (DESIGN §2), so the file plans to no changes with no secret set.
 */

import { relative, sep } from "node:path";
import { Document, isMap, isSeq, type YAMLMap } from "yaml";
import { plural } from "../model/plural.ts";
import type { LiveProject } from "../model/project.ts";
import type { LiveWebsite } from "../model/website.ts";
import { PRIVACY_NAMES } from "../model/website-fields.ts";
import { escapeReferences } from "./interpolate.ts";

/** Options of {@link exportConfig}. */
export interface ExportOptions {
  /** Path or URL written after `$schema=` in the modeline; {@link schemaReference} picks one that resolves. */
  schemaPath: string;
  /** Written as `websites_url:` (else the file relies on `--websites-url` or `SITESYNC_WEBSITES_URL`). */
  websitesUrl?: string;
  /** Written as `projects_url:` when projects are exported. */
  projectsUrl?: string;
}

/** The live account to export: as read by `readLive` or the client's `readAll()`. */
export interface ExportInput {
  websites: LiveWebsite[];
  /** Exported as a `projects:` list when given. */
  projects?: LiveProject[];
}

export interface ExportResult {
  yaml: string;
}

/** Where the installed package's config schema lives, for {@link schemaReference}. */
export interface SchemaLocation {
  /** Absolute path of `schemas/sitesync.schema.json` in the running copy of sitesync. */
  schemaFile: string;
  /** The running package's version, pinned in the published schema's address. */
  version: string;
}

/**
 * The `$schema=` of an exported file's modeline: always a relative path to the schema file of the running
 * copy of sitesync, so that it resolves from the folder the file goes to (`outputDir`). When the schema is
 * part of that folder's project (sitesync installed as a dependency there, `./node_modules/sitesync/schemas/...`,
 * or a checkout of sitesync itself) it resolves for whoever clones the repository too; from a global install
 * or npx's cache it resolves on this machine. Never a package CDN's address: the package is not published
 * there, so such a URL is a 404. `version` is not part of the path.
 */
export function schemaReference(outputDir: string, { schemaFile }: SchemaLocation): string {
  const path = relative(outputDir, schemaFile).split(sep).join("/");
  return path.startsWith(".") ? path : `./${path}`;
}

/**
 * The live account as a config file in sitesync's format (what `sitesync export` writes): sorted by domain,
 * with the schema modeline and a note on the write-only fields it cannot read back. It holds no secret and
 * needs none: planning it against the same account shows no changes.
 */
export function exportConfig(live: ExportInput, options: ExportOptions): ExportResult {
  const websites = [...live.websites].sort((a, b) => a.domain.localeCompare(b.domain));
  const body: Record<string, unknown> = { version: 1 };
  if (options.websitesUrl) body.websites_url = literal(options.websitesUrl);
  if (options.projectsUrl && live.projects) body.projects_url = literal(options.projectsUrl);
  body.websites = websites.map((site) => {
    // privacy: password alone keeps the stored password (DESIGN §2).
    const entry: Record<string, unknown> = { domain: literal(site.domain), privacy: PRIVACY_NAMES[site.privacy] ?? site.privacy };
    entry.email = site.email !== 0;
    entry.exclude_bots = site.exclude_bots !== 0;
    entry.exclude_ips = site.exclude_ips.map(literal);
    entry.favorite = site.favorite;
    return entry;
  });
  if (live.projects) {
    body.projects = [...live.projects].sort((a, b) => a.project.localeCompare(b.project)).map((p) => ({ project: literal(p.project) }));
  }

  const doc = new Document(body);
  doc.commentBefore = [
    ` yaml-language-server: $schema=${options.schemaPath}`,
    ` Exported by sitesync from the live account: ${plural(websites.length, "website")}.`,
    " exclude_params and passwords are write-only (the API never returns them), so they are not exported.",
    " privacy: password without a password keeps the stored one. A plan that follows the change",
    " (--changed-since REF; the Action on a pull request) sends the exclude_params and password lines a",
    " commit edits; to send a new value behind the same password: ${VARIABLE}, change password_version",
    " in that commit. --sync-write-only sends every exclude_params and password this file sets.",
  ].join("\n");
  flowShortLists(doc);
  return { yaml: doc.toString({ lineWidth: 0 }) };
}

/**
 * A value read from the account, written so that loading the file gives it back as is: `${` becomes `$${`
 * (DESIGN §2). Else a live `${SITESYNC_API_KEY}` would be read as a reference by the next plan (DESIGN §7).
 */
function literal(value: string): string {
  return escapeReferences(value);
}

/** `exclude_ips: []` and short lists read better on one line. */
function flowShortLists(doc: Document): void {
  const websites = doc.get("websites");
  if (!isSeq(websites)) return;
  for (const item of websites.items) {
    if (!isMap(item)) continue;
    const ips = (item as YAMLMap).get("exclude_ips");
    if (isSeq(ips) && ips.items.length <= 3) ips.flow = true;
  }
}
