/* The extension's setting defaults (package.json) against the server's own
 * (`graphmend settings --defaults`). Needs the binary: $GRAPHMEND_BIN or ../build/graphmend. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

import { compareDefaults } from '../src/logic/settings';

const root = path.resolve(__dirname, '..', '..');
const binary = process.env.GRAPHMEND_BIN ?? path.resolve(root, '..', 'build', 'graphmend');

test('package.json defaults equal the server defaults', { skip: !fs.existsSync(binary) && `no server binary at ${binary}` }, () => {
  const server = JSON.parse(execFileSync(binary, ['settings', '--defaults'], { encoding: 'utf8' })) as Record<string, unknown>;
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, { default?: unknown }> } };
  };
  assert.deepEqual(compareDefaults(server, manifest.contributes.configuration.properties), []);
});
