import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type {
  ChatCompletionMessage,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';

export interface ModelSettings {
  /** An OpenAI-compatible …/v1 endpoint. */
  baseURL: string;
  model: string;
  /** None for a local server (vLLM, Ollama, llama.cpp): a placeholder is sent, since the SDK insists on a key. */
  apiKey?: string;
  /** Retries of a call that failed to connect, timed out or got 408, 409, 429 or 5xx (the SDK's back-off, Retry-After honoured). */
  maxRetries: number;
  /** Each attempt's time limit. */
  timeoutMs: number;
  /** For tests: the fetch the SDK uses. */
  fetch?: typeof fetch;
}

/** What a local server is sent as its key: it reads none, and the SDK refuses to start without one. */
export const NO_KEY_PLACEHOLDER = 'no-key';

export interface ModelTurn {
  message: ChatCompletionMessage;
  /** The completion's token counts, when the endpoint gives them. */
  usage?: CompletionUsage;
}

/** A model call that failed for good: the SDK's retries are spent, or the endpoint answered something unusable. */
export class ModelFailure extends Error {}

/** A model call given up because the run was interrupted. */
export class ModelCallAborted extends Error {}

/** The model side of the runner: one chat completion per turn, through the official openai package. */
export class ModelClient {
  private readonly openai: OpenAI;

  constructor(private readonly settings: ModelSettings) {
    this.openai = new OpenAI({
      baseURL: settings.baseURL,
      apiKey: settings.apiKey || NO_KEY_PLACEHOLDER,
      maxRetries: settings.maxRetries,
      timeout: settings.timeoutMs,
      ...(settings.fetch ? { fetch: settings.fetch } : {}),
    });
  }

  get model(): string {
    return this.settings.model;
  }

  async complete(messages: ChatCompletionMessageParam[], tools: ChatCompletionTool[], signal?: AbortSignal): Promise<ModelTurn> {
    // A signal of this call's own, tied to the caller's for the call's length only: the SDK adds a listener to the
    // signal it is given and never removes it, and the caller's lives through a whole run.
    const call = new AbortController();
    const abort = () => call.abort();
    if (signal?.aborted) abort();
    signal?.addEventListener('abort', abort, { once: true });
    let completion: OpenAI.Chat.Completions.ChatCompletion;
    try {
      completion = await this.openai.chat.completions.create(
        { model: this.settings.model, messages, tools, tool_choice: 'auto', temperature: 0 },
        { signal: call.signal },
      );
    } catch (error) {
      if (error instanceof APIUserAbortError || call.signal.aborted) throw new ModelCallAborted('the model call was aborted');
      throw new ModelFailure(describeModelError(error, this.settings));
    } finally {
      signal?.removeEventListener('abort', abort);
    }
    const message = completion?.choices?.[0]?.message;
    if (!message) throw new ModelFailure(`the model endpoint answered without choices[0].message: ${JSON.stringify(completion).slice(0, 300)}`);
    return { message, ...(completion.usage ? { usage: completion.usage } : {}) };
  }
}

/** One line saying why a model call failed, naming the endpoint: what a cell's infrastructure_error records. */
export function describeModelError(error: unknown, settings: Pick<ModelSettings, 'baseURL' | 'maxRetries' | 'timeoutMs'>): string {
  const tries = `${settings.maxRetries + 1} attempt${settings.maxRetries === 0 ? '' : 's'}`;
  if (error instanceof APIConnectionTimeoutError) {
    return `the model endpoint (${settings.baseURL}) timed out after ${settings.timeoutMs / 1000} s, ${tries}`;
  }
  if (error instanceof APIConnectionError) {
    return `the model endpoint is unreachable (${settings.baseURL}): ${rootCause(error)}, ${tries}`;
  }
  if (error instanceof APIError) {
    return `the model endpoint (${settings.baseURL}) answered ${error.status ?? 'an error'}: ${oneLine(error.message)}`;
  }
  return `the model call failed: ${oneLine(error instanceof Error ? error.message : String(error))}`;
}

/** What a connection error comes down to: the first system error code along its causes (ECONNREFUSED), or the deepest message. */
function rootCause(error: Error): string {
  // Not `instanceof`: the causes come from Node's own fetch, which may be of another realm (a test's VM context).
  let deepest: { message?: unknown } = error;
  for (let at: unknown = error; typeof at === 'object' && at !== null; at = (at as { cause?: unknown }).cause) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === 'string' && code) return code;
    deepest = at;
  }
  return oneLine(String(deepest.message ?? deepest));
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 300);
}
