import type { Diagnostic } from "../errors.ts";
import type { Policy } from "../model/policy.ts";
import type { DesiredProject } from "../model/project.ts";
import type { DesiredWebsite } from "../model/website.ts";
import type { WebsiteFields } from "../model/website-fields.ts";

/** A loaded, validated and normalized config: the Desired side of the pipeline. */
export interface Config {
  /** The path the config was read from, as given. */
  file: string;
  /**
   * sha256 (hex) of the raw file bytes, or with `include`, of every file's name and digest: a saved plan
   * (and a review) refuses to apply when any of them changed.
   */
  digest: string;
  /** The files the root's `include:` brought in, in the order they were read; absent without `include`. */
  includes?: { file: string; digest: string }[];
  websitesUrl?: string;
  projectsUrl?: string;
  policy: Policy;
  /**
   * `defaults` as written, canonical; a `${VAR}` password as `passwordRef`. Already applied to `websites`:
   * kept so that a change can tell an edit of defaults (which reads the account in full: DESIGN §3).
   */
  defaults: WebsiteFields & { passwordRef?: string };
  /** Every listed website with `defaults` applied, domains normalized, in file order. */
  websites: DesiredWebsite[];
  /** `undefined` when the file has no `projects` key: projects are then not managed at all. */
  projects?: DesiredProject[];
  /**
   * The root's `accounts:`, in the order written; absent without it (the config is then one account, as
   * `websites`, `projects`, `policy` and the URLs above describe).
   */
  accounts?: ConfigAccount[];
  /**
   * Set on the config of one account's run (`accountConfig`): which account of `accounts:` it is. A change is
   * then compared with the same account's slice of the base (DESIGN §3).
   */
  account?: Pick<ConfigAccount, "name" | "apiKeyEnv" | "projectsApiKeyEnv">;
  /** Every secret value the file resolved (passwords), so that outputs can be checked and masked. */
  secrets: string[];
}

/** One account of a fleet (`accounts:` in the root file), with the websites and projects of the files that name it. */
export interface ConfigAccount {
  name: string;
  websitesUrl?: string;
  projectsUrl?: string;
  /** The environment variable that holds its key (default `SITESYNC_API_KEY`). */
  apiKeyEnv: string;
  projectsApiKeyEnv: string;
  /** The root's policy with this account's keys over it. */
  policy: Policy;
  websites: DesiredWebsite[];
  /** `undefined` when none of its files has a `projects` key. */
  projects?: DesiredProject[];
  /** The files that hold its entries, as diagnostics name them: the change that touches one touches it. */
  files: string[];
}

export type LoadResult = { ok: true; config: Config; warnings: Diagnostic[] } | { ok: false; errors: Diagnostic[]; warnings: Diagnostic[] };
