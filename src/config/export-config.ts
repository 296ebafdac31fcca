/**
 * `sitesync export`: the live account as a config file in the same format (DESIGN §7), sorted, with the
 * schema modeline. Write-only fields cannot be read back, so they are omitted with a comment. A password
 * protected site is `privacy: password` with no password line: that keeps the password the account already
 * has (DESIGN §2), so the file plans to no changes with no secret set.
 */

import { isAbsolute, relative, sep } from "node:path";
import { Document, isMap, isSeq, type YAMLMap } from "yaml";
import { plural } from "../model/plural.ts";
import { printable } from "../model/printable.ts";
import type { LiveProject } from "../model/project.ts";
import type { LiveWebsite } from "../model/website.ts";
import { PRIVACY_NAMES } from "../model/website-fields.ts";
import { fitWebsites, type LeftOut, type Listed } from "./export-fit.ts";
import { escapeReferences } from "./interpolate.ts";

/** Options of {@link exportConfig}. */
export interface ExportOptions {
  /** The path written after `$schema=` in the modeline ({@link schemaReference}); none: a note says why there is none. */
  schemaPath?: string | undefined;
  /** Written as `websites_url:` (else the file relies on `--websites-url` or `SITESYNC_WEBSITES_URL`). */
  websitesUrl?: string;
  /** Written as `projects_url:` when projects are exported. */
  projectsUrl?: string;
  /** Whether a live value holds a secret of the run, which the written file would mask: such a value is left out. */
  holdsSecret?: (text: string) => boolean;
}

/** The live account to export: as read by `readLive` or the client's `readAll()`. */
export interface ExportInput {
  websites: LiveWebsite[];
  /** Exported as a `projects:` list when given. */
  projects?: LiveProject[];
}

export interface ExportResult {
  yaml: string;
  /** What no config can hold, left out of `yaml` (which says so where it would be): see {@link fitWebsites}. */
  leftOut: LeftOut[];
}

/** Where an exported file's modeline may point, for {@link schemaReference}. */
export interface SchemaLocation {
  /** Absolute paths of schema files that exist, in order of preference: the running copy's first. */
  schemaFiles: readonly string[];
  /**
   * The repository the file is written in: the nearest folder up from it that holds `.git`, else the nearest
   * that holds `package.json`, else the file's own folder.
   */
  projectRoot: string;
}

/**
 * The `$schema=` of an exported file's modeline: a relative path from the file's folder (`outputDir`) to the
 * first schema file inside its repository (sitesync installed as a dependency there, or a checkout of
 * sitesync itself), so that it resolves for whoever clones the repository and installs it. A copy outside
 * the repository (a global install, npx's cache, another project's node_modules) would resolve on this
 * machine only and break for every teammate once committed, and the package is on no CDN that would serve a
 * URL: then there is no modeline (undefined).
 */
export function schemaReference(outputDir: string, { schemaFiles, projectRoot }: SchemaLocation): string | undefined {
  const file = schemaFiles.find((candidate) => isInside(projectRoot, candidate));
  if (file === undefined) return undefined;
  const path = relative(outputDir, file).split(sep).join("/");
  return path.startsWith(".") ? path : `./${path}`;
}

function isInside(folder: string, file: string): boolean {
  const path = relative(folder, file);
  return path !== "" && path !== ".." && !path.startsWith(`..${sep}`) && !isAbsolute(path);
}

/** In place of the modeline when no schema file is inside the repository ({@link schemaReference}). */
const NO_MODELINE = [
  " No $schema modeline: this copy of sitesync is installed outside the repository, where a teammate's clone",
  " would not find its schema. With sitesync installed in the repository (node_modules/sitesync), export writes one.",
];

/**
 * The live account as a config file in sitesync's format (what `sitesync export` writes): sorted by domain,
 * with the schema modeline and a note on the write-only fields it cannot read back. It holds no secret and
 * needs none: planning it against the same account shows no changes.
 */
