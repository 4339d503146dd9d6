import WebSocket from 'ws';

/*
 * OpenEnv's Python clients, ported message for message from openenv-core's source (src/openenv/core/env_client.py,
 * generic_client.py, mcp_client.py, utils.py at meta-pytorch/OpenEnv 685de41), so the tests drive the server exactly
 * as those clients do. No Python client can run here (no httpx or websockets), hence the port; each method names
 * the Python it mirrors. Only what the wire sees is reproduced: URLs, headers, message bodies and how replies are
 * read (including what the client silently swallows).
 */

/** utils.convert_to_ws_url */
function convertToWsUrl(url: string): string {
  let wsUrl = url.replace(/\/+$/, '');
  if (wsUrl.startsWith('http://')) wsUrl = 'ws://' + wsUrl.slice(7);
  else if (wsUrl.startsWith('https://')) wsUrl = 'wss://' + wsUrl.slice(8);
  else if (!wsUrl.startsWith('ws://') && !wsUrl.startsWith('wss://')) wsUrl = 'ws://' + wsUrl;
  return wsUrl;
}

export interface StepResult {
  observation: any;
  reward: number | null;
  done: boolean;
}

/**
 * EnvClient: one WebSocket to `<base_url>/ws`, opened with no extra headers. Python `websockets` turns URL
 * user-info into `Authorization: Basic`; the `ws` package does the same, so a key in the URL travels the same way.
 */
export class EnvClient {
  protected readonly wsUrl: string;
  private ws: WebSocket | null = null;
  private readonly inbox: string[] = [];
  private readonly waiters: ((raw: string) => void)[] = [];

  constructor(baseUrl: string) {
    this.wsUrl = `${convertToWsUrl(baseUrl)}/ws`; // EnvClient.__init__: self._ws_url = f"{ws_url}/ws"
  }

  /** EnvClient.connect: ws_connect(self._ws_url, open_timeout=…, max_size=…), nothing else. */
  async connect(): Promise<this> {
    if (this.ws) return this;
    const ws = new WebSocket(this.wsUrl);
    ws.on('message', (data) => {
      const raw = data.toString();
      const waiter = this.waiters.shift();
      if (waiter) waiter(raw);
      else this.inbox.push(raw);
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', (error) => reject(new Error(`Failed to connect to ${this.wsUrl}: ${error.message}`)));
      ws.once('unexpected-response', (_req, res) => reject(new Error(`Failed to connect to ${this.wsUrl}: HTTP ${res.statusCode}`)));
    });
    this.ws = ws;
    return this;
  }

  /** EnvClient._send_and_receive: json.dumps, one reply, and a RuntimeError for `type: error`. */
  protected async sendAndReceive(message: Record<string, unknown>): Promise<any> {
    await this.connect();
    this.ws!.send(JSON.stringify(message));
    const raw = this.inbox.length > 0 ? this.inbox.shift()! : await new Promise<string>((r) => this.waiters.push(r));
    const response = JSON.parse(raw);
    if (response.type === 'error') {
      const data = response.data ?? {};
      throw new Error(`Server error: ${data.message ?? 'Unknown error'} (code: ${data.code ?? 'UNKNOWN'})`);
    }
    return response;
  }

  /** EnvClient.reset: {"type": "reset", "data": kwargs} */
  async reset(kwargs: Record<string, unknown> = {}): Promise<StepResult> {
    const response = await this.sendAndReceive({ type: 'reset', data: kwargs });
    return this.parseResult(response.data ?? {});
  }

  /** EnvClient.step: {"type": "step", "data": self._step_payload(action)} */
  async step(action: unknown): Promise<StepResult> {
    const response = await this.sendAndReceive({ type: 'step', data: this.stepPayload(action) });
    return this.parseResult(response.data ?? {});
  }

  /** EnvClient.state: {"type": "state"} */
  async state(): Promise<any> {
    const response = await this.sendAndReceive({ type: 'state' });
    return response.data ?? {};
  }

