/**
 * The change as an input (DESIGN §3 "Plans that follow the change"): what differs between the desired state
 * at a base revision and now. `src/change` computes it, `src/plan` follows it; both read these shapes, so
 * they live in the vocabulary. Data with codes only (STYLE 16): the words are chosen in `render/`.
 */
import type { FieldName, WriteOnlyField } from "./website-fields.ts";

/** How an entry differs between the base and now. A tombstone that comes back to life counts as `added`. */
export type TouchKind = "added" | "removed" | "changed" | "tombstoned";

/** What of a website differs: a field of `WEBSITE_FIELDS`, the rotation marker, or its `state`. */
export type EditedKey = FieldName | "password_version" | "state";

/**
 * Why a write-only value is sent: `edited` (`exclude_params` differs, the `password:` line differs in its
 * literal or its `${VAR}` name, or the website is new to the file) or `rotated` (`password_version` differs).
 */
export type WriteOnlyEdit = "edited" | "rotated";

export interface WriteOnlySend {
  field: WriteOnlyField;
  edit: WriteOnlyEdit;
}

export interface TouchedWebsite {
  /** Normalized. */
  domain: string;
  touch: TouchKind;
  /** For `changed`: what differs, in `WEBSITE_FIELDS` order, then `password_version`, then `state`. */
  edited: EditedKey[];
  /**
   * The write-only values the change edits, for a website listed now (`added`, `changed`). A rotation is
   * listed even when the file sets no password: the plan then asks for one (DESIGN §2).
   */
  send: WriteOnlySend[];
}

export interface TouchedProject {
  /** As written now (or at the base, when removed). */
  project: string;
  touch: TouchKind;
}

/** A change that every website depends on: the account is read in full (DESIGN §3). */
export type FullReadReason = "defaults" | "policy" | "websites-url" | "projects-url" | "accounts" | "include";

export interface ConfigChange {
  /** The base revision, as given (`HEAD~1`, `origin/main`, a commit). */
  ref: string;
  /** The commit `ref` named, when it was read from git. */
  commit?: string;
  /** Sorted by domain. */
  websites: TouchedWebsite[];
  /** Sorted by name; empty when projects are not managed now. */
  projects: TouchedProject[];
  /** Empty when only the entries above changed. */
  fullRead: FullReadReason[];
  /**
   * The commit the config now is (HEAD, when none of its files differs from it in the working tree) and its
   * committer time. A touched website written after that time was written by applying this config (or
   * later): what the change sends it was sent already, and is sent again only as a re-send (DESIGN §3).
   * Absent when the config now is not a commit (edited, not in git, or given as text).
   */
  head?: HeadCommit;
}

/** A commit and its committer time (ISO 8601). */
export interface HeadCommit {
  commit: string;
  time: string;
}

/**
 * Why no change is known, so the account is read in full and write-only values are only counted (DESIGN §3):
 * no git repository, a revision that is not one (or cannot be fetched), the file does not exist at the base
 * (added in this change), it or a file it includes cannot be read there, is too large, or does not load,
 * the root's folder there holds too many files to match `include:` against, or a base given as one file's
 * text includes others.
 */
export type UnknownChangeReason =
  | "not-a-repository"
  | "ref-invalid"
  | "ref-unknown"
  | "file-outside-repository"
  | "base-missing"
  | "base-unreadable"
  | "base-too-large"
  | "base-invalid"
  | "base-tree-too-large"
  | "many-files";

/** The change, or why there is none to go by. */
export type ChangeResult =
  | { known: true; change: ConfigChange }
  | {
      known: false;
      ref: string;
      reason: UnknownChangeReason;
      /**
       * Where a base that does not load first fails (`base-invalid`), or git's exit code; never text. `file`:
       * the included file at fault (relative to the root file's folder, `/`-separated).
       */
      detail?: { line?: number; column?: number; code?: string; exitCode?: number; file?: string };
    };

/**
 * Why a lookup of the touched names gave way to a full read: it would cost more (`over-budget`), a name holds
 * only LIKE wildcards and cannot be searched for (`unsearchable`), or the server gives no `meta.total` to
 * weigh the cost by (`no-total`).
 */
export type LookupFallback = "over-budget" | "unsearchable" | "no-total";

/** Why a plan with a known change still reads the account in full: the change itself, `--full`, or its lookups. */
export type FullReadCause = FullReadReason | "full-flag" | LookupFallback;
