import assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';

import { bundledServerPath, effectiveValue, expandPath, resolveServerPath } from '../src/logic/serverPath';

const ext = '/ext/graphmend-0.1.0';
const bundled = '/ext/graphmend-0.1.0/server/linux-x64/graphmend';
const base = {
  extensionPath: ext,
  workspaceFolder: '/ws',
  platform: 'linux',
  arch: 'x64',
  trusted: true,
};

test('the bundled binary is found without configuration', () => {
  const r = resolveServerPath({ ...base, setting: { globalValue: '' }, isExecutable: (f) => f === bundled });
  assert.deepEqual(r, { command: bundled, source: 'bundled' });
});

test('bundled path per platform', () => {
  assert.equal(bundledServerPath(ext, 'linux', 'x64'), bundled);
  assert.equal(bundledServerPath(ext, 'linux', 'arm64'), path.join(ext, 'server', 'linux-arm64', 'graphmend'));
});

test('no bundled binary for this platform: graphmend on PATH', () => {
  const r = resolveServerPath({ ...base, arch: 'arm64', setting: undefined, isExecutable: (f) => f === bundled });
  assert.deepEqual(r, { command: 'graphmend', source: 'PATH' });
});

test('a custom server path wins over the bundled binary', () => {
  const r = resolveServerPath({ ...base, setting: { globalValue: '/opt/gm/graphmend' }, isExecutable: () => true });
  assert.deepEqual(r, { command: '/opt/gm/graphmend', source: 'setting' });
});

test('folder beats workspace beats user value when trusted', () => {
  const setting = { globalValue: '/u/gm', workspaceValue: '/w/gm', workspaceFolderValue: '/f/gm' };
  assert.equal(resolveServerPath({ ...base, setting, isExecutable: () => true }).command, '/f/gm');
  assert.equal(
    resolveServerPath({ ...base, setting: { ...setting, workspaceFolderValue: undefined }, isExecutable: () => true }).command,
    '/w/gm',
  );
});

test('untrusted: a workspace server path is not honoured', () => {
  const r = resolveServerPath({
    ...base,
    trusted: false,
    setting: { workspaceValue: './evil/graphmend' },
    isExecutable: (f) => f === bundled,
  });
  assert.deepEqual(r, { command: bundled, source: 'bundled', ignoredWorkspaceValue: './evil/graphmend' });
  const user = resolveServerPath({
    ...base,
    trusted: false,
    setting: { globalValue: '/u/gm', workspaceFolderValue: '/f/gm' },
    isExecutable: () => true,
  });
  assert.equal(user.command, '/u/gm');
  assert.equal(user.ignoredWorkspaceValue, '/f/gm');
});

test('blank values count as unset', () => {
  assert.deepEqual(effectiveValue({ globalValue: '  ', workspaceValue: '' }, true), { value: undefined });
});

test('paths: ~, ${workspaceFolder} and relative paths', () => {
  assert.equal(expandPath('~/bin/graphmend', '/ws'), path.join(os.homedir(), 'bin/graphmend'));
  assert.equal(expandPath('${workspaceFolder}/build/graphmend', '/ws'), '/ws/build/graphmend');
  assert.equal(expandPath('build/graphmend', '/ws'), '/ws/build/graphmend');
  assert.equal(expandPath('graphmend', '/ws'), 'graphmend'); /* a bare name is looked up in PATH */
});
