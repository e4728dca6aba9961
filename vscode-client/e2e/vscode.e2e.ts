/* The extension in a real VS Code: code-server with the VSIX installed, driven in headless
 * Chromium through playwright-core. Run by tools/test-vscode, which installs what it needs and
 * passes (environment): GM_CODE_SERVER (the code-server launcher), GM_VSIX, GRAPHMEND_BIN (the
 * server the VSIX carries; also used for the expected findings), GM_EXAMPLE (the Python file),
 * GM_E2E_DIR (scratch space), GM_SCREENSHOTS (where the screenshots go) and, optionally,
 * GM_FAILURE_SHOTS (where the screenshot of a failure goes; GM_SCREENSHOTS by default). */
import assert from 'node:assert/strict';
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { Browser, Page, chromium } from 'playwright-core';

interface Finding {
  code: string;
  message: string;
  location: { row: number; column: number };
  fix: null | {
    message: string;
    applicability: string;
    edits: { content: string; location: { row: number; column: number }; end_location: { row: number; column: number } }[];
  };
}

function env(name: string): string {
  const value = process.env[name];
  if (!value) {
    throw new Error(`${name} is not set (run tools/test-vscode)`);
  }
  return value;
}

const codeServer = env('GM_CODE_SERVER');
const vsix = env('GM_VSIX');
const binary = env('GRAPHMEND_BIN');
const example = env('GM_EXAMPLE');
const scratch = env('GM_E2E_DIR');
const shots = env('GM_SCREENSHOTS');
/* Optional: a Python with torch for the profile step, and the file to profile. */
const profilePython = process.env.GM_PROFILE_PYTHON ?? '';
const profileExample = process.env.GM_PROFILE_EXAMPLE ?? '';
const failureShots = process.env.GM_FAILURE_SHOTS || shots;
const children: ChildProcess[] = [];
let step = 0;
/* The page a failure is shown on. */
let activePage: Page | undefined;

function log(message: string): void {
  process.stdout.write(`[vscode-e2e] ${message}\n`);
}

async function shot(page: Page, name: string): Promise<void> {
  step += 1;
  const file = path.join(shots, `${String(step).padStart(2, '0')}-${name}.png`);
  await page.screenshot({ path: file });
  log(`screenshot ${file}`);
}

