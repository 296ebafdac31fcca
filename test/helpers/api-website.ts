/** A website exactly as GET returns it (API-NOTES §2.1), with the API's defaults unless overridden. */
export function apiWebsite(id: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    domain: `site${id}.example`,
    privacy: 0,
    email: 0,
    password: false,
    exclude_bots: 1,
    exclude_ips: null,
    favorite: false,
    favorited_at: null,
    created_at: "2025-01-02T03:04:05.000000Z",
    updated_at: "2025-01-02T03:04:05.000000Z",
    ...overrides,
  };
}
