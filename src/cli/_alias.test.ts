import { describe, expect, it } from "vitest";
import { UsageError } from "../errors.ts";
import { exportUpdateAlias } from "./_alias.ts";

describe("export --update FILE, the former spelling of adopt FILE (DESIGN §7)", () => {
  it("is no alias without --update, or with --update after --", () => {
    expect(exportUpdateAlias(["--out", "x.yaml"])).toBeUndefined();
    expect(exportUpdateAlias(["--", "--update", "x.yaml"])).toBeUndefined();
  });

  it("runs adopt on the file, with the flags before and after it, and says the new command", () => {
    expect(exportUpdateAlias(["--verbose", "--update", "site.yaml", "--dry-run"])).toEqual({
      argv: ["site.yaml", "--verbose", "--dry-run"],
      note: "note: `sitesync export --update site.yaml` is now `sitesync adopt site.yaml`",
    });
    expect(exportUpdateAlias(["--update=site.yaml", "--add-unlisted"])?.argv).toEqual(["site.yaml", "--add-unlisted"]);
  });

  it("shows adopt's help for export --update --help, as for export --update FILE --help", () => {
    const help = { argv: ["--help"], note: "note: `sitesync export --update FILE` is now `sitesync adopt FILE`" };
    expect(exportUpdateAlias(["--update", "--help"])).toEqual(help);
    expect(exportUpdateAlias(["-h", "--update"])).toEqual(help);
  });

  it.each([[["--update"]], [["--update="]], [["--update", "--dry-run"]]])("refuses %j: --update needs its file", (rest) => {
    expect(() => exportUpdateAlias(rest)).toThrow(
      new UsageError("--update takes the config file to update: sitesync adopt sitesync.yaml (formerly export --update sitesync.yaml)"),
    );
  });

  it.each([["--out"], ["-o"], ["--force"], ["--projects"], ["--out=x.yaml"]])(
    "refuses export's own %s: the file is edited in place",
    (flag) => {
      expect(() => exportUpdateAlias(["--update", "site.yaml", flag])).toThrow(/--update edits its file in place: leave out --out/);
    },
  );

  it.each([["--changed-since"], ["--full"], ["--changed-since=HEAD~1"]])("refuses %s: adopt reads the whole account", (flag) => {
    expect(() => exportUpdateAlias([flag, "--update", "site.yaml"])).toThrow(/always reads the whole account/);
  });
});
