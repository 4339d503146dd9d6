import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The package version, read once; the same from src/ and dist/. */
export const APP_VERSION: string = (
  JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }
).version;
