import { Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import type { RequestWithPrincipal } from '../access/principal';

/**
 * Rate limits are per tenant, not per IP: a lab's agents share one budget whichever machines they run on, and
 * one tenant's flood cannot spend another's. Runs after the auth guard, which sets the principal.
 */
@Injectable()
export class TenantThrottlerGuard extends ThrottlerGuard {
  protected override async getTracker(req: Record<string, any>): Promise<string> {
    const principal = (req as RequestWithPrincipal).principal;
    if (principal?.kind === 'tenant') return `tenant:${principal.tenantId}`;
    if (principal?.kind === 'admin') return 'admin';
    return `ip:${req.ip}`;
  }
}
