import { describe, expect, it } from "vitest";
import { checkRule, yaml } from "../../../test/helpers/config.ts";
import { describeIpProblem, invalidExcludeIps } from "./exclude-ips.ts";
import { RULES } from "./index.ts";
import { passwordLength, passwordUnused, passwordVersionExact } from "./passwords.ts";
import { ignoredButListed, protectedTombstone, tombstoneWithFields } from "./tombstones.ts";

describe("invalidExcludeIps", () => {
  it("accepts IPv4, IPv6 and CIDR ranges of either", () => {
    for (const ok of [
      "203.0.113.7",
      "198.51.100.0/24",
      "0.0.0.0/0",
      "10.1.2.3/32",
      "2001:db8::1",
      "2001:db8::/32",
      "::/0",
      "::ffff:192.0.2.1",
    ]) {
      expect(describeIpProblem(ok), ok).toBeUndefined();
    }
  });

  it("refuses what is not an address or has an impossible prefix", () => {
    for (const bad of [
      "203.0.113",
      "256.1.1.1",
      "010.0.0.1",
      "10.0.0.0/33",
      "10.0.0.0/",
      "10.0.0.0/-1",
      "2001:db8::/129",
      "fe80::1%eth0",
      "1.2.3.4/8/9",
      "example.com",
    ]) {
      expect(describeIpProblem(bad), bad).toBeDefined();
    }
  });

  it("points at the bad entry, in defaults and on websites", () => {
    const source = yaml`
      version: 1
      defaults:
        exclude_ips: [203.0.113.7, 203.0.113.0/40]
      websites:
        - domain: a.example.com
          exclude_ips:
            - 198.51.100.1
            - office
    `;
    expect(checkRule(invalidExcludeIps, source)).toEqual([
      '3:30 defaults.exclude_ips[1]: "203.0.113.0/40" has an invalid prefix length: an IPv4 range ends in /0 to /32',
      '8:9 websites[0].exclude_ips[1]: "office" is not an IP address or CIDR range (like 203.0.113.7, 198.51.100.0/24 or 2001:db8::/32)',
    ]);
  });
});

describe("passwordUnused", () => {
  it("warns when a website's own password cannot be used by its privacy", () => {
    const source = yaml`
      version: 1
      websites:
        - domain: a.example.com
          privacy: public
          password: pw
        - domain: b.example.com
          password: pw
    `;
    // b.example.com leaves privacy unmanaged: its live privacy may well be password.
    expect(checkRule(passwordUnused, source)).toEqual([
      "5:5 (warning) websites[0].password: the password is stored but unused while privacy is public",
    ]);
  });
});

describe("passwordLength", () => {
  it("takes 1 to 128 characters, counted as characters, never printing the value", () => {
    const source = yaml`
      version: 1
      defaults:
        password: ""
      websites:
        - { domain: a.example.com, privacy: password, password: "${"é".repeat(128)}" }
        - { domain: b.example.com, privacy: password, password: "${"s".repeat(129)}" }
    `;
    expect(checkRule(passwordLength, source)).toEqual([
      "3:13 defaults.password: must not be empty: the API takes 1 to 128 characters",
      "6:59 websites[1].password: is 129 characters long; the API takes at most 128",
    ]);
  });
});

describe("passwordVersionExact", () => {
  it("refuses a number that reads inexactly, whose edit a plan would not see; takes text and exact integers", () => {
    const source = yaml`
      version: 1
      websites:
        - { domain: a.example.com, password_version: 20261128193000001 }
        - { domain: b.example.com, password_version: 1.10 }
        - { domain: c.example.com, password_version: 9007199254740991 }
        - { domain: d.example.com, password_version: "20261128193000001" }
    `;
    expect(checkRule(passwordVersionExact, source)).toEqual([
      "3:48 websites[0].password_version: is too large to be read exactly (it reads as 20261128193000000), so an edit of it may go unseen: quote it, and it is compared as written",
      "4:48 websites[1].password_version: is read as the number 1.1, so an edit of it may go unseen: quote it, and it is compared as written",
    ]);
  });
});

describe("tombstoneWithFields", () => {
  it("errs at the first field beside state: absent, listing them all", () => {
    const source = "version: 1\nwebsites:\n  - domain: old.example.com\n    favorite: true\n    state: absent\n    email: false\n";
    expect(checkRule(tombstoneWithFields, source)).toEqual([
      "4:5 websites[0].favorite: state: absent deletes this website, so it cannot also set favorite, email; remove them, or remove state: absent",
    ]);
  });

  it("accepts a bare tombstone and a present website with fields", () => {
    const source =
      "version: 1\nwebsites:\n  - domain: old.example.com\n    state: absent\n  - domain: a.example.com\n    state: present\n    email: true\n";
    expect(checkRule(tombstoneWithFields, source)).toEqual([]);
  });
});

describe("protectedTombstone", () => {
  it("errs at state: absent of a protected website or project, naming the pattern", () => {
    const source = yaml`
      version: 1
      policy:
        protect: [keep.example.org, "*.EXAMPLE.com"]
      websites:
        - domain: old.example.com
          state: absent
        - domain: example.com
          state: absent
      projects:
        - project: keep.example.org
          state: absent
    `;
    // "*.example.com" needs a subdomain: example.com itself is not protected by it.
    expect(checkRule(protectedTombstone, source)).toEqual([
      '6:12 websites[0].state: "old.example.com" is protected by policy.protect "*.EXAMPLE.com", so state: absent cannot delete it; remove the protection or the tombstone',
      '11:12 projects[0].state: "keep.example.org" is protected by policy.protect "keep.example.org", so state: absent cannot delete it; remove the protection or the tombstone',
    ]);
  });

  it("lets a protected website be listed as present", () => {
    const source = "version: 1\npolicy:\n  protect: ['*']\nwebsites:\n  - domain: a.example.com\n";
    expect(checkRule(protectedTombstone, source)).toEqual([]);
  });
});

describe("ignoredButListed", () => {
  it("warns that a listed name matching policy.ignore has no effect", () => {
    const source = "version: 1\npolicy:\n  ignore: ['tmp-*']\nwebsites:\n  - domain: tmp-1.example.com\n  - domain: a.example.com\n";
    expect(checkRule(ignoredButListed, source)).toEqual([
      '5:13 (warning) websites[0].domain: "tmp-1.example.com" matches policy.ignore "tmp-*", so sitesync leaves it alone and this entry has no effect',
    ]);
  });
});

describe("RULES", () => {
  it("runs every rule on each load", () => {
    expect(RULES.map((rule) => rule.name).sort()).toEqual(
      [
        "apiUrls",
        "domainRejectedByApi",
        "domainStoredDifferently",
        "duplicateDomains",
        "duplicateProjects",
        "ignoredButListed",
        "invalidExcludeIps",
        "passwordLength",
        "passwordUnused",
        "passwordVersionExact",
        "protectedTombstone",
        "tombstoneWithFields",
      ].sort(),
    );
  });
});
