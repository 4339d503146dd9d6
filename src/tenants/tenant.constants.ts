/** The built-in tenant that owns every episode until API keys and tenants exist. */
export const PUBLIC_TENANT = { id: 'public', slug: 'public', name: 'Public (anonymous)' } as const;
