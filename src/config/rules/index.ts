import { apiUrls } from "./api-urls.ts";
import { domainRejectedByApi, domainStoredDifferently, duplicateDomains, duplicateProjects } from "./domains.ts";
import { invalidExcludeIps } from "./exclude-ips.ts";
import { passwordLength, passwordUnused, passwordVersionExact } from "./passwords.ts";
import type { Rule } from "./rule-context.ts";
import { ignoredButListed, protectedTombstone, tombstoneWithFields } from "./tombstones.ts";

export { createRuleContext, type Rule, runRules } from "./rule-context.ts";

/** Every semantic rule, run in this order on every load (all of them, so one run reports every problem). */
export const RULES: readonly Rule[] = [
  apiUrls,
  duplicateDomains,
  domainRejectedByApi,
  domainStoredDifferently,
  invalidExcludeIps,
  passwordUnused,
  passwordLength,
  passwordVersionExact,
  tombstoneWithFields,
  protectedTombstone,
  ignoredButListed,
  duplicateProjects,
];
