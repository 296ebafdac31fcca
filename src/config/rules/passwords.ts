import { PRIVACY_NAMES } from "../../model/website-fields.ts";
import { type ConfigPath, isRecord } from "../locate.ts";
import type { RuleContext } from "./rule-context.ts";

/** A password on a public or private site is stored and never asked for (API-NOTES §2.4): likely a mistake. */
export function passwordUnused(ctx: RuleContext): void {
  for (const entry of ctx.config.websites) {
    const { site } = entry;
    if (site.state === "absent" || typeof entry.raw.password !== "string") continue;
    if (site.privacy !== 0 && site.privacy !== 1) continue;
    ctx.warn(
      "password.unused",
      [...entry.path, "password"],
      `the password is stored but unused while privacy is ${PRIVACY_NAMES[site.privacy]}`,
      "key",
    );
  }
}

/** The API takes 1 to 128 characters (`min:1|max:128`, counted as PHP's mb_strlen does: API-NOTES §2.4). */
export function passwordLength(ctx: RuleContext): void {
  const check = (value: unknown, path: ConfigPath) => {
    if (typeof value !== "string") return;
    const length = [...value].length;
    // The value itself is never part of a message: it is a secret.
    if (length === 0) ctx.error("password.length", path, "must not be empty: the API takes 1 to 128 characters");
    else if (length > 128) ctx.error("password.length", path, `is ${length} characters long; the API takes at most 128`);
  };
  if (isRecord(ctx.data.defaults)) check(ctx.data.defaults.password, ["defaults", "password"]);
  // A path is built only for an entry that writes a password: an export of 100,000 writes none.
  for (const entry of ctx.config.websites) {
    if (entry.raw.password !== undefined) check(entry.raw.password, [...entry.path, "password"]);
  }
}

/**
 * `password_version` is compared between two versions of the file as text (DESIGN §3): a number that reads
 * inexactly hides an edit. 20261128193000001 and …002 are one double; 1.1 and 1.10 are one number.
 */
export function passwordVersionExact(ctx: RuleContext): void {
  for (const entry of ctx.config.websites) {
    const version = entry.raw.password_version;
    if (typeof version !== "number" || Number.isSafeInteger(version) || !Number.isFinite(version)) continue;
    const why = Number.isInteger(version) ? `is too large to be read exactly (it reads as ${version})` : `is read as the number ${version}`;
    const message = `${why}, so an edit of it may go unseen: quote it, and it is compared as written`;
    ctx.error("password-version.inexact", [...entry.path, "password_version"], message);
  }
}
