import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { IsIn, IsNumber, IsString, Matches, Max, Min, ValidateBy, ValidateIf, type ValidationOptions } from 'class-validator';
import { MaxChars, MaxDecimalPlaces, MinChars } from '../../common/field-rules';
import type { Action } from '../../engine/actions';
import {
  ACTION_TYPES,
  LIMITS,
  PRIORITIES,
  RESOLUTION_CODES,
  RESOLUTIONS_ALLOWING_AMOUNT,
  RESOLUTIONS_REQUIRING_AMOUNT,
  TEAMS,
  type ActionType,
  type Priority,
  type ResolutionCode,
  type Team,
} from '../../engine/vocabulary';

/*
 * The action DTOs are the single definition of the action wire format: they validate requests, and the same
 * classes generate the OpenAPI components, GET /action_schema and (later) the MCP tool inputs.
 */

const NOT_BLANK = /\S/;

export class OpenTicketAction {
  @ApiProperty({ enum: ['open_ticket'] })
  @IsIn(['open_ticket'])
  type!: 'open_ticket';

  /** Id of a ticket in the inbox, e.g. "T-1041". */
  @ApiProperty({ minLength: 1, maxLength: LIMITS.ticketIdLength, example: 'T-1041' })
  @MaxChars(LIMITS.ticketIdLength)
  @MinChars(1)
  @IsString()
  ticket_id!: string;
}

export class SearchPolicyAction {
  @ApiProperty({ enum: ['search_policy'] })
  @IsIn(['search_policy'])
  type!: 'search_policy';

  /** Free-text query over the policy knowledge base. */
  @ApiProperty({
    minLength: 1,
    maxLength: LIMITS.queryLengthCeiling,
    pattern: NOT_BLANK.source,
    example: 'duplicate charge annual plan refund',
  })
  @Matches(NOT_BLANK, { message: 'query must contain a word' })
  @MaxChars(LIMITS.queryLengthCeiling)
  @IsString()
  query!: string;
}

export class SetPriorityAction {
  @ApiProperty({ enum: ['set_priority'] })
  @IsIn(['set_priority'])
  type!: 'set_priority';

  @ApiProperty({ enum: PRIORITIES, enumName: 'Priority' })
  @IsIn(PRIORITIES)
  priority!: Priority;
}

export class RouteTicketAction {
  @ApiProperty({ enum: ['route_ticket'] })
  @IsIn(['route_ticket'])
  type!: 'route_ticket';

  @ApiProperty({ enum: TEAMS, enumName: 'Team' })
  @IsIn(TEAMS)
  team!: Team;
}

export class SendReplyAction {
  @ApiProperty({ enum: ['send_reply'] })
  @IsIn(['send_reply'])
  type!: 'send_reply';

  /** The message sent to the customer of the open ticket. */
  @ApiProperty({ minLength: 1, maxLength: LIMITS.messageLengthCeiling, pattern: NOT_BLANK.source })
  @Matches(NOT_BLANK, { message: 'message must contain a word' })
  @MaxChars(LIMITS.messageLengthCeiling)
  @IsString()
  message!: string;
}

/** Rejects an amount on a resolution that takes none (requiredness is checked by @ValidateIf below). */
function AmountFitsResolution(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'amountFitsResolution',
      validator: {
        validate: (value, args) =>
          value === undefined || RESOLUTIONS_ALLOWING_AMOUNT.includes((args?.object as ResolveTicketAction).resolution),
        defaultMessage: (args) => `amount is not accepted for resolution ${(args?.object as ResolveTicketAction).resolution}`,
      },
    },
    options,
  );
}

export class ResolveTicketAction {
  @ApiProperty({ enum: ['resolve_ticket'] })
  @IsIn(['resolve_ticket'])
  type!: 'resolve_ticket';

  @ApiProperty({ enum: RESOLUTION_CODES, enumName: 'ResolutionCode' })
  @IsIn(RESOLUTION_CODES)
  resolution!: ResolutionCode;

  // No `multipleOf: 0.01`: JSON Schema validators test it in floating point, where 0.57 / 0.01 is not a whole
  // number, so they would refuse amounts this server accepts. `x-max-decimal-places` says the same exactly, for
  // tools that read it; the description says it for everyone else.
  @ApiProperty({
    required: false,
    minimum: 0,
    maximum: LIMITS.maxAmount,
    'x-max-decimal-places': LIMITS.amountDecimals,
    example: 348,
    description:
      `Money in the account currency: a JSON number with at most ${LIMITS.amountDecimals} decimals as written ` +
      '(348, 19.99, 0.07; not 0.005 or 1e-7). Required for refund_issued and credit_issued (the amount refunded or ' +
      'credited); optional for replacement_dispatched (the shipping credit applied with it); not accepted for any ' +
      'other resolution.',
  } as ApiPropertyOptions)
  @AmountFitsResolution()
  @Min(0)
  @Max(LIMITS.maxAmount)
  @MaxDecimalPlaces(LIMITS.amountDecimals)
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'amount must be a number' })
  @ValidateIf((o: ResolveTicketAction) => RESOLUTIONS_REQUIRING_AMOUNT.includes(o.resolution) || o.amount !== undefined)
  amount?: number;
}

/** Stands in for an action whose `type` names no action, so validation reports the allowed types. */
export class UnrecognizedAction {
  @IsIn(ACTION_TYPES, { message: `type must be one of: ${ACTION_TYPES.join(', ')}` })
  type!: string;
}

export const ACTION_DTOS = {
  open_ticket: OpenTicketAction,
  search_policy: SearchPolicyAction,
  set_priority: SetPriorityAction,
  route_ticket: RouteTicketAction,
  send_reply: SendReplyAction,
  resolve_ticket: ResolveTicketAction,
} as const satisfies Record<ActionType, new () => Action>;

export type ActionDto = InstanceType<(typeof ACTION_DTOS)[ActionType]>;
