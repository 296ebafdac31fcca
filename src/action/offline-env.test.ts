import { describe, expect, it } from "vitest";
import { loadConfig } from "../config/load.ts";
import { offlineEnv } from "./offline-env.ts";

const source = [
  "version: 1",
  "websites:",
  "  - domain: ${SITE_DOMAIN}",
  "    privacy: password",
  "    password: ${STATS_PASSWORD}",
  "  - domain: ${DOCS_DOMAIN:-docs.example.org}",
  "    privacy: private",
  "  - domain: blog.example.com",
  "    privacy: password",
  "    password: literal-$${NOT_A_VAR}",
  "",
].join("\n");

describe("offlineEnv", () => {
  it("stands in for variables referenced without a default that are unset or empty, and only those", async () => {
    const { env, standIns } = offlineEnv(source, { STATS_PASSWORD: "", PATH: "/bin" });
    expect(standIns).toEqual(["SITE_DOMAIN", "STATS_PASSWORD"]);
    expect(env).toMatchObject({
      SITE_DOMAIN: "site-domain.offline.invalid",
      STATS_PASSWORD: "stats-password.offline.invalid",
      PATH: "/bin",
    });
    expect(env.DOCS_DOMAIN).toBeUndefined();
    expect(env.NOT_A_VAR).toBeUndefined();
  });

  it("keeps values that are set", async () => {
    expect(offlineEnv(source, { SITE_DOMAIN: "example.com", STATS_PASSWORD: "x" }).standIns).toEqual([]);
  });

  it("lets a config whose secrets are missing validate, where it would fail without stand-ins", async () => {
    const withoutSecrets = { STATS_PASSWORD: "" };
    expect((await loadConfig("sitesync.yaml", { source, env: withoutSecrets })).ok).toBe(false);
    const result = await loadConfig("sitesync.yaml", { source, env: offlineEnv(source, withoutSecrets).env });
    expect(result.ok && result.config.websites.map((w) => w.domain)).toEqual([
      "site-domain.offline.invalid",
      "docs.example.org",
      "blog.example.com",
    ]);
  });
});
