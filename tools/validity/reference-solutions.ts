import type { Action } from '../../src/engine/actions';

/**
 * A scripted correct trajectory per task, written by reading the task content as an agent would, plus the
 * searches an agent could build from the ticket's own words. Each trajectory must score exactly 1.0.
 */
export interface Solution {
  targetTicketId: string;
  /**
   * Queries made only of words the agent has read (the ticket, the instruction, articles surfaced by the queries
   * before); together they surface every required article.
   */
  readingQueries: string[];
  actions: Action[];
}

/** The trajectory's reply: it states every required detail. */
export function correctReply(solution: Solution): string {
  const reply = solution.actions.find((a) => a.type === 'send_reply');
  if (!reply || reply.type !== 'send_reply') throw new Error('solution has no reply');
  return reply.message;
}

export const SOLUTIONS: Record<string, Solution> = {
  billing_duplicate_charge: {
    targetTicketId: 'T-1041',
    readingQueries: ['charged twice renewal annual'],
    actions: [
      { type: 'open_ticket', ticket_id: 'T-1041' },
      { type: 'search_policy', query: 'charged twice annual renewal duplicate refund' },
      { type: 'set_priority', priority: 'high' },
      { type: 'route_ticket', team: 'billing' },
      {
        type: 'send_reply',
        message:
          'Hi Dana, you were charged twice for the Team Annual renewal: INV-88214 duplicates INV-88213. ' +
          'We have refunded the duplicate $348.00 to your Visa ending 4417; card refunds settle within 5-7 business days.',
      },
      { type: 'resolve_ticket', resolution: 'refund_issued', amount: 348 },
    ],
  },
  security_compromised_account: {
    targetTicketId: 'T-2207',
    readingQueries: ['password changed API key login new device', 'account takeover'],
    actions: [
      { type: 'open_ticket', ticket_id: 'T-2207' },
      { type: 'search_policy', query: 'compromised account takeover password changed api key' },
      { type: 'set_priority', priority: 'urgent' },
      { type: 'route_ticket', team: 'security_ops' },
      {
        type: 'send_reply',
        message:
          'Hello Helena, this looks like an account takeover and we are treating it as a security incident. ' +
          'We have locked your account and signed out all active sessions. The API key sync-prod-2 has been revoked, ' +
          'as has every API key created in the last 72 hours. Before access is restored we will verify your identity ' +
          'on a video call. Please never send passwords by email.',
      },
      { type: 'resolve_ticket', resolution: 'security_escalation' },
    ],
  },
  logistics_missing_order_vip: {
    targetTicketId: 'T-3318',
    readingQueries: ['event-critical order stalled carrier VIP', 'overnight priority courier delivery times'],
    actions: [
      { type: 'open_ticket', ticket_id: 'T-3318' },
      { type: 'search_policy', query: 'VIP event-critical shipment stalled carrier' },
      { type: 'search_policy', query: 'overnight courier delivery times' },
      { type: 'set_priority', priority: 'urgent' },
      { type: 'route_ticket', team: 'vip_concierge' },
      {
        type: 'send_reply',
        message:
          'Dear Isabelle, we are sorry SO-77120 has stalled with the carrier. Under your VIP Service Agreement we are ' +
          'shipping 40 replacement kits today by overnight priority courier at no charge; they will be delivered on ' +
          'Friday 27 November before 12:00. We have also applied a shipping credit of $150.00 to your account.',
      },
      { type: 'resolve_ticket', resolution: 'replacement_dispatched', amount: 150 },
    ],
  },
};
