import { describe, expect, it } from "vitest";
import { loadOk, yaml } from "../../test/helpers/config.ts";
import { changeFromText } from "./change-since.ts";
import { diffConfigs } from "./diff-configs.ts";

const env = { SHOP_PW: "secret-1", SHOP_PW_2: "secret-2" };
const change = (base: string, head: string) => diffConfigs(loadOk(base, env), loadOk(head, env), "HEAD~1");

const base = yaml`
  version: 1
  policy: { prune: true }
  websites:
    - domain: a.example.com
      exclude_params: [utm_source]
    - domain: shop.example.com
      privacy: password
      password: \${SHOP_PW}
    - domain: old.example.com
    - domain: gone.example.com
      state: absent
    - domain: quiet.example.com
      email: true
  projects:
    - project: a.example.com
    - project: old.example.com
`;

describe("diffConfigs", () => {
  it("is empty when nothing but layout and comments changed", async () => {
    const head = `# a comment\n${base.replace("email: true", "email: true   # reports")}`;
    expect(change(base, head)).toEqual({ ref: "HEAD~1", websites: [], projects: [], fullRead: [] });
  });

  it("sends exclude_params when they differ, and nothing else of the website", async () => {
    const head = base.replace("[utm_source]", "[utm_source, fbclid]");
    expect(change(base, head).websites).toEqual([
      { domain: "a.example.com", touch: "changed", edited: ["exclude_params"], send: [{ field: "exclude_params", edit: "edited" }] },
    ]);
  });

  it("sends the password when its ${VAR} name changes, comparing names and never the values", async () => {
    const head = base.replace("${SHOP_PW}", "${SHOP_PW_2}");
    expect(change(base, head).websites).toEqual([
      { domain: "shop.example.com", touch: "changed", edited: ["password"], send: [{ field: "password", edit: "edited" }] },
    ]);
    // Unset at both ends: the names still tell the edit, so the base needs no secret.
    const unset = await changeFromText("HEAD~1", base, loadOk(head, env), {});
    expect(unset.known && unset.change.websites.map((w) => w.send)).toEqual([[{ field: "password", edit: "edited" }]]);
    // The same name with another value behind it is no edit the file shows: that is what password_version is for.
    expect(diffConfigs(loadOk(base, { SHOP_PW: "old" }), loadOk(base, { SHOP_PW: "new" }), "HEAD~1").websites).toEqual([]);
  });

  it("rotates the password when password_version changes, and says a rotation needs one even when none is set", async () => {
    const rotated = base.replace("password: ${SHOP_PW}", "password: ${SHOP_PW}\n    password_version: 2");
    expect(change(base, rotated).websites).toEqual([
      { domain: "shop.example.com", touch: "changed", edited: ["password_version"], send: [{ field: "password", edit: "rotated" }] },
    ]);
    const withoutPassword = base.replace("password: ${SHOP_PW}", "password_version: 2");
    expect(change(base, withoutPassword).websites[0]?.send).toEqual([{ field: "password", edit: "rotated" }]);
  });

  it("does not send a password line that was removed: the account keeps its own", async () => {
    const head = base.replace("    password: ${SHOP_PW}\n", "");
    expect(change(base, head).websites).toEqual([{ domain: "shop.example.com", touch: "changed", edited: ["password"], send: [] }]);
  });

  it("touches added, removed, tombstoned and revived websites, and sends what an added one sets", async () => {
    const head = base
      .replace("  - domain: old.example.com\n", "  - domain: old.example.com\n    state: absent\n")
      .replace("  - domain: gone.example.com\n    state: absent\n", "  - domain: gone.example.com\n")
      .replace("  - domain: quiet.example.com\n    email: true\n", "  - domain: new.example.com\n    exclude_params: ['&']\n");
    expect(change(base, head).websites).toEqual([
      { domain: "gone.example.com", touch: "added", edited: [], send: [] },
      { domain: "new.example.com", touch: "added", edited: [], send: [{ field: "exclude_params", edit: "edited" }] },
      { domain: "old.example.com", touch: "tombstoned", edited: [], send: [] },
      { domain: "quiet.example.com", touch: "removed", edited: [], send: [] },
    ]);
  });

  it("compares by normalized domain and exclude_ips as a set, as the plan does", async () => {
    const ips = base.replace("email: true", "exclude_ips: [203.0.113.7, 198.51.100.1]");
    const reordered = ips
      .replace("[203.0.113.7, 198.51.100.1]", "[198.51.100.1, 203.0.113.7]")
      .replace("quiet.example.com", "QUIET.example.com");
    expect(change(ips, reordered).websites).toEqual([]);
  });

  it("reads in full when defaults, policy or an account address change, with each reason as a code", async () => {
    const head = base
      .replace("policy: { prune: true }", "policy: { prune: true, max_deletes: 9 }\ndefaults: { email: true }")
      .replace("version: 1", "version: 1\nwebsites_url: https://stats.example.com");
    const result = change(base, head);
    expect(result.fullRead).toEqual(["defaults", "policy", "websites-url"]);
    // A default reaches every website that does not set the field: those are touched too.
    expect(result.websites.map((w) => [w.domain, w.edited])).toEqual([
      ["a.example.com", ["email"]],
      ["old.example.com", ["email"]],
      ["shop.example.com", ["email"]],
    ]);
  });

  it("tells a password in defaults by its name, and sends it to the websites that take it", async () => {
    const withDefault = base.replace("policy: { prune: true }", "policy: { prune: true }\ndefaults: { password: '${SHOP_PW}' }");
    const shared = withDefault.replace("    password: ${SHOP_PW}\n", "");
    const renamed = shared.replace("defaults: { password: '${SHOP_PW}' }", "defaults: { password: '${SHOP_PW_2}' }");
    const result = change(shared, renamed);
    expect(result.fullRead).toEqual(["defaults"]);
    expect(result.websites).toEqual([
      { domain: "shop.example.com", touch: "changed", edited: ["password"], send: [{ field: "password", edit: "edited" }] },
    ]);
  });

  it("touches projects added, removed and tombstoned, by name without case", async () => {
    const head = base
      .replace("  - project: old.example.com\n", "  - project: old.example.com\n    state: absent\n  - project: NEW.example.com\n")
      .replace("  - project: a.example.com\n", "  - project: A.example.com\n");
    expect(change(base, head).projects).toEqual([
      { project: "NEW.example.com", touch: "added" },
      { project: "old.example.com", touch: "tombstoned" },
    ]);
    const without = base.replace(/projects:[\s\S]*$/, "");
    expect(change(base, without).projects).toEqual([]);
    expect(change(without, base).projects).toEqual([
      { project: "a.example.com", touch: "added" },
      { project: "old.example.com", touch: "added" },
    ]);
  });
});

describe("changeFromText", () => {
  it("knows no change when the base does not load, and says where it fails without quoting it", async () => {
    const result = await changeFromText(
      "abc123",
      "version: 1\nwebsites:\n  - domain: a.example.com\n    password: [hunter2]\n",
      loadOk(base, env),
      env,
    );
    expect(result).toEqual({ known: false, ref: "abc123", reason: "base-invalid", detail: { line: 4, column: 15, code: "schema.type" } });
  });

  it("knows no change when the base text includes other files: one text cannot hold them, and today's are not its", async () => {
    const result = await changeFromText("abc123", 'version: 1\ninclude: ["clients/*.yaml"]\n', loadOk(base, env), env);
    expect(result).toEqual({ known: false, ref: "abc123", reason: "many-files" });
  });
});
