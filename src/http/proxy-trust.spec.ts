import { ProxyTrust } from './proxy-trust';

const from = (remoteAddress: string, headers: Record<string, string> = {}) => ({ headers, socket: { remoteAddress } });

it('trusts nobody by default: the socket is the client, forwarded headers are ignored', () => {
  const trust = new ProxyTrust([]);
  const request = from('198.51.100.9', { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example', host: 'a.example' });
  expect(trust.clientAddress(request)).toBe('198.51.100.9');
  expect(trust.requestedOrigin(request)).toEqual({ scheme: 'http', host: 'a.example' });
  expect(trust.forFastify()).toBe(false);
});

it('behind trusted proxies, the client is the nearest forwarded hop that is not one of them', () => {
  const trust = new ProxyTrust(['10.0.0.0/8', '172.30.86.2']);
  expect(trust.clientAddress(from('172.30.86.2', { 'x-forwarded-for': '203.0.113.7' }))).toBe('203.0.113.7');
  // A client's own X-Forwarded-For entries (left of the untrusted hop) are not believed.
  expect(trust.clientAddress(from('172.30.86.2', { 'x-forwarded-for': '1.2.3.4, 203.0.113.7, 10.1.2.3' }))).toBe('203.0.113.7');
  expect(trust.clientAddress(from('::ffff:172.30.86.2', { 'x-forwarded-for': '203.0.113.8' }))).toBe('203.0.113.8');
  expect(trust.clientAddress(from('172.30.86.3', { 'x-forwarded-for': '203.0.113.7' }))).toBe('172.30.86.3');
  // As Fastify's request.ip gives it, so HTTP and the /ws upgrade count one client under one name.
  expect(trust.clientAddress(from('::ffff:198.51.100.9', { 'x-forwarded-for': '203.0.113.7' }))).toBe('::ffff:198.51.100.9');
  expect(trust.requestedOrigin(from('172.30.86.2', { 'x-forwarded-proto': 'http, https', host: 'sd.example' }))).toEqual({ scheme: 'https', host: 'sd.example' });
  expect(trust.requestedOrigin(from('172.30.86.2', { 'x-forwarded-host': 'a.example, sd.example', host: 'supportdesk:7860' }))).toEqual({ scheme: 'http', host: 'sd.example' });
});