  /** EnvClient.disconnect: a best-effort {"type": "close"}, then the socket is closed. */
  async close(): Promise<void> {
    if (!this.ws) return;
    try {
      this.ws.send(JSON.stringify({ type: 'close' }));
    } catch {
      /* best effort, as the client does */
    }
    this.ws.close();
    this.ws = null;
  }

  /** GenericEnvClient._step_payload: the action dict as is. */
  protected stepPayload(action: unknown): unknown {
    return action;
  }

  /** GenericEnvClient._parse_result */
  protected parseResult(payload: any): StepResult {
    return { observation: payload.observation ?? {}, reward: payload.reward ?? null, done: payload.done ?? false };
  }
}

/** GenericEnvClient: dict actions, dict observations. */
export class GenericEnvClient extends EnvClient {}

interface Tool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

/**
 * MCPToolClient. Default: tools as /ws step messages. `useProductionMode` (the attribute the Python client reads):
 * JSON-RPC over HTTP to `<base_url>/mcp` with httpx, without initialize.
 */
export class McpToolClient extends EnvClient {
  useProductionMode = false;
  private toolsCache: Tool[] | null = null;
  private productionSessionId: string | null = null;
  private jsonrpcRequestId = 0;
  /** Every JSON-RPC exchange in production mode, for the tests to inspect. */
  readonly exchanges: { url: string; status: number; request: any; response: any; authorization: string | null }[] = [];

  /** MCPClientBase._production_mcp_url: the ws URL back to http(s), minus /ws, plus /mcp (user-info kept). */
  private productionMcpUrl(): string {
    let url = this.wsUrl.replace('ws://', 'http://').replace('wss://', 'https://');
    if (url.endsWith('/ws')) url = url.slice(0, -'/ws'.length);
    return url.replace(/\/+$/, '') + '/mcp';
  }

