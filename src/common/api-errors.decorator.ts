import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorBodyDto } from './error-body.dto';

const DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed JSON body',
  404: 'No such episode for this tenant',
  409: 'Conflicts with the current state: the episode is finished or changed concurrently, an id is taken, or a request_id was used for another action',
  413: 'Request body too large',
  415: 'The body is not JSON',
  422: 'Validation failed; `details` names each bad field',
  503: 'The database is busy, or the server is shutting down; nothing was changed, retry after `Retry-After`',
};

/** Documents the error responses a route can give, all with the service's error body. */
export function ApiErrors(...statuses: number[]): MethodDecorator {
  return applyDecorators(
    ...statuses.map((status) => ApiResponse({ status, description: DESCRIPTIONS[status], type: ErrorBodyDto })),
  );
}
