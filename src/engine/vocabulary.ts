/**
 * The closed vocabularies of the environment. The engine, the task schema and the HTTP DTOs all read these,
 * so a new team or resolution code is added in exactly one place.
 */
export const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export type Priority = (typeof PRIORITIES)[number];

export const TEAMS = [
  'general_support',
  'billing',
  'security_ops',
  'logistics',
  'technical_support',
  'vip_concierge',
] as const;
export type Team = (typeof TEAMS)[number];

export const RESOLUTION_CODES = [
  'refund_issued',
  'credit_issued',
  'replacement_dispatched',
  'carrier_trace_opened',
  'security_escalation',
  'password_reset_sent',
  'information_provided',
  'no_action_needed',
] as const;
export type ResolutionCode = (typeof RESOLUTION_CODES)[number];

/** Resolutions that move money must say how much; the others must not carry an amount. */
export const RESOLUTIONS_REQUIRING_AMOUNT: readonly ResolutionCode[] = ['refund_issued', 'credit_issued'];
/** A replacement may carry the shipping credit applied alongside it. */
export const RESOLUTIONS_ALLOWING_AMOUNT: readonly ResolutionCode[] = [
  ...RESOLUTIONS_REQUIRING_AMOUNT,
  'replacement_dispatched',
];

export const TICKET_STATUSES = ['open', 'pending', 'resolved'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

export const CUSTOMER_TIERS = ['standard', 'premium', 'vip'] as const;
export type CustomerTier = (typeof CUSTOMER_TIERS)[number];

export const DIFFICULTIES = ['easy', 'medium', 'hard'] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];

export const ACTION_TYPES = [
  'open_ticket',
  'search_policy',
  'set_priority',
  'route_ticket',
  'send_reply',
  'resolve_ticket',
] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

/** Input limits shared by validation and documentation. */
export const LIMITS = {
  ticketIdLength: 64,
  /** Hard ceilings of the action schema; the server's configured limits (MAX_*_LENGTH) are at most these. */
  queryLengthCeiling: 1000,
  messageLengthCeiling: 8000,
  maxAmount: 1_000_000,
  /** Money has at most this many decimals (cents). */
  amountDecimals: 2,
  searchResults: 5,
  recentActions: 8,
} as const;
