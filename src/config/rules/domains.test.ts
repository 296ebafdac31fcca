import { describe, expect, it } from "vitest";
import { checkRule, yaml } from "../../../test/helpers/config.ts";
import { apiUrls, describeUrlProblem } from "./api-urls.ts";
import { domainRejectedByApi, domainStoredDifferently, duplicateDomains, duplicateProjects } from "./domains.ts";

describe("duplicateDomains", () => {
  it("errs at the second entry and names the line of the first", () => {
    const source = yaml`
      version: 1
      websites:
        - domain: example.com
        - domain: other.example.com
        - domain: example.com
    `;
    expect(checkRule(duplicateDomains, source)).toEqual([
      '5:13 websites[2].domain: duplicate website "example.com": already listed at line 3; keep one entry',
    ]);
  });

  it("compares domains after normalization, and says how each was written", () => {
    const source = "version: 1\nwebsites:\n  - domain: WWW.example.com\n  - domain: example.com.\n    state: absent\n";
    expect(checkRule(duplicateDomains, source)).toEqual([
      '4:13 websites[1].domain: duplicate website: "example.com." and "WWW.example.com" (line 3) are both stored as "example.com"; keep one entry',
    ]);
  });

  it("accepts distinct domains", () => {
    expect(checkRule(duplicateDomains, "version: 1\nwebsites:\n  - domain: a.example.com\n  - domain: b.example.com\n")).toEqual([]);
  });
});

describe("duplicateProjects", () => {
  it("errs at the second entry, ignoring case as the API's grouping does", () => {
    const source = "version: 1\nwebsites: []\nprojects:\n  - project: example.com\n  - project: b.com\n  - project: EXAMPLE.com\n";
    expect(checkRule(duplicateProjects, source)).toEqual([
      '6:14 projects[2].project: duplicate project "EXAMPLE.com": already listed at line 4; keep one entry',
    ]);
  });
});

describe("domainRejectedByApi", () => {
  it("refuses what the API's domain rule refuses, with the reason", () => {
    const source = yaml`
      version: 1
      websites:
        - domain: localhost
        - domain: example.com:8443
        - domain: example.com/shop
        - domain: example.123
        - domain: 203.0.113.7
        - domain: xn--bcher-kva.example
    `;
    expect(checkRule(domainRejectedByApi, source)).toEqual([
      '3:13 websites[0].domain: the API rejects "localhost" ("Invalid domain name."): a domain needs a dot, like stats.example.com, unless it is an IPv4 address',
      '4:13 websites[1].domain: the API rejects "example.com:8443" ("Invalid domain name."): a website is a host name alone, without a port',
      '5:13 websites[2].domain: the API rejects "example.com/shop" ("Invalid domain name."): a website is a host name alone, without a path',
      '6:13 websites[3].domain: the API rejects "example.123" ("Invalid domain name."): use a host name like stats.example.com, or an IPv4 address',
    ]);
  });

  it("lets a tombstone name anything: it only ever deletes", () => {
    expect(checkRule(domainRejectedByApi, "version: 1\nwebsites:\n  - domain: intranet\n    state: absent\n")).toEqual([]);
  });
});

describe("domainStoredDifferently", () => {
  it("warns with the stored form, tombstones included", () => {
    const source =
      "version: 1\nwebsites:\n  - domain: http://www.example.com\n  - domain: Old.example.com\n    state: absent\n  - domain: ok.example.com\n";
    expect(checkRule(domainStoredDifferently, source)).toEqual([
      '3:13 (warning) websites[0].domain: "http://www.example.com" is stored by the API as "example.com"; write it that way',
      '4:13 (warning) websites[1].domain: "Old.example.com" is stored by the API as "old.example.com"; write it that way',
    ]);
  });

  it("removes every www. once the domain starts with one, as the API does", () => {
    expect(checkRule(domainStoredDifferently, "version: 1\nwebsites:\n  - domain: www.shop.www.example.com\n")).toEqual([
      '3:13 (warning) websites[0].domain: "www.shop.www.example.com" is stored by the API as "shop.example.com"; write it that way',
    ]);
  });
});

describe("apiUrls", () => {
  it("accepts https anywhere and http on loopback only", () => {
    for (const ok of [
      "https://analytics.example.com",
      "https://a.example.com/api/v1/",
      "http://127.0.0.1:8080",
      "http://localhost:3000",
      "http://[::1]:9",
    ]) {
      expect(describeUrlProblem(ok), ok).toBeUndefined();
    }
  });

  it("refuses plain http to another host, since the key would travel in clear text", () => {
    const source = "version: 1\nwebsites_url: http://10.0.0.5\nprojects_url: ftp://seo.example.com\nwebsites: []\n";
    expect(checkRule(apiUrls, source)).toEqual([
      "2:15 websites_url: plain http:// would send the API key unencrypted to 10.0.0.5; use https:// (http:// is allowed only for localhost, 127.0.0.1 and [::1])",
      "3:15 projects_url: must be an http(s) address, like https://analytics.example.com",
    ]);
  });

  it("refuses credentials and query strings without repeating them", () => {
    const withUser = describeUrlProblem("https://user:topsecret@analytics.example.com");
    expect(withUser).toBe("must not hold a user name or password; the API key comes from SITESYNC_API_KEY");
    expect(describeUrlProblem("https://analytics.example.com/?api_token=topsecret")).not.toContain("topsecret");
  });
});
