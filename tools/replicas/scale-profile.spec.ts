import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load as parseYaml } from 'js-yaml';

/*
 * The compose file's scale profile (docs/replicas.md) against what the replicas need of it. Docker is not on these
 * machines: CI runs the same topology from Debian's packages and deploy/haproxy.cfg (test/replicas/), and this
 * checks that the profile wires that topology the same way.
 */

interface Service {
  profiles?: string[];
  image?: string;
  environment?: Record<string, string>;
  secrets?: string[];
  volumes?: string[];
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  networks?: Record<string, { ipv4_address?: string } | null>;
}

const ROOT = join(__dirname, '..', '..');
const compose = parseYaml(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8')) as { services: Record<string, Service>; secrets: Record<string, { file: string }> };
const haproxy = readFileSync(join(ROOT, 'deploy', 'haproxy.cfg'), 'utf8');
const services = compose.services;
const replicas = ['replica-1', 'replica-2'];

it('runs PostgreSQL, two replicas and HAProxy under the scale profile only; the SQLite server stays the default', () => {
  expect(Object.entries(services).filter(([, s]) => s.profiles?.includes('scale')).map(([name]) => name).sort()).toEqual(['balancer', 'postgres', ...replicas].sort());
  expect(services.supportdesk.profiles).toBeUndefined();
  expect(services.supportdesk.environment!.DATABASE_URL).toMatch(/^file:/);
});

it('gives every replica the database, the admin key and one chain key from secret files, and a volume of its own', () => {
  for (const name of replicas) {
    const replica = services[name];
    expect([name, replica.environment!.DATABASE_URL_FILE, replica.environment!.CHAIN_KEY_FILE, replica.environment!.ADMIN_API_KEY_FILE]).toEqual([
      name,
      '/run/secrets/database_url',
      '/run/secrets/chain_key',
      '/run/secrets/admin_api_key',
    ]);
    expect(replica.environment!.DATABASE_URL).toBeUndefined();
    expect(replica.secrets!.sort()).toEqual(['admin_api_key', 'chain_key', 'database_url']);
    expect(replica.depends_on!.postgres.condition).toBe('service_healthy');
    expect(replica.healthcheck!.test.join(' ')).toMatch(/\/health/);
    // The checkpoint file, a witness of the ledger heads, on the replica's own volume.
    expect(replica.volumes).toEqual([`${name}-data:/data`]);
    expect(replica.environment!.LEDGER_CHECKPOINT_FILE).toMatch(/^\/data\//);
  }
  expect(services.postgres.environment!.POSTGRES_PASSWORD_FILE).toBe('/run/secrets/postgres_password');
  expect(services.postgres.volumes).toEqual([expect.stringMatching(/^postgres-data:\/var\/lib\/postgresql\/data$/)]);
  for (const secret of ['database_url', 'postgres_password', 'chain_key', 'admin_api_key']) expect(compose.secrets[secret].file).toMatch(/^\.\/secrets\//);
});

it('puts HAProxy in front with the file CI tests, naming each replica, which trust its address and only its', () => {
  const balancer = services.balancer;
  expect(balancer.volumes).toEqual(['./deploy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro']);
  expect(Object.keys(balancer.depends_on!).sort()).toEqual(replicas);
  expect(balancer.environment).toEqual({ LISTEN: ':7860', REPLICA_1: 'replica-1:7860', REPLICA_2: 'replica-2:7860' });
  for (const variable of ['LISTEN', 'REPLICA_1', 'REPLICA_2']) expect(haproxy).toContain(`"\${${variable}}"`);
  const address = balancer.networks!.supportdesk!.ipv4_address;
  for (const name of replicas) expect([name, services[name].environment!.TRUSTED_PROXIES]).toEqual([name, address]);
  expect(address).not.toBe(services.tls.networks!.supportdesk!.ipv4_address);
  // Its health checks name localhost, which the replicas must answer to.
  expect(haproxy).toMatch(/http-check send meth GET uri \/health ver HTTP\/1\.1 hdr Host localhost/);
  expect(services['replica-1'].environment!.ALLOWED_HOSTS).toMatch(/\*/);
});
