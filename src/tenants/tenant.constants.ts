/** The built-in tenant that owns every episode until API keys and tenants exist. */
export const PUBLIC_TENANT = { id: 'public', slug: 'public', name: 'Public (anonymous)' } as const;

/** The documented 404 of every admin route that names a tenant by its slug (for @ApiErrors). */
export const NO_TENANT_ERROR = { status: 404, description: 'No tenant with this slug', example: 'no tenant "robotics-lab"' } as const;
