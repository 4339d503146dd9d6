import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Access } from '../../access/access.decorator';
import { CurrentPrincipal } from '../../access/current-principal.decorator';
import { callerOf, type Principal } from '../../access/principal';
import { RequestAuthentication } from '../../auth/request-authentication';
import { ApiErrors } from '../../common/api-errors.decorator';
import { StepBatchRequestDto, StepBatchResponseDto } from '../dto/step-batch.dto';
import { StepBatch } from './step-batch';

@ApiTags('episodes')
@Controller()
export class StepBatchController {
  constructor(
    private readonly batch: StepBatch,
    private readonly authentication: RequestAuthentication,
  ) {}

  @Post('step/batch')
  @Access.Agent()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'stepBatch',
    summary: 'Apply many steps in one request (a vector of environments): each item answered as POST /step would answer it',
  })
  @ApiOkResponse({ type: StepBatchResponseDto })
  @ApiErrors(
    { status: 422, description: 'The batch itself is invalid: `items` missing, empty, not an array, or longer than STEP_BATCH_MAX_ITEMS (an invalid item is answered in its own result)', example: 'items must contain at most 256 elements (STEP_BATCH_MAX_ITEMS); this batch has 300', field: 'items' },
    { status: 429, description: 'Over a rate limit: each item counts as a request against the tenant\'s rate, and a batch is taken whole or refused whole; `Retry-After` says when to come back' },
  )
  async stepBatch(@CurrentPrincipal() principal: Principal, @Body() body: StepBatchRequestDto, @Req() request: FastifyRequest): Promise<StepBatchResponseDto> {
    this.batch.checkSize(body.items);
    await this.authentication.countBatchSteps(principal, body.items.length - 1);
    // Access.Agent admits tenant principals only.
    const caller = callerOf(principal as Extract<Principal, { kind: 'tenant' }>);
    return { results: await this.batch.apply(caller, body.items, request.id) };
  }
}
