import { loadConfig } from '../config/app-config';
import { startupSummary } from './startup-summary';

const config = (env: Record<string, string>) => loadConfig({ DATABASE_URL: 'file:/data/supportdesk.db', ...env });

describe('the start-up summary line', () => {
  it('says where to go, which database, the mode and the families, in one line', () => {
    const { message, fields, warning } = startupSummary(config({}), '/data/supportdesk.db');
    expect(message).not.toContain('\n');
    expect(message).toMatch(/^SupportDesk listening on http:\/\/127\.0\.0\.1:7860 \(docs at http:\/\/127\.0\.0\.1:7860\/docs\)/);
    expect(message).toContain('database /data/supportdesk.db');
    expect(message).toContain('open mode (no API key needed, loopback only)');
    expect(message).toMatch(/3 task families: billing_duplicate_charge g3 \(g1, g2 replays\), security_compromised_account g6 \(g1, g2, g3, g4, g5 replays\), logistics_missing_order_vip g4 \(g1, g2, g3 replays\)/);
    expect(fields).toMatchObject({ address: 'http://127.0.0.1:7860', mode: 'open', reachable_from: 'loopback', database: '/data/supportdesk.db' });
    expect(warning).toBeNull();
  });

  it('warns, apart, when anonymous requests can come from other machines', () => {
    const { message, fields, warning } = startupSummary(config({ HOST: '0.0.0.0', PORT: '8080' }), '/data/supportdesk.db');
    expect(message).toContain('listening on http://0.0.0.0:8080');
    expect(message).toContain('reachable from other machines on 0.0.0.0');
    expect(fields.reachable_from).toBe('network');
    expect(warning).toMatch(/REQUIRE_API_KEY=true/);
  });

  it('says keys are required on a shared server, and brackets an IPv6 address', () => {
    const env = { HOST: '::', REQUIRE_API_KEY: 'true', ADMIN_API_KEY: 'a'.repeat(24), CHAIN_KEY: 'c'.repeat(32) };
    const { message, fields, warning } = startupSummary(config(env), '/data/supportdesk.db');
    expect(message).toContain('http://[::]:7860');
    expect(message).toContain('· keys required ·');
    expect(fields.mode).toBe('keys required');
    expect(warning).toBeNull();
  });

  it('says whether a private test split is configured, naming its key id and never the secret', () => {
    expect(startupSummary(config({}), '/data/supportdesk.db').message).toContain('· no private test split ·');
    expect(startupSummary(config({}), '/data/supportdesk.db').fields.private_split).toBeNull();
    const secret = 'private-split-secret-0123456789abcdef';
    const { message, fields } = startupSummary(config({ PRIVATE_SPLIT_KEY: secret }), '/data/supportdesk.db');
    expect(message).toMatch(/· private test split ps_[0-9a-f]{12} ·/);
    expect(fields.private_split).toEqual({ key_id: expect.stringMatching(/^ps_[0-9a-f]{12}$/), retired_keys: 0 });
    expect(JSON.stringify({ message, fields })).not.toContain(secret);
  });
});
