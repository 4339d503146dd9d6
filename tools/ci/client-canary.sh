#!/usr/bin/env bash
# A second, independent generator as a canary for openapi.json: swagger-typescript-api (a different parser and
# type mapper than openapi-typescript, which makes client/schema.d.ts) generates a fetch client into a scratch
# folder, and it must compile under `tsc --strict`. A document that only one generator copes with fails here.
set -euo pipefail
cd "$(dirname "$0")/../.."
document=${1:-openapi.json}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
npx --no-install swagger-typescript-api generate --path "$document" --output "$out" --name api.ts --silent
cat >"$out/tsconfig.json" <<'JSON'
{
  "compilerOptions": {
    "strict": true,
    "noEmit": true,
    "target": "ES2022",
    "module": "ES2022",
    "moduleResolution": "Bundler",
    "lib": ["ES2022", "DOM"],
    "types": [],
    "noUnusedLocals": false
  },
  "files": ["api.ts"]
}
JSON
npx --no-install tsc -p "$out/tsconfig.json"
echo "swagger-typescript-api: the client generated from $document compiles under tsc --strict ($(grep -c '' "$out/api.ts") lines)"
