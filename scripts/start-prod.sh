#!/bin/sh
# The one start sequence, shared by `npm start`, the Docker image and CI: apply pending migrations to the
# database named by DATABASE_URL (default ./data/supportdesk.db), then replace this shell with the server so
# it receives SIGTERM directly and shuts down cleanly.
set -e
cd "$(dirname "$0")/.."
node_modules/.bin/prisma migrate deploy
exec node dist/main.js
