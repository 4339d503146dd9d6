/**
 * The SupportDesk server's calls, through the typed client: timeouts and retries. (The model's calls go through the
 * openai package, which retries on its own.)
 */
export interface RetryOptions {
  attempts: number;
  timeoutMs: number;
  /** First back-off; doubles each retry (with jitter), or follows Retry-After when the server sends one. */
  baseDelayMs: number;
  sleep?: (ms: number) => Promise<void>;
}

export class UnreachableError extends Error {}

export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    url: string,
  ) {
    super(`${url} answered ${status}: ${typeof body === 'string' ? body : JSON.stringify(body)}`);
  }
}

const RETRYABLE = (status: number) => status === 429 || status >= 500;

/**
 * A fetch that times out each attempt and retries network failures, 429 and 5xx with exponential back-off
 * (following Retry-After when given). After the last attempt it returns the last response, or throws
 * UnreachableError when the endpoint never answered.
 */
export function retryingFetch(options: RetryOptions): typeof fetch {
  const sleep = options.sleep ?? ((ms: number) => new Promise((resolve) => setTimeout(resolve, ms)));
  return async (input, init) => {
    let lastError: unknown;
    for (let attempt = 1; attempt <= options.attempts; attempt++) {
      let retryAfterMs: number | null = null;
      try {
        // A Request body can be read once: each attempt sends a fresh clone.
        const request = input instanceof Request ? input.clone() : input;
        const response = await fetch(request, { ...init, signal: AbortSignal.timeout(options.timeoutMs) });
        if (!RETRYABLE(response.status) || attempt === options.attempts) return response;
        const header = Number(response.headers.get('retry-after'));
        retryAfterMs = Number.isFinite(header) && header > 0 ? header * 1000 : null;
        lastError = new Error(`answered ${response.status}`);
      } catch (error) {
        lastError = error;
      }
      if (attempt < options.attempts) {
        await sleep(retryAfterMs ?? options.baseDelayMs * 2 ** (attempt - 1) * (0.5 + Math.random() / 2));
      }
    }
    const url = input instanceof Request ? input.url : String(input);
    throw new UnreachableError(`cannot reach ${url} after ${options.attempts} attempts: ${describe(lastError)}`);
  };
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ?? cause?.message ?? error.message;
  }
  return String(error);
}
