import { describe, expect, it } from "vitest";
import { diagnosticsOf, load, loadOk, yaml } from "../../test/helpers/config.ts";
import { interpolate } from "./interpolate.ts";
import { loadConfig } from "./load.ts";

describe("interpolate", () => {
  it("replaces ${VAR} anywhere in a string, as often as it appears", async () => {
    const result = interpolate("${SUB}.${ZONE}/${SUB}", { SUB: "stats", ZONE: "example.com" });
    expect(result).toEqual({ value: "stats.example.com/stats", envValues: ["stats", "example.com", "stats"], problems: [] });
  });

  it("uses the :- default when the variable is unset or empty, as the shell does", async () => {
    expect(interpolate("${A:-x}", {}).value).toBe("x");
    expect(interpolate("${A:-x}", { A: "" }).value).toBe("x");
    expect(interpolate("${A:-x}", { A: "set" }).value).toBe("set");
    expect(interpolate("${A:-}", {}).value).toBe("");
  });

  it("keeps an empty variable without a default empty", async () => {
    expect(interpolate("a${A}b", { A: "" })).toMatchObject({ value: "ab", problems: [] });
  });

  it("reads $${ as a literal ${", async () => {
    expect(interpolate("$${HOME} and ${A}", { A: "a", HOME: "/root" }).value).toBe("${HOME} and a");
  });

  it("never expands a variable's value again: ${ inside it is text", async () => {
    const env = { PASS: "pa${HOME}ss", HOME: "/root" };
    expect(interpolate("${PASS}", env).value).toBe("pa${HOME}ss");
    expect(interpolate("x-${PASS}-$${PASS}", env).value).toBe("x-pa${HOME}ss-${PASS}");
  });

  it("leaves a lone $ alone", async () => {
    expect(interpolate("price$ $5 $A", {}).value).toBe("price$ $5 $A");
  });

  it("reports an unset variable, saying how to set or default it", async () => {
    expect(interpolate("x ${A} ${B}", { A: "1" }).problems).toEqual([
      {
        code: "env.unset",
        occurrence: 1,
        name: "B",
        message: "environment variable B is not set; set it, or give a default with ${B:-value}",
      },
    ]);
  });

  it("refuses a reference nested in a default, which would be read as its text", () => {
    for (const env of [{}, { A: "set" }]) {
      expect(interpolate("${A:-${B}}", env).problems).toEqual([
        { code: "env.syntax", occurrence: 0, message: "a default cannot hold another ${...} reference; write the default out" },
      ]);
    }
  });

  it("reports malformed references without echoing their text", async () => {
    const problems = interpolate("${9LIVES} ${} ${OPEN", {}).problems;
    expect(problems.map((p) => [p.code, p.occurrence])).toEqual([
      ["env.syntax", 0],
      ["env.syntax", 1],
      ["env.syntax", 2],
    ]);
    expect(problems.map((p) => p.message).join()).not.toContain("9LIVES");
  });
});

