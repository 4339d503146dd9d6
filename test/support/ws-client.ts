import WebSocket from 'ws';

/** A connected OpenEnv WebSocket client that reads replies in order: `ask` sends and waits for the next reply. */
export async function openWsClient(url: string, headers: Record<string, string> = {}) {
  const ws = new WebSocket(url, { headers });
  const inbox: any[] = [];
  const waiters: ((m: any) => void)[] = [];
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString());
    const waiter = waiters.shift();
    if (waiter) waiter(message);
    else inbox.push(message);
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const next = () => (inbox.length > 0 ? Promise.resolve(inbox.shift()) : new Promise<any>((r) => waiters.push(r)));
  const ask = (message: unknown) => {
    ws.send(typeof message === 'string' ? message : JSON.stringify(message));
    return next();
  };
  return { ws, ask, next, close: () => ws.close() };
}
