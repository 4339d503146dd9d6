/** What the runner needs from a network call: JSON in, JSON out, with timeouts and retries. */
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
 * POSTs (or GETs) JSON, retrying 429 and 5xx answers and network failures with exponential back-off. A network
 * failure on every attempt becomes UnreachableError, so callers can say clearly which endpoint is down.
 */
export async function requestJson(
  url: string,
  init: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: unknown },
  options: RetryOptions,
): Promise<any> {
  const sleep = options.sleep ?? ((ms: number) => new Promise((resolve) => setTimeout(resolve, ms)));
  let lastError: unknown;
  for (let attempt = 1; attempt <= options.attempts; attempt++) {
    let retryAfterMs: number | null = null;
    try {
      const res = await fetch(url, {
        method: init.method,
        headers: { 'content-type': 'application/json', ...init.headers },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      const text = await res.text();
      const body = text === '' ? null : safeJson(text);
      if (res.ok) return body;
      lastError = new HttpStatusError(res.status, body, url);
      if (!RETRYABLE(res.status)) throw lastError;
      const header = Number(res.headers.get('retry-after'));
      retryAfterMs = Number.isFinite(header) && header > 0 ? header * 1000 : null;
    } catch (error) {
      if (error instanceof HttpStatusError && !RETRYABLE(error.status)) throw error;
      if (!(error instanceof HttpStatusError)) lastError = error;
    }
    if (attempt < options.attempts) {
      const backoff = options.baseDelayMs * 2 ** (attempt - 1) * (0.5 + Math.random() / 2);
      await sleep(retryAfterMs ?? backoff);
    }
  }
  if (lastError instanceof HttpStatusError) throw lastError;
  throw new UnreachableError(`cannot reach ${url} after ${options.attempts} attempts: ${describe(lastError)}`);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ?? cause?.message ?? error.message;
  }
  return String(error);
}
