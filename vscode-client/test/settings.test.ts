import assert from 'node:assert/strict';
import { test } from 'node:test';

import { SettingLevels } from '../src/logic/serverPath';
import { compareDefaults, needsRestart, serverPython, serverSettings, severityFor } from '../src/logic/settings';

function inspector(levels: Record<string, SettingLevels<unknown>>) {
  return (key: string): SettingLevels<unknown> | undefined => levels[key] ?? {};
}

test('only the keys the user set are sent (pyproject.toml keeps the rest)', () => {
  const settings = serverSettings(
    inspector({
      torchVersion: { globalValue: '2.10' },
      captureScalarOutputs: { workspaceValue: true, globalValue: false },
      ignore: { workspaceFolderValue: ['GM401'], workspaceValue: ['GM4'] },
      nestedGraphBreaks: { globalValue: null },
      serverPath: { globalValue: '/x' }, /* client-only: never sent */
    }),
  );
  assert.deepEqual(settings, {
    torchVersion: '2.10',
    captureScalarOutputs: true,
    ignore: ['GM401'],
    nestedGraphBreaks: null,
  });
});

test('nothing set: an empty object', () => {
  assert.deepEqual(serverSettings(() => undefined), {});
});

test('unsetting a key restarts the server; changing one does not', () => {
  assert.equal(needsRestart({ training: true }, { training: false }), false);
  assert.equal(needsRestart({ training: true, fullgraph: true }, { fullgraph: true }), true);
  assert.equal(needsRestart({}, { fullgraph: true }), false);
});

test('severity overrides: longest prefix wins, bad levels ignored', () => {
  const overrides = { GM: 'information', GM4: 'hint', GM401: 'error', GM1: 'loud' };
  assert.equal(severityFor('GM401', overrides), 0);
  assert.equal(severityFor('GM402', overrides), 3);
  assert.equal(severityFor('GM101', overrides), 2);
  assert.equal(severityFor('GM101', {}), undefined);
  assert.equal(severityFor(undefined, overrides), undefined);
});

test('compareDefaults names every difference', () => {
  const server = { training: false, torchVersion: '2.13' };
  assert.deepEqual(
    compareDefaults(server, {
      'graphmend.training': { default: true },
      'graphmend.serverPath': { default: '' },
      'graphmend.bogus': { default: 1 },
    }).length,
    /* training differs, torchVersion missing, bogus unknown, and the 13 other keys the
     * extension sends are absent from this tiny server list */
    3 + 13,
  );
});

test('graphmend.python goes to the server (GM902) as a path, workspace values only when trusted', () => {
  const levels = { globalValue: '~/py/bin/python', workspaceValue: '${workspaceFolder}/.venv/bin/python' };
  assert.equal(serverPython(levels, true, '/w'), '/w/.venv/bin/python');
  assert.match(serverPython(levels, false, '/w') ?? '', /\/py\/bin\/python$/);
  assert.equal(serverPython({ workspaceValue: './.venv/bin/python' }, false, '/w'), undefined);
  assert.equal(serverPython({ globalValue: '' }, true, '/w'), undefined);
  assert.equal(serverPython(undefined, true, '/w'), undefined);
});
