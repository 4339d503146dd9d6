import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './schema';

/*
 * The typed client generated from openapi.json (`npm run client` writes schema.d.ts; CI fails when it drifts).
 * The agent runner and the baseline's --url mode reach the server only through it.
 */

export type SupportDeskClient = Client<paths>;
export type Action = components['schemas']['StepRequestDto']['action'];
export type Observation = components['schemas']['ObservationDto'];
export type StepResponse = components['schemas']['StepResponseDto'];
export type ResetRequest = components['schemas']['ResetRequestDto'];
/** `POST /step/batch`: many steps in one request, each item a `POST /step` body, each answered on its own. */
export type StepBatchRequest = components['schemas']['StepBatchRequestDto'];
export type StepBatchResult = components['schemas']['StepBatchResultDto'];

export interface ClientOptions {
  /** A SupportDesk API key, if the server requires one. */
  apiKey?: string;
  /** A fetch to use instead of the global one (for retries and timeouts). */
  fetch?: typeof fetch;
}

export function createSupportDeskClient(baseUrl: string, options: ClientOptions = {}): SupportDeskClient {
  return createClient<paths>({
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : undefined,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
