import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  ProfileFailure,
  confirmSummary,
  parseProfileArguments,
  profileArguments,
  profileErrorDetails,
  profileReportMarkdown,
} from '../src/logic/profile';

test('arguments: a caller\'s entry beats the setting; empty values are left out', () => {
  assert.deepEqual(
    profileArguments('file:///a.py', { python: '', device: 'auto', entry: 'example' }, { entry: 'make_model' }),
    ['file:///a.py', { entry: 'make_model', device: 'auto' }],
  );
  assert.deepEqual(profileArguments('file:///a.py', { python: ' /venv/bin/python ' }), [
    'file:///a.py',
    { python: '/venv/bin/python' },
  ]);
});

test('a code lens: its entry and server-only options are kept, the device setting wins', () => {
  assert.deepEqual(
    profileArguments('file:///a.py', { device: 'cpu', python: '/p' }, { entry: 'e', device: 'auto', unsafeFixes: true }),
    ['file:///a.py', { unsafeFixes: true, entry: 'e', device: 'cpu', python: '/p' }],
  );
  assert.deepEqual(profileArguments('file:///a.py', { device: '' }, { device: 'cuda' }), [
    'file:///a.py',
    { device: 'cuda' },
  ]);
});

test('error data of a failed profile', () => {
  assert.equal(profileErrorDetails({ kind: 'no-torch', traceback: 'tb', output: '' }), 'no-torch\ntb');
  assert.equal(profileErrorDetails(undefined), undefined);
});

test('parse a code lens call', () => {
  assert.deepEqual(parseProfileArguments(['file:///a.py', { entry: 'e', unsafeFixes: true }]), {
    uri: 'file:///a.py',
    options: { entry: 'e', unsafeFixes: true },
  });
  assert.deepEqual(parseProfileArguments([]), { uri: undefined, options: {} });
});

test('report: markdown string, {markdown}, or the report object', () => {
  assert.equal(profileReportMarkdown('# r\n'), '# r\n');
  assert.equal(profileReportMarkdown({ ok: true, markdown: '# m\n' }), '# m\n');
  const md = profileReportMarkdown({
    ok: true,
    device: 'cpu',
    torch: '2.13.0',
    original: { graphs: 4, breaks: 3, compile_s: 2.5, cold_ms: 900, steady_ms: 1.5, steady_p90_ms: 2 },
    mended: { graphs: 1, breaks: 0, compile_s: 1.25, cold_ms: 300, steady_ms: 1.2, steady_p90_ms: 1.4 },
    outputs_match: true,
  });
  assert.match(md, /\| graphs \| 4 \| 1 \|/);
  assert.match(md, /outputs match: yes/);
});

test('report: a failure becomes a ProfileFailure with the details', () => {
  assert.throws(
    () => profileReportMarkdown({ ok: false, error: { kind: 'no-torch', message: 'torch is not installed', traceback: 'tb' } }),
    (e: unknown) => e instanceof ProfileFailure && e.message === 'no-torch: torch is not installed' && e.details === 'tb',
  );
  assert.throws(() => profileReportMarkdown(null), ProfileFailure);
});

test('confirm: the summary line of the answer, or a plain note without one', () => {
  const summary = 'precision 1.00 (2 of 2 reached predictions confirmed), recall 0.50 (1 of 2 dynamo break sites predicted)';
  assert.equal(confirmSummary({ ok: true, summary }), summary);
  assert.equal(confirmSummary({ ok: true }), 'no summary in the answer');
  assert.equal(confirmSummary(undefined), 'no summary in the answer');
});
