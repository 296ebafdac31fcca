/**
 * A base loaded from the entries in which it differs from the config now (entry-chunks.ts), beside the config
 * now cut to its own differing entries: the change between the two is the change between the whole files
 * (DESIGN §3), for the cost of loading a few entries instead of the base's every one (DESIGN §8 "Loading").
 */
import type { Env } from "../config/interpolate.ts";
import { loadConfig } from "../config/load.ts";
import { configDigest, readConfigBytes } from "../config/read-bounded.ts";
import type { ConfigSource } from "../config/source.ts";
import type { Config } from "../config/types.ts";
import { reducedTexts } from "./entry-chunks.ts";

/** No file besides the root: a base whose cut text includes others is loaded whole instead. */
const ROOT_ONLY: ConfigSource = { list: async () => undefined, read: async (files) => files.map(() => "not given") };

/**
 * The base and the config now, each with only the entries the other does not write alike; `undefined` when
 * that cannot stand for the whole (a config of several files or accounts, a file on disk that is not the one
 * loaded, texts not cut alike, a cut text that does not load, or a base that listed a domain twice).
 */
export async function loadByEntries(
  baseText: string,
  head: Config,
  options: { env?: Env; loader?: typeof loadConfig },
): Promise<{ base: Config; now: Config } | undefined> {
  if (head.includes !== undefined || head.accounts !== undefined || head.account !== undefined) return undefined;
  const bytes = readConfigBytes(head.file);
  if (typeof bytes === "string" || configDigest(bytes) !== head.digest) return undefined;
  const texts = reducedTexts(baseText, bytes.toString("utf8"));
  if (!texts) return undefined;
  const load = (source: string) =>
    (options.loader ?? loadConfig)(head.file, {
      source,
      unsetEnv: "warning",
      files: ROOT_ONLY,
      ...(options.env ? { env: options.env } : {}),
    });
  const [base, now] = [await load(texts.base), await load(texts.now)];
  if (!base.ok || !now.ok) return undefined;
  // A domain of the base's own entries that an entry left out of both still lists: the base listed it twice.
  // The few such domains are looked for in the config now, not the config now put in a set (100,000 entries).
  const cut = new Set(now.config.websites.map((site) => site.domain));
  const gone = new Set(base.config.websites.filter((site) => !cut.has(site.domain)).map((site) => site.domain));
  if (gone.size > 0 && head.websites.some((site) => gone.has(site.domain))) return undefined;
  return { base: base.config, now: now.config };
}