/** The window as a failure left it, before the browser closes. */
async function failureShot(): Promise<void> {
  if (!activePage || activePage.isClosed()) {
    return;
  }
  const file = path.join(failureShots, `vscode-e2e-failure-${new Date().toISOString().replace(/[:.]/g, '-')}.png`);
  try {
    fs.mkdirSync(failureShots, { recursive: true });
    await activePage.screenshot({ path: file, timeout: 10000 });
    log(`failure screenshot ${file}`);
  } catch (error) {
    log(`no failure screenshot: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function waitForHttp(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url);
      if (response.status < 500) {
        return;
      }
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

interface CodeServer {
  port: number;
  child: ChildProcess;
}

async function startCodeServer(args: string[], env: NodeJS.ProcessEnv, logName: string): Promise<CodeServer> {
  const port = await freePort();
  const serverLog = fs.openSync(path.join(scratch, logName), 'w');
  const child = spawn(
    codeServer,
    [...args, '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--disable-telemetry', '--disable-update-check',
      '--disable-getting-started-override'],
    { env, stdio: ['ignore', serverLog, serverLog], detached: true },
  );
  children.push(child);
  log(`code-server pid ${child.pid} on port ${port}`);
  await waitForHttp(`http://127.0.0.1:${port}/healthz`, 60000);
  return { port, child };
}

function stopChild(child: ChildProcess): void {
  if (child.pid && child.exitCode === null) {
    try {
      process.kill(-child.pid, 'SIGTERM'); /* its process group: code-server, its extension host, graphmend */
    } catch {
      child.kill('SIGTERM');
    }
  }
}

/** Applies ruff-style edits (1-based rows, columns in characters) to text. */
function applyEdits(text: string, edits: NonNullable<Finding['fix']>['edits']): string {
  const lines = text.split('\n');
  const offset = (row: number, column: number): number => {
    let sum = 0;
    for (let i = 0; i < row - 1; i++) {
      sum += lines[i].length + 1;
    }
    return sum + column - 1;
  };
  const sorted = [...edits].sort(
    (a, b) => offset(b.location.row, b.location.column) - offset(a.location.row, a.location.column),
  );
  let out = text;
  for (const edit of sorted) {
    const start = offset(edit.location.row, edit.location.column);
    const end = offset(edit.end_location.row, edit.end_location.column);
    out = out.slice(0, start) + edit.content + out.slice(end);
  }
  return out;
}

/** What `graphmend fix` (safe mends) makes of text: the expectation for fix-all. */
function cliFix(text: string, name: string): string {
  const dir = fs.mkdtempSync(path.join(scratch, 'fix-'));
  const copy = path.join(dir, name);
  fs.writeFileSync(copy, text);
  try {
    execFileSync(binary, ['fix', copy], { stdio: 'ignore' });
  } catch {
    /* exit status 1: breaks remain */
  }
  const out = fs.readFileSync(copy, 'utf8');
  fs.rmSync(dir, { recursive: true, force: true });
  return out;
}

async function waitForFile(file: string, previous: string, page: Page): Promise<string> {
  const deadline = Date.now() + 15000;
  let text = fs.readFileSync(file, 'utf8');
  while (text === previous && Date.now() < deadline) {
    await page.waitForTimeout(250);
    text = fs.readFileSync(file, 'utf8');
  }
  return text;
}

async function openFile(page: Page, name: string): Promise<void> {
  await page.keyboard.press('Control+P');
  const quick = page.locator('.quick-input-widget input');
  await quick.waitFor({ state: 'visible' });
  await quick.fill(name);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.tab.active', { hasText: name }).waitFor();
  await page.locator('.editor-instance .monaco-editor .view-lines').waitFor();
}

/** The editor's line numbers that carry a squiggle in the visible part of the editor. */
async function squiggledLines(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const editor = document.querySelector('.editor-instance .monaco-editor');
    if (!editor) {
      return [];
    }
    const numbers = [...editor.querySelectorAll('.margin-view-overlays .line-numbers')].map((el) => ({
      line: Number(el.textContent?.trim()),
      top: el.getBoundingClientRect().top,
    }));
    const lines = new Set<number>();
    for (const squiggle of editor.querySelectorAll('.view-overlays [class*="squiggly-"]')) {
      const top = squiggle.getBoundingClientRect().top;
      let best: { line: number; top: number } | undefined;
      for (const n of numbers) {
        if (!best || Math.abs(n.top - top) < Math.abs(best.top - top)) {
          best = n;
        }
      }
      if (best && Math.abs(best.top - top) < 4) {
        lines.add(best.line);
      }
    }
    return [...lines].sort((a, b) => a - b);
  });
}

async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor();
  await page.keyboard.press('Enter');
}

async function goToLine(page: Page, line: number, column: number): Promise<void> {
  await page.keyboard.press('Control+G');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`:${line}:${column}`);
  await page.keyboard.press('Enter');
  await page.waitForTimeout(300);
}