export function exportConfig(live: ExportInput, options: ExportOptions): ExportResult {
  const { listed, leftOut } = fitWebsites(live.websites, options.holdsSecret);
  const websites = listed.sort((a, b) => a.domain.localeCompare(b.domain));
  const body: Record<string, unknown> = { version: 1 };
  if (options.websitesUrl) body.websites_url = literal(options.websitesUrl);
  if (options.projectsUrl && live.projects) body.projects_url = literal(options.projectsUrl);
  body.websites = websites.map(({ site, domain, excludeIpsLeftOut }) => {
    // privacy: password alone keeps the stored password (DESIGN §2). The domain as the API would store it.
    const entry: Record<string, unknown> = { domain: literal(domain), privacy: PRIVACY_NAMES[site.privacy] ?? site.privacy };
    entry.email = site.email !== 0;
    entry.exclude_bots = site.exclude_bots !== 0;
    if (excludeIpsLeftOut === undefined) entry.exclude_ips = site.exclude_ips.map(literal);
    entry.favorite = site.favorite;
    return entry;
  });
  if (live.projects) {
    body.projects = [...live.projects].sort((a, b) => a.project.localeCompare(b.project)).map((p) => ({ project: literal(p.project) }));
  }

  const doc = new Document(body);
  doc.commentBefore = [
    ...(options.schemaPath === undefined ? NO_MODELINE : [` yaml-language-server: $schema=${options.schemaPath}`]),
    ` Exported by sitesync from the live account: ${plural(websites.length, "website")}${leftOutCount(leftOut)}.`,
    " exclude_params and passwords are write-only (the API never returns them), so they are not exported.",
    " privacy: password without a password keeps the stored one. A plan that follows the change",
    " (--changed-since REF; the Action on a pull request) sends the exclude_params and password lines a",
    " commit edits; to send a new value behind the same password: ${VARIABLE}, change password_version",
    " in that commit. --sync-write-only sends every exclude_params and password this file sets.",
    ...leftOutWebsites(leftOut),
  ].join("\n");
  flowShortLists(doc, websites);
  return { yaml: doc.toString({ lineWidth: 0 }), leftOut };
}

function leftOutCount(leftOut: readonly LeftOut[]): string {
  const whole = leftOut.filter((item) => item.field === undefined).length;
  const fields = leftOut.length - whole;
  const parts = [
    whole > 0 ? `${plural(whole, "website")} left out (below)` : "",
    fields > 0 ? `${plural(fields, "exclude_ips list")} left out` : "",
  ];
  const said = parts.filter((part) => part !== "");
  return said.length === 0 ? "" : `; ${said.join(", ")}`;
}

/** The header's list of the websites left out whole: they have no entry to hold a comment. */
function leftOutWebsites(leftOut: readonly LeftOut[]): string[] {
  const whole = leftOut.filter((item) => item.field === undefined);
  if (whole.length === 0) return [];
  return [
    " Left out, as no config can hold them:",
    ...whole.map((item) => `   ${commentText(item.domain)} (id ${item.id}): ${commentText(item.why)}`),
  ];
}

/**
 * Live text in a comment, every character YAML refuses in a file written as an escape: `printable` escapes
 * control characters and U+FFFE, U+FFFF; a lone surrogate is escaped here. The account's text must not make
 * its own export unreadable.
 */
function commentText(text: string): string {
  return printable(text).replace(LONE_SURROGATE, (char) => `\\u${char.charCodeAt(0).toString(16)}`);
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * A value read from the account, written so that loading the file gives it back as is: `${` becomes `$${`
 * (DESIGN §2). Else a live `${SITESYNC_API_KEY}` would be read as a reference by the next plan (DESIGN §7).
 */
function literal(value: string): string {
  return escapeReferences(value);
}

/**
 * `exclude_ips: []` and short lists read better on one line. An entry whose `exclude_ips` were left out
 * says why above it.
 */
function flowShortLists(doc: Document, listed: readonly Listed[]): void {
  const websites = doc.get("websites");
  if (!isSeq(websites)) return;
  websites.items.forEach((item, index) => {
    if (!isMap(item)) return;
    const why = listed[index]?.excludeIpsLeftOut?.why;
    if (why !== undefined) item.commentBefore = ` ${commentText(why)}`;
    const ips = (item as YAMLMap).get("exclude_ips");
    if (isSeq(ips) && ips.items.length <= 3) ips.flow = true;
  });
}
