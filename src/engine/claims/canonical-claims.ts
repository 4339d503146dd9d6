import type { ReplyClaim } from './claim.schema';

/**
 * The three seeded tasks' reply details as claim declarations, with each task's clock. Temporary: they move
 * into the task files (validated by replyClaimSchema) when the task schema adopts claims.
 *
 * Billing and security state no clock in their instruction; their clocks are fixed by hand, after the last
 * event on the target ticket.
 */

export interface CanonicalTask {
  clock: string;
  claims: ReplyClaim[];
}

const dollars = (amount: number) => ({ kind: 'money' as const, amount, currency: 'USD' as const });
const businessDays = (min: number, max = min) => ({ kind: 'duration' as const, min, max, unit: 'business_day' as const });

export const CANONICAL_CLAIMS: Record<string, CanonicalTask> = {
  billing_duplicate_charge: {
    clock: '2026-11-20T09:00:00+00:00',
    claims: [
      {
        id: 'refund_amount',
        description: 'the amount being refunded: the duplicate $348.00 renewal charge (INV-88214)',
        ...dollars(348),
        near_misses: [dollars(696), dollars(377)],
        about: ['refund', 'refunded', 'refunding', 'refunds'],
      },
      {
        id: 'settlement_window',
        description: 'card refunds for annual plans settle within 5-7 business days',
        ...businessDays(5, 7),
        near_misses: [businessDays(10), businessDays(3)],
        about: ['refund', 'refunded', 'refunding', 'refunds'],
      },
    ],
  },
  security_compromised_account: {
    clock: '2026-11-28T08:00:00+00:00',
    claims: [
      {
        id: 'account_locked',
        description: 'the account is locked',
        kind: 'action',
        verbs: ['lock', 'freeze', 'suspend', 'disable', 'secure', 'block'],
        objects: ['account'],
      },
      {
        id: 'sessions_signed_out',
        description: 'all active sessions are signed out',
        kind: 'action',
        verbs: ['sign out', 'log out', 'end', 'terminate', 'close', 'kill', 'revoke', 'invalidate'],
        objects: ['session', 'device'],
        qualifiers: ['all', 'every', 'everyone', 'each'],
      },
      {
        id: 'api_keys_revoked',
        description: 'API keys created in the last 72 hours (sync-prod-2) are revoked',
        kind: 'action',
        verbs: ['revoke', 'disable', 'deactivate', 'delete', 'invalidate', 'cancel'],
        objects: ['api key', 'key', 'sync-prod-2'],
        qualifiers: ['72 hours', '72h', '72-hour', 'three days', '3 days', 'sync-prod-2'],
      },
      {
        id: 'identity_verification',
        description: 'access is restored only after identity verification on a video call, not through a reset link',
        kind: 'action',
        verbs: ['verify', 'confirm', 'check'],
        objects: ['identity', 'really you', 'who you are'],
        qualifiers: ['video', 'video call', 'video chat', 'videocall'],
      },
    ],
  },
  logistics_missing_order_vip: {
    clock: '2026-11-26T10:00:00+00:00',
    claims: [
      {
        id: 'overnight_courier',
        description: 'the replacement ships by overnight priority courier',
        kind: 'option',
        value: 'overnight',
        options: {
          overnight: ['overnight priority courier', 'overnight priority', 'priority overnight', 'overnight courier', 'overnight', 'next-day priority courier', 'next-day courier', 'next day priority courier'],
          standard_ground: ['standard ground', 'ground shipping', 'standard shipping', 'by ground'],
          express: ['express courier', 'express delivery', 'express shipping', 'by express', 'via express', 'express service'],
          carrier_trace: ['carrier trace', 'a trace'],
        },
        about: ['replacement', 'dispatched', 'shipped'],
      },
      {
        id: 'delivery_date',
        description: 'booked today (Thursday 26 November, before 15:00) it is delivered on Friday 27 November before 12:00',
        kind: 'date',
        date: '2026-11-27',
        near_misses: [
          { kind: 'duration', min: 3, max: 5, unit: 'business_day' },
          businessDays(5),
          businessDays(2),
        ],
        about: ['replacement', 'dispatched', 'shipped'],
      },
      {
        id: 'shipping_credit',
        description: 'a shipping credit of $150.00 under VSA-2291 s.4.2',
        ...dollars(150),
        near_misses: [dollars(50), dollars(25)],
        about: ['credit'],
      },
    ],
  },
};