async function main(): Promise<void> {
  fs.mkdirSync(shots, { recursive: true });
  for (const old of fs.readdirSync(shots)) {
    if (old.endsWith('.png')) {
      fs.rmSync(path.join(shots, old));
    }
  }
  const workspace = path.join(scratch, 'workspace');
  const data = path.join(scratch, 'user-data');
  const extensions = path.join(scratch, 'extensions');
  for (const dir of [workspace, data, extensions]) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
  }
  const file = path.join(workspace, path.basename(example));
  fs.copyFileSync(example, file);
  const original = fs.readFileSync(file, 'utf8');
  const onSave = path.join(workspace, `onsave_${path.basename(example)}`);
  fs.copyFileSync(example, onSave);
  const profiled = profilePython && profileExample ? path.join(workspace, path.basename(profileExample)) : '';
  if (profiled) {
    fs.copyFileSync(profileExample, profiled);
  }
  fs.mkdirSync(path.join(data, 'User'), { recursive: true });
  fs.writeFileSync(
    path.join(data, 'User', 'settings.json'),
    JSON.stringify({
      'workbench.startupEditor': 'none',
      'workbench.tips.enabled': false,
      'workbench.enableExperiments': false,
      'extensions.ignoreRecommendations': true,
      'extensions.autoCheckUpdates': false,
      'extensions.autoUpdate': false,
      'editor.minimap.enabled': false,
      'editor.hover.delay': 200,
      'chat.disableAIFeatures': true,
      'telemetry.telemetryLevel': 'off',
      'window.commandCenter': false,
      'git.openRepositoryInParentFolders': 'never',
      'git.enabled': false,
      'security.workspace.trust.startupPrompt': 'always',
      ...(profilePython ? { 'graphmend.profile.device': 'cpu' } : {}),
    }),
  );
  /* graphmend.python is machine-scoped: in code-server (a remote window) it belongs in the
   * remote machine's settings, not in the user settings. */
  if (profilePython) {
    fs.mkdirSync(path.join(data, 'Machine'), { recursive: true });
    fs.writeFileSync(path.join(data, 'Machine', 'settings.json'), JSON.stringify({ 'graphmend.python': profilePython }));
  }

  /* What the server predicts for the file, from the same binary the VSIX carries. */
  let checkOutput: string;
  try {
    checkOutput = execFileSync(binary, ['check', '--output-format', 'json', file], { encoding: 'utf8' });
  } catch (error) {
    checkOutput = String((error as { stdout?: string }).stdout ?? '');
  }
  const findings = JSON.parse(checkOutput) as Finding[];
  const expectedLines = [...new Set(findings.map((f) => f.location.row))].sort((a, b) => a - b);
  log(`graphmend check predicts ${findings.length} findings at lines ${expectedLines.join(', ')}`);
  assert.ok(findings.length > 0, 'the example has predicted breaks');
  const mendable = findings.find((f) => f.fix && f.fix.message.startsWith('Mend graph break') && f.code === 'GM401') ??
    findings.find((f) => f.fix && f.fix.message.startsWith('Mend graph break'));
  assert.ok(mendable?.fix, 'a finding of the example offers "Mend graph break"');

  const baseEnv = { ...process.env, XDG_CONFIG_HOME: path.join(scratch, 'xdg-config'), XDG_DATA_HOME: path.join(scratch, 'xdg-data') };
  const csArgs = ['--user-data-dir', data, '--extensions-dir', extensions];
  log(`installing ${vsix}`);
  execFileSync(codeServer, [...csArgs, '--install-extension', vsix], { env: baseEnv, stdio: 'inherit' });
  const version = execFileSync(codeServer, ['--version'], { env: baseEnv, encoding: 'utf8' }).trim().split('\n');
  log(`code-server --version: ${version.join(' | ')}`);

  const { port, child: cs } = await startCodeServer([...csArgs, '--disable-workspace-trust', workspace], baseEnv,
    'code-server.log');

  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync'],
    });
    log(`chromium ${browser.version()}`);
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    activePage = page;
    page.on('pageerror', (error) => log(`page error: ${error.message}`));
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`);
    await page.locator('.monaco-workbench').waitFor({ timeout: 60000 });
    await page.waitForTimeout(2000);
    await shot(page, 'workbench');

    /* Open the example. */
    await openFile(page, path.basename(file));
    log('opened the example');

    /* Squiggles at every predicted line. */
    await page.locator('.editor-instance .monaco-editor .view-overlays [class*="squiggly-"]').first().waitFor({ timeout: 60000 });
    const seen = new Set<number>();
    for (const line of expectedLines) {
      await goToLine(page, line, 1);
      for (let i = 0; i < 20 && !(await squiggledLines(page)).includes(line); i++) {
        await page.waitForTimeout(250);
      }
      for (const l of await squiggledLines(page)) {
        seen.add(l);
      }
    }
    await goToLine(page, expectedLines[0], 1);
    await shot(page, 'squiggles');
    const seenLines = [...seen].sort((a, b) => a - b);
    log(`squiggles seen at lines ${seenLines.join(', ')}`);
    assert.deepEqual(seenLines, expectedLines, 'squiggles at exactly the predicted lines');

    /* The Problems panel lists them. */
    await page.keyboard.press('Control+Shift+M');
    const rows = page.locator('.markers-panel .monaco-list-row[aria-label*="graphmend" i], .markers-panel .monaco-list-row');
    await rows.first().waitFor({ timeout: 30000 });
    await page.waitForTimeout(1000);
    const labels = await page.locator('.markers-panel .monaco-list-row').evaluateAll((els) =>
      els.map((el) => `${el.getAttribute('aria-label') ?? ''} ${(el as HTMLElement).innerText}`),
    );
    await shot(page, 'problems');
    const problemLines = labels
      .map((label) => /(?:line |Ln )(\d+)/i.exec(label))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]));
    log(`Problems panel rows: ${labels.length}; lines ${problemLines.join(', ')}`);
    for (const label of labels) {
      log(`  problem: ${label.replace(/\s+/g, ' ').slice(0, 160)}`);
    }
    for (const f of findings) {
      assert.ok(
        labels.some((label) => label.includes(f.code) && new RegExp(`(?:line |Ln )${f.location.row}\\b`, 'i').test(label)),
        `Problems panel has ${f.code} at line ${f.location.row}`,
      );
    }
    /* Each row names its construct as the code writes it (the message's lead, as the CLI prints
     * it: "`print(\"mlp activation mean:\", h.mean())`", "`if probs.isnan().any()`"). */
    for (const f of findings) {
      const lead = f.message.slice(0, 40);
      assert.ok(labels.some((label) => label.includes(lead)), `Problems panel shows "${lead}"`);
    }
    await page.keyboard.press('Control+Shift+M'); /* hide the panel again */

    /* Hover over the squiggle of the finding we mend and read the explanation. */
    const target = mendable;
    await goToLine(page, target.location.row, target.location.column);
    await page.keyboard.press('Escape');
    const squiggle = await page.evaluateHandle((line) => {
      const editor = document.querySelector('.editor-instance .monaco-editor');
      const numbers = [...(editor?.querySelectorAll('.margin-view-overlays .line-numbers') ?? [])];
      const number = numbers.find((n) => Number(n.textContent?.trim()) === line);
      const top = number?.getBoundingClientRect().top ?? -1;
      return [...(editor?.querySelectorAll('.view-overlays [class*="squiggly-"]') ?? [])].find(
        (s) => Math.abs(s.getBoundingClientRect().top - top) < 4,
      );
    }, target.location.row);
    const element = squiggle.asElement();
    assert.ok(element, `a squiggle on line ${target.location.row}`);
    const box = await element.boundingBox();
    assert.ok(box);
    await page.mouse.move(box.x + Math.min(box.width / 2, 40), box.y + box.height / 2);
    const hover = page.locator('.monaco-hover:visible', { hasText: target.code });
    await hover.first().waitFor({ timeout: 15000 });
    const hoverText = (await hover.first().innerText()).trim();
    await shot(page, 'hover');
    log(`hover: ${hoverText.replace(/\s+/g, ' ').slice(0, 300)}`);
    assert.ok(hoverText.includes(target.code), 'the hover names the rule');
    assert.ok(hoverText.length > 60, 'the hover explains');
    /* VS Code shows the diagnostic itself first (its message and "graphmend(GM401)"); in
     * graphmend's own hover below it, what to do leads: the short title of the mend ("Mend GM401
     * (unsafe): defer print after the graph"), then why it breaks with the finding's own message,
     * then the reference. */
    const hoverLines = hoverText.split('\n').map((l) => l.trim()).filter((l) => l.length > 0);
    const ownStart = hoverLines.findIndex((l) => /^(Mend GM|No mend|Why it breaks)/.test(l));
    assert.ok(ownStart >= 0, 'graphmend\'s hover is shown');
    assert.ok(hoverLines.slice(0, ownStart).join(' ').includes(target.message.slice(0, 40)),
      'above it, VS Code\'s own row for the diagnostic');
    const hoverLead = hoverLines[ownStart];
    log(`hover lead: ${hoverLead.slice(0, 160)}`);
    assert.match(hoverLead, new RegExp(`^Mend ${target.code}( \\((unsafe|setting)\\))?: .{3,60}\\. `),
      'the hover leads with the mend\'s short title');
    const own = hoverLines.slice(ownStart).join('\n');
    const why = own.indexOf('Why it breaks');
    assert.ok(why > own.indexOf(`Mend ${target.code}`), 'why it breaks comes after the fix');
    /* markdown renders the message's `code` spans without their backquotes */
    const rendered = target.message.replace(/`/g, '').slice(0, 40);
    assert.ok(own.slice(why).includes(rendered), 'why it breaks carries the finding\'s message');
    await page.mouse.move(5, 5);
    await page.keyboard.press('Escape');

    /* Apply "Mend GMxxx: ..." from the quick-fix menu (short titles: rule, risk, label). */
    await goToLine(page, target.location.row, target.location.column);
    await page.keyboard.press('Control+.');
    const title = `Mend ${target.code}`;
    const item = page.locator('.action-widget .monaco-list-row', { hasText: title });
    await item.first().waitFor({ timeout: 15000 });
    const offered = await page.locator('.action-widget .monaco-list-row').allInnerTexts();
    log(`quick fixes offered: ${offered.map((s) => s.trim()).join(' | ')}`);
    await shot(page, 'quick-fix-menu');
    /* Short titles with the rule and the applicability, unsafe ones marked: "Mend GM401
     * (unsafe): defer print after the graph". */
    const mendTitles = offered.map((t) => t.trim()).filter((t) => t.startsWith('Mend GM'));
    assert.ok(mendTitles.length > 0, 'the menu offers a mend');
    for (const t of mendTitles) {
      assert.match(t, /^Mend GM\d{3}( \((unsafe|setting)\))?: \S.{2,}$/, `a short mend title: ${t}`);
      assert.ok(t.length <= 80, `a mend title of at most 80 characters: ${t}`);
    }
    if (target.fix?.applicability === 'unsafe') {
      assert.ok(mendTitles.some((t) => t.startsWith(`Mend ${target.code} (unsafe): `)), 'the unsafe mend is marked');
    }
    await page.locator('.action-widget .monaco-list-row', { hasText: title }).first().click();
    await page.waitForTimeout(1000);
    await shot(page, 'mended');
    await page.keyboard.press('Control+S');
    const expected = applyEdits(original, target.fix?.edits ?? []);
    const saved = await waitForFile(file, original, page);
    assert.notEqual(saved, original, 'the mend changed the file');
    assert.equal(saved, expected, 'the saved text is what the mend says');
    const changed = saved.split('\n').filter((l, i) => l !== original.split('\n')[i]);
    log(`mended text (changed lines): ${changed.slice(0, 4).join(' / ')}`);

    /* "graphmend: Mend all graph breaks in this file" applies the safe mends, as `graphmend fix`. */
    const fixAllExpected = cliFix(saved, path.basename(file));
    await page.locator('.editor-instance .monaco-editor .view-lines').click();
    await runCommand(page, 'graphmend: Mend all graph breaks in this file');
    await page.waitForTimeout(1000);
    await shot(page, 'mend-all');
    await page.keyboard.press('Control+S');
    if (fixAllExpected === saved) {
      /* No safe mend in the file: the command says so and changes nothing. */
      await page.locator('.notification-toast', { hasText: 'nothing to mend' }).first().waitFor({ timeout: 15000 });
      await page.waitForTimeout(1000);
      assert.equal(fs.readFileSync(file, 'utf8'), saved, 'Mend all changed nothing');
      log('Mend all: no safe mend in the file (as graphmend fix), nothing changed');
    } else {
      const mendedAll = await waitForFile(file, saved, page);
      if (mendedAll !== fixAllExpected) {
        fs.writeFileSync(path.join(scratch, 'mend-all.expected.py'), fixAllExpected);
        fs.writeFileSync(path.join(scratch, 'mend-all.actual.py'), mendedAll);
      }
      assert.equal(mendedAll, fixAllExpected, `Mend all gives what graphmend fix gives (diff ${scratch}/mend-all.{expected,actual}.py)`);
      log(`Mend all: ${mendedAll.split('\n').filter((l) => l.includes('torch.where')).length} torch.where mends, as graphmend fix`);
    }

    /* graphmend.fixAllOnSave: switched on in the workspace settings, a save of the untouched
     * second copy mends it. */
    fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
    fs.writeFileSync(path.join(workspace, '.vscode', 'settings.json'), JSON.stringify({ 'graphmend.fixAllOnSave': true }));
    await page.waitForTimeout(3000);
    await openFile(page, path.basename(onSave));
    await page.locator('.editor-instance .monaco-editor .view-overlays [class*="squiggly-"]').first().waitFor({ timeout: 30000 });
    /* An edit first: a save of an unmodified file runs no save participant. */
    const marker = '# saved with graphmend.fixAllOnSave\n';
    await goToLine(page, 1, 1);
    await page.keyboard.type(marker.trimEnd());
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+S');
    const onSaveExpected = cliFix(marker + original, path.basename(onSave));
    let onSaveText = await waitForFile(onSave, original, page);
    for (let i = 0; i < 20 && onSaveText !== onSaveExpected; i++) {
      await page.waitForTimeout(250);
      onSaveText = fs.readFileSync(onSave, 'utf8');
    }
    await shot(page, 'fix-all-on-save');
    assert.equal(onSaveText, onSaveExpected, 'fix-all on save gives what graphmend fix gives');
    log(`fix-all on save: ${onSaveExpected === marker + original ? 'no safe mend, only the edit saved' : 'mended'}, as graphmend fix`);

    /* A server setting reaches the server (workspace/didChangeConfiguration): ignoring GM4 takes
     * the print's squiggle away; removing the key again (a server restart) brings it back. */
    const printLine = onSaveText.split('\n').findIndex((l) => l.includes('print(')) + 1;
    await goToLine(page, printLine, 1);
    const hasPrintSquiggle = async (): Promise<boolean> => (await squiggledLines(page)).includes(printLine);
    const waitSquiggle = async (want: boolean): Promise<boolean> => {
      for (let i = 0; i < 60 && (await hasPrintSquiggle()) !== want; i++) {
        await page.waitForTimeout(250);
      }
      return hasPrintSquiggle();
    };
    assert.equal(await waitSquiggle(true), true, `a squiggle on the print at line ${printLine}`);
    const settingsFile = path.join(workspace, '.vscode', 'settings.json');
    fs.writeFileSync(settingsFile, JSON.stringify({ 'graphmend.fixAllOnSave': true, 'graphmend.ignore': ['GM4'] }));
    assert.equal(await waitSquiggle(false), false, 'graphmend.ignore ["GM4"] takes the print squiggle away');
    await shot(page, 'setting-ignore-gm4');
    fs.writeFileSync(settingsFile, JSON.stringify({ 'graphmend.fixAllOnSave': true }));
    assert.equal(await waitSquiggle(true), true, 'removing graphmend.ignore brings it back');
    log('settings: graphmend.ignore reached the server and its removal too');

    /* Profile from the code lens: the report opens as a rendered markdown preview. */
    if (profiled) {
      await openFile(page, path.basename(profiled));
      const lens = page.locator('.editor-instance .monaco-editor .codelens-decoration a', { hasText: 'Profile' });
      await lens.first().waitFor({ timeout: 30000 });
      await shot(page, 'profile-code-lens');
      const started = Date.now();
      await lens.first().click();
      const report = path.join(data, 'User', 'globalStorage', 'graphmend.graphmend',
        `profile-${path.basename(profiled, '.py')}.md`);
      await page.waitForTimeout(3000);
      await shot(page, 'profile-running');
      while (!fs.existsSync(report) && Date.now() - started < 480000) {
        await page.waitForTimeout(1000);
      }
      assert.ok(fs.existsSync(report), `the profile report ${report} was written`);
      await page.locator('.tab', { hasText: 'Preview' }).first().waitFor({ timeout: 30000 });
      await page.waitForTimeout(3000);
      await shot(page, 'profile-report');
      const markdown = fs.readFileSync(report, 'utf8');
      log(`profile took ${Math.round((Date.now() - started) / 1000)} s; report: ${markdown.split('\n').slice(0, 12).join(' / ')}`);
      assert.match(markdown, /graph/i, 'the report gives the graphs');
      assert.match(markdown, /original/i);
      assert.match(markdown, /mended/i);
    } else {
      log('profile step skipped (GM_PROFILE_PYTHON or GM_PROFILE_EXAMPLE unset)');
    }

    /* The bundled server was found without configuration: the log says so. */
    await runCommand(page, 'graphmend: Show logs');
    const outputView = page.locator('.output-view, .panel .monaco-editor').first();
    await outputView.waitFor({ timeout: 15000 });
    await page.waitForTimeout(1000);
    await shot(page, 'logs');
    /* The output channel is a log file too (user-data/logs/.../graphmend.log): read it there,
     * since the panel wraps and virtualises its lines. */
    const logFiles = (fs.readdirSync(path.join(data, 'logs'), { recursive: true }) as string[])
      .filter((f) => f.endsWith(`${path.sep}graphmend.log`));
    assert.ok(logFiles.length > 0, 'the graphmend output channel has a log file');
    const outputText = fs.readFileSync(path.join(data, 'logs', logFiles[0]), 'utf8');
    log(`logs: ${outputText.split('\n').slice(0, 3).join(' / ')}`);
    assert.match(outputText, /server\/linux-x64\/graphmend serve --stdio \(bundled\)/);
    assert.doesNotMatch(outputText, /\[error\]/);
    log('trusted workspace: PASS');
    stopChild(cs);
    await untrusted(browser, csArgs, baseEnv);
    log('PASS');
  } catch (error) {
    await failureShot();
    throw error;
  } finally {
    await browser?.close();
  }
}

/** Workspace trust: in an untrusted folder whose settings name a server and a Python (a script
 * that leaves a marker when run), the extension still analyses with the bundled server, runs
 * neither, and offers no profile. */
async function untrusted(browser: Browser, csArgs: string[], baseEnv: NodeJS.ProcessEnv): Promise<void> {
  const folder = path.join(scratch, 'untrusted');
  fs.rmSync(folder, { recursive: true, force: true });
  fs.mkdirSync(path.join(folder, '.vscode'), { recursive: true });
  const marker = path.join(scratch, 'untrusted-code-ran');
  fs.rmSync(marker, { force: true });
  const evil = path.join(folder, 'tools', 'graphmend');
  fs.mkdirSync(path.dirname(evil), { recursive: true });
  fs.writeFileSync(evil, `#!/bin/sh\necho "$0 $*" >> '${marker}'\nexit 1\n`, { mode: 0o755 });
  fs.writeFileSync(path.join(folder, '.vscode', 'settings.json'),
    JSON.stringify({ 'graphmend.serverPath': evil, 'graphmend.python': evil }));
  const file = path.join(folder, path.basename(example));
  fs.copyFileSync(example, file);
  if (profileExample) {
    fs.copyFileSync(profileExample, path.join(folder, path.basename(profileExample)));
  }
  const { port, child } = await startCodeServer([...csArgs, folder], baseEnv, 'code-server-untrusted.log');
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  activePage = page;
  await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(folder)}`);
  await page.locator('.monaco-workbench').waitFor({ timeout: 60000 });
  /* The trust prompt ('security.workspace.trust.startupPrompt': 'always'): keep the folder
   * untrusted (Restricted Mode). Wait for the prompt itself, however late a loaded machine shows
   * it: the status bar may say Restricted Mode before it comes, and its modal dialog then covers
   * the steps that follow. */
  const no = page.locator('.monaco-dialog-box .monaco-button', { hasText: /No, I don.t trust/ }).first();
  await no.waitFor({ timeout: 90000 });
  await shot(page, 'untrusted-prompt');
  await no.click();
  await page.locator('.monaco-dialog-box').first().waitFor({ state: 'hidden', timeout: 30000 });
  await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).first().waitFor({ timeout: 30000 });
  await openFile(page, path.basename(file));
  await page.locator('.editor-instance .monaco-editor .view-overlays [class*="squiggly-"]').first().waitFor({ timeout: 60000 });
  await shot(page, 'untrusted-squiggles');
  log('untrusted: diagnostics from the bundled server in Restricted Mode');
  if (profileExample) {
    await openFile(page, path.basename(profileExample));
    await page.locator('.editor-instance .monaco-editor .view-overlays [class*="squiggly-"]').first().waitFor({ timeout: 60000 });
    await page.waitForTimeout(2000);
    const lenses = await page.locator('.codelens-decoration a', { hasText: 'Profile' }).count();
    assert.equal(lenses, 0, 'no profile code lens in an untrusted workspace');
  }
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill('>graphmend: ');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'graphmend' }).first().waitFor();
  const offered = await page.locator('.quick-input-list .monaco-list-row').allInnerTexts();
  await shot(page, 'untrusted-commands');
  await page.keyboard.press('Escape');
  log(`untrusted: commands offered: ${offered.map((t) => t.replace(/\s+/g, ' ').trim()).join(' | ')}`);
  assert.ok(!offered.some((t) => /Profile/.test(t)), 'no profile command in an untrusted workspace');
  assert.ok(offered.some((t) => /Mend all/.test(t)), 'the other commands stay');
  assert.ok(!fs.existsSync(marker), `the workspace's server path or Python ran: ${marker}`);
  /* The newest session's log: the bundled server, not the workspace's. */
  const data = csArgs[csArgs.indexOf('--user-data-dir') + 1];
  const logs = (fs.readdirSync(path.join(data, 'logs'), { recursive: true }) as string[])
    .filter((f) => f.endsWith(`${path.sep}graphmend.log`))
    .sort();
  const lastLog = fs.readFileSync(path.join(data, 'logs', logs[logs.length - 1]), 'utf8');
  assert.match(lastLog, /linux-x64\/graphmend serve --stdio \(bundled\)/);
  assert.ok(!lastLog.includes(evil), 'the log never names the workspace server as started');
  await page.close();
  stopChild(child);
  log('untrusted workspace: PASS');
}

function stopChildren(): void {
  for (const child of children) {
    stopChild(child);
  }
}

main()
  .then(() => {
    stopChildren();
  })
  .catch((error: unknown) => {
    log(`FAIL: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    stopChildren();
    process.exitCode = 1;
  });
