import { createSupportDeskClient, type SupportDeskClient } from '../../client/supportdesk-client';
import type { components } from '../../client/schema';

/** The API's response shapes, from the generated client (openapi.json): the console uses no other. */
export type Schemas = components['schemas'];

/** An API answer that was not a success: its status and the service error body's message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | null,
  ) {
    super(message);
  }
}

export function createClient(apiKey: string | null): SupportDeskClient {
  return createSupportDeskClient(window.location.origin, apiKey ? { apiKey } : {});
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The body of a successful answer; an ApiError (with the server's own message) otherwise. */
export async function unwrap<T>(pending: Promise<Answer<T>>): Promise<T> {
  let answer: Answer<T>;
  try {
    answer = await pending;
  } catch (error) {
    throw new ApiError(0, `the server could not be reached (${(error as Error).message})`, null);
  }
  if (answer.response.ok && answer.data !== undefined) return answer.data;
  const body = (answer.error ?? {}) as { message?: unknown; code?: unknown };
  const message = typeof body.message === 'string' ? body.message : `${answer.response.status} ${answer.response.statusText}`;
  throw new ApiError(answer.response.status, message, typeof body.code === 'string' ? body.code : null);
}
