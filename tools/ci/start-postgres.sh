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
