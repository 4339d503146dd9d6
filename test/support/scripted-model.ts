import { createServer, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Action } from '../../src/engine/actions';

export interface ScriptedModelOptions {
  /** Answer the first N requests with 429 (Retry-After: 0), as a rate-limited endpoint does. */
  failFirst?: number;
  /** Send `usage` with every completion (default): prompt_tokens = tokensFor(messages), completion_tokens = 5. */
  usage?: boolean;
  /** Wait this long before each answer. */
  delayMs?: number;
  /** Answer this many completions, then none: later requests hang until the client gives up (a stalled model). */
  hangAfter?: number;
  /** Told each request it answers as it arrives, counted from 1 (before the answer, which delayMs holds back). */
  onRequest?: (count: number) => void;
}

/** The prompt tokens the scripted model reports for a request: 100 plus 10 per message. */
export function promptTokensFor(messageCount: number): number {
  return 100 + 10 * messageCount;
}
export const COMPLETION_TOKENS = 5;

export interface ScriptedModel {
  url: string;
  server: Server;
  /** Every request body answered (not the 429s). */
  requests: any[];
  calls: { name: string; arguments: string }[];
  /** Conversations started per instance: the task and its first observation (so each seed of a task is its own). */
  conversations: Map<string, number>;
  /** The usage reported over every answered request. */
  served: { prompt_tokens: number; completion_tokens: number };
  /** Requests left hanging (hangAfter). */
  hanging: () => number;
  /** Closes the server, ending hanging requests. */
  close: () => Promise<void>;
}

/**
 * A small OpenAI-compatible chat-completions server that answers with canned tool calls, for testing the agent
 * runner where no model is reachable. `script(taskId, conversation, step)` says what to call next (null: answer in
 * prose without a tool call); `conversation` counts from 1 per instance: a task's first observation (its inbox,
 * which each seed orders its own way), so trial t of an instance is conversation t + 1 whatever order a run's
 * cells are played in. Like a model in strict mode, it sends every property of a strict tool, null for the ones the
 * action leaves out. It reports usage as promptTokensFor(messages) and COMPLETION_TOKENS per completion.
 */
export async function startScriptedModel(
  script: (taskId: string, conversation: number, step: number) => Action | null,
  options: ScriptedModelOptions = {},
): Promise<ScriptedModel> {
  const conversations = new Map<string, number>();
  const conversationOfCall = new Map<string, number>();
  const requests: any[] = [];
  const calls: { name: string; arguments: string }[] = [];
  const served = { prompt_tokens: 0, completion_tokens: 0 };
  const hung = new Set<ServerResponse>();
  let failuresLeft = options.failFirst ?? 0;
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404).end();
        return;
      }
      if (failuresLeft > 0) {
        failuresLeft--;
        res.writeHead(429, { 'retry-after': '0', 'content-type': 'application/json' }).end('{"error":{"message":"slow down"}}');
        return;
      }
      if (options.hangAfter !== undefined && requests.length >= options.hangAfter) {
        hung.add(res);
        res.on('close', () => hung.delete(res));
        return;
      }
      const body = JSON.parse(raw);
      requests.push(body);
      options.onRequest?.(requests.length);
      const observation = JSON.parse(body.messages[1].content);
      const taskId = observation.task_id as string;
      const instance = `${taskId}\u0000${body.messages[1].content}`;
      if (body.messages.length === 2) conversations.set(instance, (conversations.get(instance) ?? 0) + 1);
      // The conversation a request belongs to: fixed at its first turn, and found again from the id of the first tool
      // call this server answered in it, so episodes of one instance played at the same time keep their own numbers.
      const firstCall = body.messages.find((m: any) => m.role === 'assistant' && m.tool_calls?.length)?.tool_calls[0].id as string | undefined;
      const conversation = body.messages.length === 2 || firstCall === undefined ? conversations.get(instance)! : (conversationOfCall.get(firstCall) ?? conversations.get(instance)!);
      const steps = body.messages.filter((m: any) => m.role === 'tool' && !String(m.content).startsWith('error:')).length;
      const action = script(taskId, conversation, steps);
      if (action !== null && firstCall === undefined) conversationOfCall.set(`call_${requests.length}`, conversation);
      if (action !== null) calls.push({ name: action.type, arguments: JSON.stringify(asStrictModelSends(body.tools, action)) });
      const message =
        action === null
          ? { role: 'assistant', content: 'Let me think about this.' }
          : { role: 'assistant', content: null, tool_calls: [{ id: `call_${requests.length}`, type: 'function', function: calls[calls.length - 1] }] };
      const usage = { prompt_tokens: promptTokensFor(body.messages.length), completion_tokens: COMPLETION_TOKENS };
      const reportsUsage = options.usage ?? true;
      if (reportsUsage) {
        served.prompt_tokens += usage.prompt_tokens;
        served.completion_tokens += usage.completion_tokens;
      }
      const answer = JSON.stringify({
        id: `chatcmpl-${requests.length}`,
        object: 'chat.completion',
        model: body.model,
        choices: [{ index: 0, message, finish_reason: action === null ? 'stop' : 'tool_calls' }],
        ...(reportsUsage ? { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } } : {}),
      });
      const send = () => res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
      if (options.delayMs) setTimeout(send, options.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    server,
    requests,
    calls,
    conversations,
    served,
    hanging: () => hung.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hung) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The arguments of a tool call as a strict-mode model writes them: every property of the schema present. */
function asStrictModelSends(tools: any[] | undefined, action: Action): Record<string, unknown> {
  const { type, ...given } = action as unknown as Record<string, unknown>;
  const tool = tools?.find((t) => t.function?.name === type);
  if (!tool?.function?.strict) return given;
  const properties = Object.keys(tool.function.parameters.properties ?? {});
  return { ...Object.fromEntries(properties.map((name) => [name, null])), ...given };
}
