import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Action } from '../../src/engine/actions';

/**
 * A small OpenAI-compatible chat-completions server that answers with canned tool calls, for testing the agent
 * runner where no model is reachable. `script(taskId, conversation, step)` says what to call next
 * (null: answer in prose without a tool call). It can also fail the first N requests with 429. Like a model in
 * strict mode, it sends every property of a strict tool, null for the ones the action leaves out.
 */
export async function startScriptedModel(
  script: (taskId: string, conversation: number, step: number) => Action | null,
  options: { failFirst?: number } = {},
): Promise<{ url: string; server: Server; requests: any[]; calls: { name: string; arguments: string }[] }> {
  const conversations = new Map<string, number>();
  const requests: any[] = [];
  const calls: { name: string; arguments: string }[] = [];
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
        res.writeHead(429, { 'retry-after': '0', 'content-type': 'application/json' }).end('{"error":"slow down"}');
        return;
      }
      const body = JSON.parse(raw);
      requests.push(body);
      const observation = JSON.parse(body.messages[1].content);
      const taskId = observation.task_id as string;
      if (body.messages.length === 2) conversations.set(taskId, (conversations.get(taskId) ?? 0) + 1);
      const steps = body.messages.filter((m: any) => m.role === 'tool' && !String(m.content).startsWith('error:')).length;
      const action = script(taskId, conversations.get(taskId)!, steps);
      if (action !== null) calls.push({ name: action.type, arguments: JSON.stringify(asStrictModelSends(body.tools, action)) });
      const message =
        action === null
          ? { role: 'assistant', content: 'Let me think about this.' }
          : {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  id: `call_${requests.length}`,
                  type: 'function',
                  function: calls[calls.length - 1],
                },
              ],
            };
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({ id: `chatcmpl-${requests.length}`, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: 'tool_calls' }] }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, server, requests, calls };
}

/** The arguments of a tool call as a strict-mode model writes them: every property of the schema present. */
function asStrictModelSends(tools: any[] | undefined, action: Action): Record<string, unknown> {
  const { type, ...given } = action as unknown as Record<string, unknown>;
  const tool = tools?.find((t) => t.function?.name === type);
  if (!tool?.function?.strict) return given;
  const properties = Object.keys(tool.function.parameters.properties ?? {});
  return { ...Object.fromEntries(properties.map((name) => [name, null])), ...given };
}