describe("interpolation in a config", () => {
  it("fills string values and reports an unset variable at its ${", async () => {
    const result = load(yaml`
      version: 1
      websites:
        - domain: "\${SUB}.example.com"
        - domain: a.\${ZONE:-example.org}
        - domain: b.example.org
          password: prefix-\${MISSING}
    `);
    expect(diagnosticsOf(result)).toEqual([
      "3:14 websites[0].domain: environment variable SUB is not set; set it, or give a default with ${SUB:-value}",
      "6:22 websites[2].password: environment variable MISSING is not set; set it, or give a default with ${MISSING:-value}",
    ]);
  });

  it("never interpolates keys", async () => {
    const result = load("version: 1\nwebsites: []\n${KEY}: 1\n", { KEY: "policy" });
    expect(diagnosticsOf(result)).toEqual([
      '3:1 ${KEY}: unknown key "${KEY}"; expected one of version, websites_url, projects_url, accounts, policy, defaults, websites, projects, include',
    ]);
  });

  it("reads an unquoted ${VAR} in a boolean or number field as YAML would", async () => {
    const config = loadOk(
      "version: ${V}\npolicy:\n  prune: ${PRUNE}\n  max_deletes: ${MAX}\nwebsites:\n  - domain: a.example.com\n    email: ${EMAIL}\n    privacy: ${PRIVACY}\n",
      { V: "1", PRUNE: "true", MAX: "12", EMAIL: "false", PRIVACY: "1" },
    );
    expect(config.policy).toMatchObject({ prune: true, maxDeletes: 12 });
    expect(config.websites[0]).toMatchObject({ email: 0, privacy: 1 });
  });

  it("keeps a quoted ${VAR} as text, so a boolean field says it wants true or false", async () => {
    const result = load('version: 1\nwebsites:\n  - domain: a.example.com\n    favorite: "${FAV}"\n', { FAV: "true" });
    expect(diagnosticsOf(result)).toEqual(["4:15 websites[0].favorite: must be true or false, not text"]);
  });

  it("lists passwords and the environment values in them as secrets", async () => {
    const config = loadOk(
      yaml`
        version: 1
        websites:
          - domain: a.example.com
            privacy: password
            password: team-\${TEAM_SECRET}
          - domain: b.example.com
            privacy: password
            password: literal-password
      `,
      { TEAM_SECRET: "hunter22" },
    );
    expect(config.secrets.sort()).toEqual(["hunter22", "literal-password", "team-hunter22"]);
  });

  it("fills the values a `<<` merges: written under it, or anchored there, typed too, never sending `${PW}` itself", () => {
    const text = yaml`
      version: 1
      websites:
        - domain: a.example.com
          <<: {privacy: password, password: "\${PW}"}
        - domain: b.example.com
          <<: &shared
            email: \${MAIL}
        - domain: c.example.com
          <<: *shared
    `;
    const config = loadOk(text, { PW: "hunter22", MAIL: "true" });
    expect(config.websites.map((w) => [w.domain, w.password, w.email])).toEqual([
      ["a.example.com", "hunter22", undefined],
      ["b.example.com", undefined, 1],
      ["c.example.com", undefined, 1],
    ]);
    expect(config.secrets).toEqual(["hunter22"]);
    // Unset, each is an error at its own ${, and nothing more at the value it merges to in its own entry.
    const unset = diagnosticsOf(load(text));
    expect(unset.slice(0, 2)).toEqual([
      "4:40 websites[0].<<.password: environment variable PW is not set; set it, or give a default with ${PW:-value}",
      "7:14 websites[1].<<.email: environment variable MAIL is not set; set it, or give a default with ${MAIL:-value}",
    ]);
    expect(unset.filter((d) => /websites\[[01]\]\.(password|email)/.test(d))).toEqual([]);
  });

  it("points at each alias of a value whose variable is unset, not at the file's first line", () => {
    const text = 'version: 1\ndefaults: {password: &p "${PW}"}\nwebsites:\n  - domain: a.example.com\n    password: *p\n';
    expect(diagnosticsOf(load(text)).map((d) => d.split(" ")[0])).toEqual(["2:26", "5:15"]);
  });

  it("keeps a password whose value holds ${HOME} exactly as set, in a website and in defaults", async () => {
    const env = { PASS: "pa${HOME}ss", HOME: "/root", SUB: "${PASS}" };
    const config = loadOk(
      yaml`
        version: 1
        defaults:
          password: \${PASS}
        websites:
          - domain: a.example.com
            privacy: password
            password: \${PASS}
          - domain: b.example.com
            privacy: password
          - domain: c.example.com
            privacy: password
            password: "\${SUB}"
      `,
      env,
    );
    expect(config.websites.map((w) => w.password)).toEqual(["pa${HOME}ss", "pa${HOME}ss", "${PASS}"]);
  });

  it("keeps a password's spaces, which the API keeps too", async () => {
    const config = loadOk('version: 1\nwebsites:\n  - domain: a.example.com\n    privacy: password\n    password: "${PW}"\n', {
      PW: " spaced ",
    });
    expect(config.websites[0]?.password).toBe(" spaced ");
  });

  it("does not pile other errors on a value whose variable is unset", async () => {
    const result = load("version: 1\nwebsites:\n  - domain: ${SITE}\n");
    expect(diagnosticsOf(result)).toEqual([
      "3:13 websites[0].domain: environment variable SITE is not set; set it, or give a default with ${SITE:-value}",
    ]);
  });

  it("makes an unset variable a note when validating needs no secret (unsetEnv: warning), and nothing else", async () => {
    const source =
      "version: 1\nwebsites:\n  - domain: a.example.com\n    privacy: password\n    password: ${PW}\n    email: ${MAIL}\n  - domain: ${ZONE:-b.example.com}\n";
    const result = await loadConfig("sitesync.yaml", { source, env: {}, unsetEnv: "warning" });
    expect(result.ok).toBe(true);
    expect(diagnosticsOf(result)).toEqual([
      "5:15 (warning) websites[0].password: environment variable PW is not set: plan and apply need it (--strict-env makes this an error)",
      "6:12 (warning) websites[0].email: environment variable MAIL is not set: plan and apply need it (--strict-env makes this an error)",
    ]);
    // A malformed reference stays an error: it is a mistake in the file, not a missing secret.
    const malformed = await loadConfig("sitesync.yaml", {
      source: "version: 1\nwebsites:\n  - domain: ${}\n",
      env: {},
      unsetEnv: "warning",
    });
    expect(malformed.ok).toBe(false);
  });
});