  /**
   * MCPClientBase._production_mcp_request: httpx.AsyncClient().post(url, json=…) then raise_for_status().
   * httpx sends URL user-info as HTTP Basic (and strips it from the request line); fetch refuses such URLs, so the
   * same header is built here the way httpx builds it (percent-decoded user and password).
   */
  private async productionRequest(method: string, params?: Record<string, unknown>): Promise<any> {
    const url = new URL(this.productionMcpUrl());
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: '*/*' };
    let authorization: string | null = null;
    if (url.username || url.password) {
      const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
      authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
      headers.authorization = authorization;
      url.username = '';
      url.password = '';
    }
    const body = { jsonrpc: '2.0', method, params: params ?? {}, id: ++this.jsonrpcRequestId };
    const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
    const text = await res.text();
    const response = text === '' ? null : JSON.parse(text);
    this.exchanges.push({ url: url.toString(), status: res.status, request: body, response, authorization });
    if (res.status >= 400) throw new Error(`HTTP ${res.status} from ${url}`); // raise_for_status
    return response;
  }

  /** MCPClientBase._ensure_production_session */
  private async ensureProductionSession(): Promise<string> {
    if (this.productionSessionId !== null) return this.productionSessionId;
    const data = await this.productionRequest('openenv/session/create');
    if ('error' in data) throw new Error(`Failed to create MCP session: ${data.error?.message ?? 'unknown error'}`);
    const sessionId = data.result?.session_id;
    if (!sessionId) throw new Error('Failed to create MCP session: missing session_id');
    this.productionSessionId = sessionId;
    return sessionId;
  }

  /** The session id the client holds (production mode), for the tests. */
  get sessionId(): string | null {
    return this.productionSessionId;
  }

  /** MCPClientBase.list_tools: note the production branch swallows every failure into []. */
  async listTools(useCache = true): Promise<Tool[]> {
    if (useCache && this.toolsCache !== null) return this.toolsCache;
    if (this.useProductionMode) {
      try {
        const sessionId = await this.ensureProductionSession();
        const data = await this.productionRequest('tools/list', { session_id: sessionId });
        if ('error' in data) throw new Error(`list_tools failed: ${data.error?.message ?? 'unknown error'}`);
        if (data.result && 'tools' in data.result) {
          const tools = data.result.tools.map((t: any) => ({
            name: t.name ?? '',
            description: t.description ?? '',
            input_schema: t.input_schema ?? t.inputSchema ?? {},
          }));
          this.toolsCache = tools;
          return tools;
        }
      } catch {
        // "If HTTP request fails, return empty list"
      }
      return [];
    }
    const result = await this.step({ type: 'list_tools' });
    if (Array.isArray(result.observation.tools)) {
      this.toolsCache = result.observation.tools;
      return this.toolsCache!;
    }
    this.toolsCache = [];
    return this.toolsCache;
  }

  /** MCPToolClient.call_tool: RuntimeError on a JSON-RPC error or an observation error; `data` unwrapped. */
  async callTool(name: string, kwargs: Record<string, unknown> = {}): Promise<any> {
    if (this.useProductionMode) {
      const sessionId = await this.ensureProductionSession();
      const data = await this.productionRequest('tools/call', { name, arguments: kwargs, session_id: sessionId });
      if ('error' in data) throw new Error(`Tool '${name}' failed: ${data.error?.message ?? 'unknown error'}`);
      const result = data.result;
      if (result && typeof result === 'object' && 'data' in result) return result.data;
      return result;
    }
    const step = await this.step({ type: 'call_tool', tool_name: name, arguments: kwargs });
    const obs = step.observation;
    if (obs.tool_name !== undefined && obs.error) {
      throw new Error(`Tool '${name}' failed: ${obs.error.message} (type: ${obs.error.error_type})`);
    }
    if (obs.tool_name !== undefined) {
      const result = obs.result;
      if (result && typeof result === 'object' && 'data' in result) return result.data;
      return result;
    }
    return obs;
  }

  /** The last step's full result in default mode (reward and done ride on the call_tool observation). */
  async callToolStep(name: string, kwargs: Record<string, unknown> = {}): Promise<StepResult> {
    return this.step({ type: 'call_tool', tool_name: name, arguments: kwargs });
  }

  /** MCPClientBase._step_payload */
  protected override stepPayload(action: any): unknown {
    if (action?.type === 'list_tools') return { type: 'list_tools' };
    if (action?.type === 'call_tool') return { type: 'call_tool', tool_name: action.tool_name, arguments: action.arguments };
    return action;
  }

  /** MCPClientBase._parse_result: ListToolsObservation when `tools`, CallToolObservation when `tool_name`. */
  protected override parseResult(payload: any): StepResult {
    const obs = payload.observation ?? {};
    if ('tools' in obs) {
      const tools = (obs.tools ?? []).map((t: any) => ({
        name: t.name ?? '',
        description: t.description ?? '',
        input_schema: t.input_schema ?? t.inputSchema ?? {},
      }));
      return { observation: { tools, metadata: obs.metadata ?? {} }, reward: payload.reward ?? null, done: payload.done ?? false };
    }
    if ('tool_name' in obs) {
      return {
        observation: { tool_name: obs.tool_name ?? '', result: obs.result, error: obs.error ?? null, metadata: obs.metadata ?? {} },
        reward: payload.reward ?? null,
        done: payload.done ?? false,
      };
    }
    return { observation: { metadata: obs.metadata ?? {} }, reward: payload.reward ?? null, done: payload.done ?? false };
  }

  /** MCPClientBase.close: a best-effort openenv/session/close in production mode, then the socket. */
  override async close(): Promise<void> {
    if (this.productionSessionId !== null) {
      try {
        await this.productionRequest('openenv/session/close', { session_id: this.productionSessionId });
      } catch {
        /* best effort */
      } finally {
        this.productionSessionId = null;
      }
    }
    await super.close();
  }
}
