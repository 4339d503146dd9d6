#!/usr/bin/env bash
# Makes sure a PostgreSQL server runs on this machine for the PostgreSQL suites (`npm run test:postgres`), and prints
# the URL of a role that may create databases, to export as SUPPORTDESK_TEST_POSTGRES_URL. Installs Debian's
# postgresql package when it is missing (needs root, as CI has), starts its cluster, and creates the role once.
set -euo pipefail
if ! command -v pg_lsclusters >/dev/null || [ -z "$(pg_lsclusters -h 2>/dev/null)" ]; then
  echo "== installing postgresql" >&2
  apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
read -r version cluster port status _ < <(pg_lsclusters -h | head -n 1)
if [ "$status" != "online" ]; then pg_ctlcluster "$version" "$cluster" start >&2; fi
for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p "$port" && break; sleep 0.5; done
# TLS, for the suite that connects with sslmode=verify-full (test/postgres/tls.spec.ts): a test CA and a server
# certificate for 127.0.0.1 and localhost, made once; the CA's certificate where the suite looks for it. Plain
# connections stay allowed (pg_hba's host lines take both), so the other suites are unchanged.
ca=${SUPPORTDESK_TEST_POSTGRES_CA:-/usr/local/share/supportdesk-test-postgres-ca.crt}
tls=/var/lib/postgresql/supportdesk-test-tls
if [ ! -f "$tls/server.crt" ] || [ ! -f "$ca" ]; then
  mkdir -p "$tls"
  openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj '/CN=SupportDesk test CA' \
    -keyout "$tls/ca.key" -out "$tls/ca.crt" 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -subj '/CN=127.0.0.1' -keyout "$tls/server.key" -out "$tls/server.csr" 2>/dev/null
  printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' > "$tls/server.ext"
  openssl x509 -req -in "$tls/server.csr" -CA "$tls/ca.crt" -CAkey "$tls/ca.key" -CAcreateserial -days 3650 \
    -extfile "$tls/server.ext" -out "$tls/server.crt" 2>/dev/null
  chown -R postgres:postgres "$tls" && chmod 600 "$tls/server.key" "$tls/ca.key"
  install -D -m 644 "$tls/ca.crt" "$ca"
fi
runuser -u postgres -- psql -q -p "$port" -v ON_ERROR_STOP=1 >/dev/null <<SQL
ALTER SYSTEM SET ssl = on;
ALTER SYSTEM SET ssl_cert_file = '$tls/server.crt';
ALTER SYSTEM SET ssl_key_file = '$tls/server.key';
SELECT pg_reload_conf();
SQL
role=supportdesk_test
password=supportdesk_test
runuser -u postgres -- psql -q -p "$port" -v ON_ERROR_STOP=1 >/dev/null <<SQL
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$role') THEN
    CREATE ROLE $role LOGIN CREATEDB PASSWORD '$password';
  END IF;
END \$\$;
SQL
echo "postgresql://$role:$password@127.0.0.1:$port/postgres"
