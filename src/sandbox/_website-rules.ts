/**
 * The rules of StoreWebsiteRequest and UpdateWebsiteRequest (API-NOTES §2.4, §2.5), in their source order,
 * which is also the order of the fields in a 422 error bag.
 */
import { matchesDomainRule } from "./_domain.ts";
import type { InputBag, InputValue } from "./_input.ts";
import { looseEqualsInt, phpString } from "./_php.ts";
import { between, custom, type FieldRules, integer, max, min, required, string } from "./_validator.ts";

/** What the store rules need to know about the account. */
export interface StoreContext {
  /** `unique:websites,domain` is global: any user's website counts (API-NOTES §2.4). */
  isTaken(domain: string): boolean;
  /** WebsitePolicy::create: -1 unlimited, else fewer than N websites. */
  canCreate(): boolean;
}

/**
 * StoreWebsiteRequest::prepareForValidation: lowercase, drop every `https://` and `http://`, and when the
 * result starts with `www.` drop every `www.`. Undefined when `mb_strtolower` would throw (an array).
 */
export function prepareDomain(value: InputValue | undefined): string | undefined {
  if (value !== null && typeof value === "object") return undefined;
  const lower = phpString(value).toLowerCase().replaceAll("https://", "").replaceAll("http://", "");
  return lower.startsWith("www.") ? lower.replaceAll("www.", "") : lower;
}

export function storeRules(input: InputBag, account: StoreContext): FieldRules[] {
  // Rule::requiredIf($this->input('privacy') == 2), a loose PHP comparison.
  const passwordRequired = looseEqualsInt(input.privacy ?? null, 2);
  return [
    {
      field: "domain",
      rules: [
        required,
        max(255),
        custom((v) => matchesDomainRule(phpString(v)), "Invalid domain name."),
        custom((v) => !account.isTaken(phpString(v)), "The domain has already been taken."),
        custom(() => account.canCreate(), "You created too many websites."),
      ],
    },
    { field: "privacy", nullable: true, numeric: true, rules: [integer, between(0, 2)] },
    { field: "password", nullable: true, rules: [...(passwordRequired ? [required] : []), string, min(1), max(128)] },
    { field: "exclude_bots", nullable: true, numeric: true, rules: [integer, between(0, 1)] },
    { field: "exclude_params", nullable: true, rules: [string] },
    { field: "exclude_ips", nullable: true, rules: [string] },
    { field: "email", nullable: true, numeric: true, rules: [integer] },
  ];
}

export function updateRules(input: InputBag): FieldRules[] {
  // `in_array($this->input('privacy'), [0, 1])` is loose, so an absent privacy (null) counts as 0.
  const privacy = input.privacy ?? null;
  const passwordOptional = looseEqualsInt(privacy, 0) || looseEqualsInt(privacy, 1);
  return [
    { field: "privacy", sometimes: true, numeric: true, rules: [required, integer, between(0, 2)] },
    {
      field: "password",
      ...(passwordOptional ? { nullable: true } : { sometimes: true }),
      rules: [string, min(1), max(128)],
    },
    { field: "exclude_bots", sometimes: true, numeric: true, rules: [integer, between(0, 1)] },
    { field: "exclude_ips", sometimes: true, nullable: true, rules: [string] },
    { field: "exclude_params", sometimes: true, nullable: true, rules: [string] },
    { field: "email", sometimes: true, nullable: true, numeric: true, rules: [integer] },
  ];
}
