import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { diagnosticsOf, load, loadOk, yaml } from "../../test/helpers/config.ts";
import { DEFAULT_POLICY } from "../model/policy.ts";

describe("normalization", () => {
  it("stores domains the way the API does: lowercase, no scheme, no www., no trailing dot or slash", () => {
    const result = load(yaml`
      version: 1
      websites:
        - domain: www.Example.com
        - domain: https://Shop.Example.org/
        - domain: blog.example.net.
        - domain: stats.example.com
    `);
    expect(result.ok && result.config.websites.map((w) => w.domain)).toEqual([
      "example.com",
      "shop.example.org",
      "blog.example.net",
      "stats.example.com",
    ]);
    expect(diagnosticsOf(result)).toEqual([
      '3:13 (warning) websites[0].domain: "www.Example.com" is stored by the API as "example.com"; write it that way',
      '4:13 (warning) websites[1].domain: "https://Shop.Example.org/" is stored by the API as "shop.example.org"; write it that way',
      '5:13 (warning) websites[2].domain: "blog.example.net." is stored by the API as "blog.example.net"; write it that way',
    ]);
  });

  it("turns privacy names into the API's numbers and flags into 0/1", () => {
    const config = loadOk(yaml`
      version: 1
      websites:
        - { domain: a.example.com, privacy: public, email: true, exclude_bots: false, favorite: true }
        - { domain: b.example.com, privacy: private, email: 0, exclude_bots: 1, favorite: false }
        - { domain: c.example.com, privacy: 2, password: pw }
    `);
    expect(config.websites.map(({ source: _, ...w }) => w)).toEqual([
      { domain: "a.example.com", state: "present", privacy: 0, email: 1, exclude_bots: 0, favorite: true },
      { domain: "b.example.com", state: "present", privacy: 1, email: 0, exclude_bots: 1, favorite: false },
      { domain: "c.example.com", state: "present", privacy: 2, password: "pw" },
    ]);
  });

  it("trims list entries and keeps their order", () => {
    const config = loadOk(
      'version: 1\nwebsites:\n  - domain: a.example.com\n    exclude_ips: [" 203.0.113.7 ", 10.0.0.0/8]\n    exclude_params: [" utm_source", "&"]\n',
    );
    expect(config.websites[0]).toMatchObject({ exclude_ips: ["203.0.113.7", "10.0.0.0/8"], exclude_params: ["utm_source", "&"] });
  });

  it("leaves a field that neither the website nor defaults sets absent, so it stays unmanaged", () => {
    const config = loadOk("version: 1\nwebsites:\n  - domain: a.example.com\n");
    expect(Object.keys(config.websites[0] ?? {}).sort()).toEqual(["domain", "source", "state"]);
  });

  it("records where each domain is written, for annotations", () => {
    const config = loadOk("version: 1\nwebsites:\n  - privacy: public\n    domain: a.example.com\nprojects:\n  - project: a.example.com\n");
    expect(config.websites[0]?.source).toEqual({ file: "sitesync.yaml", line: 4, column: 13 });
    expect(config.projects?.[0]?.source).toEqual({ file: "sitesync.yaml", line: 6, column: 14 });
  });
});

describe("defaults", () => {
  const source = yaml`
    version: 1
    defaults:
      privacy: private
      exclude_bots: true
      exclude_ips: [203.0.113.7]
      password: shared-secret
    websites:
      - domain: a.example.com
      - domain: b.example.com
        privacy: password
        exclude_ips: []
      - domain: c.example.com
        privacy: password
        password: own-secret
      - domain: old.example.com
        state: absent
  `;

  it("fill every field a website does not set; the website's own value wins, even an empty list", () => {
    const [a, b, c] = loadOk(source).websites;
    expect(a).toMatchObject({ privacy: 1, exclude_bots: 1, exclude_ips: ["203.0.113.7"] });
    expect(b).toMatchObject({ privacy: 2, exclude_bots: 1, exclude_ips: [] });
    expect(c).toMatchObject({ privacy: 2, password: "own-secret" });
  });

  it("give their password only to websites whose privacy is password", () => {
    const [a, b] = loadOk(source).websites;
    expect(a?.password).toBeUndefined();
    expect(b?.password).toBe("shared-secret");
  });

  it("do not reach tombstones", () => {
    const old = loadOk(source).websites[3];
    expect(old).toEqual({ domain: "old.example.com", state: "absent", source: { file: "sitesync.yaml", line: 15, column: 13 } });
  });

  it("are copied, so that changing one website's list leaves the others alone", () => {
    const [a, b] = loadOk(
      "version: 1\ndefaults:\n  exclude_params: [x]\nwebsites:\n  - domain: a.example.com\n  - domain: b.example.com\n",
    ).websites;
    a?.exclude_params?.push("y");
    expect(b?.exclude_params).toEqual(["x"]);
  });
});

