import type { ArgumentMetadata } from '@nestjs/common';
import { createValidationPipe } from './validation';

const pipe = createValidationPipe();

/**
 * Validates and transforms a plain value exactly as an HTTP body of that DTO would be (same pipe, same 422
 * details), for transports that do not go through a controller: WebSocket messages and MCP tool calls.
 */
export async function validateBody<T>(dto: new () => T, value: unknown): Promise<T> {
  const metadata: ArgumentMetadata = { type: 'body', metatype: dto, data: '' };
  return (await pipe.transform(value, metadata)) as T;
}
