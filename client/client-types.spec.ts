import type { Action, ResetRequest } from './supportdesk-client';

/*
 * Compile-time checks of the generated client: ts-jest type-checks this file, and an unused @ts-expect-error is
 * itself an error, so each malformed value below must fail to type-check or this suite fails to compile.
 */

const valid: Action[] = [
  { type: 'open_ticket', ticket_id: 'T-1041' },
  { type: 'set_priority', priority: 'urgent' },
  { type: 'resolve_ticket', resolution: 'refund_issued', amount: 348 },
];

// @ts-expect-error an unknown action type
const unknownType: Action = { type: 'refund_everything' };
// @ts-expect-error a priority outside the enum
const badPriority: Action = { type: 'set_priority', priority: 'critical' };
// @ts-expect-error a missing required field
const missingField: Action = { type: 'open_ticket' };
// @ts-expect-error a wrong field type
const wrongType: Action = { type: 'route_ticket', team: 42 };
// @ts-expect-error a field of another action
const mixedUp: Action = { type: 'send_reply', ticket_id: 'T-1041' };
// @ts-expect-error seed must be a number
const badReset: ResetRequest = { seed: 'seven' };

it('the valid examples type-check and the malformed ones are rejected at compile time', () => {
  expect(valid).toHaveLength(3);
  expect([unknownType, badPriority, missingField, wrongType, mixedUp, badReset]).toHaveLength(6);
});