describe("YAML anchors", () => {
  it("share values through x- keys, aliases and << merge keys", () => {
    const config = loadOk(yaml`
      version: 1
      x-office: &office [203.0.113.7]
      websites:
        - &shop
          domain: shop.example.com
          privacy: private
          exclude_ips: *office
        - <<: *shop
          domain: shop.example.org
    `);
    expect(config.websites.map(({ domain, privacy, exclude_ips }) => ({ domain, privacy, exclude_ips }))).toEqual([
      { domain: "shop.example.com", privacy: 1, exclude_ips: ["203.0.113.7"] },
      { domain: "shop.example.org", privacy: 1, exclude_ips: ["203.0.113.7"] },
    ]);
  });
});

describe("the rest of the config", () => {
  it("maps policy keys to the camelCase Policy, with the defaults for what is missing", () => {
    expect(loadOk("version: 1\nwebsites: []\n").policy).toEqual(DEFAULT_POLICY);
    const config = loadOk('version: 1\npolicy:\n  prune: true\n  max_deletes: 0\n  ignore: ["tmp-*"]\nwebsites: []\n');
    expect(config.policy).toEqual({ prune: true, maxDeletes: 0, protect: [], ignore: ["tmp-*"] });
  });

  it("manages projects only when the key is there", () => {
    expect(loadOk("version: 1\nwebsites: []\n").projects).toBeUndefined();
    expect(loadOk("version: 1\nwebsites: []\nprojects: []\n").projects).toEqual([]);
    const config = loadOk("version: 1\nwebsites: []\nprojects:\n  - project: a.com\n  - project: b.com\n    state: absent\n");
    expect(config.projects?.map(({ project, state }) => [project, state])).toEqual([
      ["a.com", "present"],
      ["b.com", "absent"],
    ]);
  });

  it("keeps the API addresses as written (the client normalizes them)", () => {
    const config = loadOk(
      "version: 1\nwebsites_url: https://analytics.example.com/api/v1/\nprojects_url: http://127.0.0.1:8080\nwebsites: []\n",
    );
    expect(config).toMatchObject({ websitesUrl: "https://analytics.example.com/api/v1/", projectsUrl: "http://127.0.0.1:8080" });
  });

  it("has the sha256 of the file's bytes as digest", () => {
    const source = "version: 1\nwebsites: []  # é\n";
    expect(loadOk(source).digest).toBe(createHash("sha256").update(Buffer.from(source, "utf8")).digest("hex"));
    expect(loadOk(`${source}\n`).digest).not.toBe(loadOk(source).digest);
  });
});

describe("password_version and the written password (DESIGN §2)", () => {
  it("reads the rotation marker as text, whether written as a number or as text", () => {
    const config = loadOk(yaml`
      version: 1
      websites:
        - { domain: a.example.com, privacy: password, password: pw, password_version: 2 }
        - { domain: b.example.com, password_version: "2026-11" }
        - { domain: c.example.com }
    `);
    expect(config.websites.map((w) => w.passwordVersion)).toEqual(["2", "2026-11", undefined]);
  });

  it("keeps what the file writes behind a password, from the website or from defaults, and never a literal twice", () => {
    const config = loadOk(
      yaml`
      version: 1
      defaults:
        password: \${SHARED}
      websites:
        - { domain: a.example.com, privacy: password, password: "\${OWN}" }
        - { domain: b.example.com, privacy: password }
        - { domain: c.example.com, privacy: password, password: literal-pw }
    `,
      { SHARED: "shared-value", OWN: "own-value" },
    );
    expect(config.websites.map((w) => [w.password, w.passwordRef])).toEqual([
      ["own-value", "${OWN}"],
      ["shared-value", "${SHARED}"],
      ["literal-pw", undefined],
    ]);
    expect(config.defaults).toEqual({ password: "shared-value", passwordRef: "${SHARED}" });
  });

  it("says .inf is what it is, not a number, where a number or text is wanted", () => {
    const result = load("version: 1\nwebsites:\n  - { domain: a.example.com, password_version: .inf }\n");
    expect(diagnosticsOf(result)).toEqual(["3:48 websites[0].password_version: must be text or a number, not .inf"]);
  });

  it("refuses a marker that is neither text nor a number, one on a tombstone, and one under defaults", () => {
    const result = load(yaml`
      version: 1
      defaults:
        password_version: 1
      websites:
        - { domain: a.example.com, password_version: true }
        - { domain: old.example.com, state: absent, password_version: 3 }
    `);
    expect(diagnosticsOf(result)).toEqual([
      '3:3 defaults.password_version: unknown key "password_version" here: defaults cannot set password_version; set it on each website entry',
      "5:48 websites[0].password_version: must be text or a number, not true",
      "6:47 websites[1].password_version: state: absent deletes this website, so it cannot also set password_version; remove it, or remove state: absent",
    ]);
  });
});
