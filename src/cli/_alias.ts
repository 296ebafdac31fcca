/**
 * `sitesync export --update FILE …`, the former spelling of `sitesync adopt FILE …` (DESIGN §7): still
 * accepted, run as adopt with the flags that follow, with a note naming the new command.
 */
import { UsageError } from "../errors.ts";

/** The adopt command line for an `export` command line that has `--update`, else undefined. */
export function exportUpdateAlias(rest: readonly string[]): { argv: string[]; note: string } | undefined {
  const at = rest.findIndex((arg) => arg === "--update" || arg.startsWith("--update="));
  if (at < 0 || rest.slice(0, at).includes("--")) return undefined;
  // `export --update --help` is adopt's help, as `export --update FILE --help` is.
  if (rest.includes("--help") || rest.includes("-h"))
    return { argv: ["--help"], note: "note: `sitesync export --update FILE` is now `sitesync adopt FILE`" };
  const token = rest[at]!;
  const inline = token.startsWith("--update=") ? token.slice("--update=".length) : undefined;
  const file = inline ?? rest[at + 1];
  if (file === undefined || file === "" || (inline === undefined && file.startsWith("-"))) {
    throw new UsageError("--update takes the config file to update: sitesync adopt sitesync.yaml (formerly export --update sitesync.yaml)");
  }
  const others = [...rest.slice(0, at), ...rest.slice(at + (inline === undefined ? 2 : 1))];
  const named = (flags: readonly string[]) => others.some((arg) => flags.some((flag) => arg === flag || arg.startsWith(`${flag}=`)));
  if (named(["--out", "-o", "--force", "--projects"])) {
    throw new UsageError(
      "--update edits its file in place: leave out --out, --force and --projects (the file says whether it manages projects)",
    );
  }
  if (named(["--changed-since", "--full"])) {
    throw new UsageError(
      "export --update always reads the whole account: it adopts drift wherever it is, which a change does not show; leave out --changed-since and --full",
    );
  }
  return { argv: [file, ...others], note: `note: \`sitesync export --update ${file}\` is now \`sitesync adopt ${file}\`` };
}
