/* graphmend for VS Code: starts `graphmend serve --stdio` for Python files and adds the mend,
 * profile, restart and log commands. The decisions that need no VS Code live in ./logic. */
import * as fs from 'fs';
import * as readline from 'readline';
import * as vscode from 'vscode';
import {
  ExecuteCommandRequest,
  LSPErrorCodes,
  LanguageClient,
  LanguageClientOptions,
  Middleware,
  ResponseError,
  RevealOutputChannelOn,
  ServerOptions,
  TransportKind,
} from 'vscode-languageclient/node';

import {
  CONFIRM_COMMAND,
  PROFILE_COMMAND,
  ProfileFailure,
  ProfileOptions,
  confirmSummary,
  parseProfileArguments,
  profileArguments,
  profileErrorDetails,
  profileReportMarkdown,
} from './logic/profile';
import {
  SettingLevels,
  bundledServerPath,
  effectiveValue,
  expandPath,
  resolveServerPath,
} from './logic/serverPath';
import { SERVER_SETTING_KEYS, needsRestart, serverPython, serverSettings, severityFor } from './logic/settings';

const SECTION = 'graphmend';
/** The error code of a failed graphmend.profile (the server's message says what failed). */
const PROFILE_FAILED = -32803;
const FIX_ALL_KIND = vscode.CodeActionKind.SourceFixAll.append('graphmend');

let context: vscode.ExtensionContext;
let output: vscode.LogOutputChannel;
let client: LanguageClient | undefined;
let sentSettings: Record<string, unknown> = {};
let restarting: Promise<void> = Promise.resolve();

function config(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(SECTION);
}

function currentServerSettings(): Record<string, unknown> {
  const cfg = config();
  const settings = serverSettings((key) => cfg.inspect(key));
  const python = serverPython(
    cfg.inspect('python') as SettingLevels<string>,
    vscode.workspace.isTrusted,
    vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
  );
  if (python !== undefined) {
    settings.python = python;
  }
  return settings;
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function serverCommand(): string {
  /* A VSIX unpacked by a tool that drops the mode bits leaves the bundled binary unexecutable. */
  const bundled = bundledServerPath(context.extensionPath, process.platform, process.arch);
  if (fs.existsSync(bundled) && !isExecutable(bundled)) {
    try {
      fs.chmodSync(bundled, 0o755);
    } catch (error) {
      output.appendLine(`cannot make ${bundled} executable: ${String(error)}`);
    }
  }
  const resolved = resolveServerPath({
    setting: config().inspect<string>('serverPath'),
    trusted: vscode.workspace.isTrusted,
    extensionPath: context.extensionPath,
    workspaceFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
    platform: process.platform,
    arch: process.arch,
    isExecutable,
  });
  if (resolved.ignoredWorkspaceValue !== undefined) {
    output.appendLine(
      `graphmend.serverPath "${resolved.ignoredWorkspaceValue}" from the workspace settings is ignored: the workspace is not trusted`,
    );
  }
  output.appendLine(`starting ${resolved.command} serve --stdio (${resolved.source})`);
  return resolved.command;
}

/** The code of a diagnostic as a string ("GM401"). */
function diagnosticCode(diagnostic: vscode.Diagnostic): string | undefined {
  const code = diagnostic.code;
  if (typeof code === 'string' || typeof code === 'number') {
    return String(code);
  }
  return code ? String(code.value) : undefined;
}

function applySeverity(diagnostics: vscode.Diagnostic[]): vscode.Diagnostic[] {
  const overrides = config().get<Record<string, unknown>>('severity');
  if (!overrides || Object.keys(overrides).length === 0) {
    return diagnostics;
  }
  for (const diagnostic of diagnostics) {
    const severity = severityFor(diagnosticCode(diagnostic), overrides);
    if (severity !== undefined) {
      diagnostic.severity = severity as vscode.DiagnosticSeverity;
    }
  }
  return diagnostics;
}

const middleware: Middleware = {
  workspace: {
    configuration: async (params, token, next) => {
      const answers = await next(params, token);
      if (!Array.isArray(answers)) {
        return answers;
      }
      return params.items.map((item, i) =>
        item.section === SECTION ? (sentSettings = currentServerSettings()) : answers[i],
      );
    },
  },
  handleDiagnostics: (uri, diagnostics, next) => next(uri, applySeverity(diagnostics)),
  provideDiagnostics: async (document, previousResultId, token, next) => {
    const report = await next(document, previousResultId, token);
    if (report && report.kind === 'full') {
      applySeverity(report.items);
    }
    return report;
  },
  provideCodeLenses: async (document, token, next) => {
    const lenses = await next(document, token);
    if (!lenses || vscode.workspace.isTrusted) {
      return lenses;
    }
    /* Profiling and confirming run the workspace's code: no such lens in an untrusted workspace. */
    return lenses.filter(
      (lens) => lens.command?.command !== PROFILE_COMMAND && lens.command?.command !== CONFIRM_COMMAND,
    );
  },
  executeCommand: async (command, args, next) => {
    if (command === PROFILE_COMMAND || command === CONFIRM_COMMAND) {
      const parsed = parseProfileArguments(args);
      return command === PROFILE_COMMAND
        ? profile(parsed.uri, parsed.options)
        : confirm(parsed.uri, parsed.options);
    }
    return next(command, args);
  },
};

function lines(input: NodeJS.ReadableStream, each: (line: string) => void): void {
  readline.createInterface({ input, crlfDelay: Infinity, terminal: false }).on('line', each);
}

function createClient(): LanguageClient {
  const command = serverCommand();
  const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const serverOptions: ServerOptions = {
    command,
    args: ['serve'],
    transport: TransportKind.stdio, /* appends --stdio */
    options: cwd ? { cwd } : {},
  };
  sentSettings = currentServerSettings();
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'python' },
      { scheme: 'untitled', language: 'python' },
    ],
    initializationOptions: sentSettings,
    outputChannel: output,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    stdioOptions: {
      stdout: (input, channel) => lines(input, (line) => channel.info(line)),
      /* The server copies each window/logMessage to stderr as "graphmend [info] ...": keep those
       * at trace level (the message itself arrives through LSP); anything else is an error. */
      stderr: (input, channel) =>
        lines(input, (line) =>
          /^graphmend \[(error|warning|info|log)\] /.test(line) ? channel.trace(line) : channel.error(line),
        ),
    },
    middleware,
  };
  return new LanguageClient(SECTION, 'graphmend', serverOptions, clientOptions);
}

async function startClient(): Promise<void> {
  client = createClient();
  try {
    await client.start();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    output.appendLine(`graphmend failed to start: ${message}`);
    const choice = await vscode.window.showErrorMessage(
      `graphmend: the language server did not start (${message}). Set graphmend.serverPath to the graphmend binary.`,
      'Open Settings',
      'Show logs',
    );
    if (choice === 'Open Settings') {
      await vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.serverPath`);
    } else if (choice) {
      output.show(true);
    }
  }
}

async function stopClient(): Promise<void> {
  const old = client;
  client = undefined;
  if (old) {
    try {
      await old.stop();
    } catch (error) {
      output.appendLine(`stopping the server: ${String(error)}`);
    }
  }
}

function restart(): Promise<void> {
  restarting = restarting.then(async () => {
    output.appendLine('restarting the graphmend server');
    await stopClient();
    await startClient();
  });
  return restarting;
}

/** The safe mends of a document: the server's source.fixAll.graphmend action. */
async function fixAllAction(document: vscode.TextDocument): Promise<vscode.CodeAction | undefined> {
  const whole = document.validateRange(new vscode.Range(0, 0, document.lineCount, 0));
  const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
    'vscode.executeCodeActionProvider',
    document.uri,
    whole,
    FIX_ALL_KIND.value,
  );
  return actions?.find((action) => action.kind && FIX_ALL_KIND.contains(action.kind) && action.edit);
}

async function mendAll(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== 'python') {
    void vscode.window.showInformationMessage('graphmend: open a Python file to mend.');
    return;
  }
  const action = await fixAllAction(editor.document);
  if (!action?.edit) {
    void vscode.window.showInformationMessage(
      'graphmend: nothing to mend in this file (unsafe mends are offered one at a time as quick fixes unless graphmend.unsafeFixes is on).',
    );
    return;
  }
  await vscode.workspace.applyEdit(action.edit);
}

function fixAllOnSave(event: vscode.TextDocumentWillSaveEvent): void {
  const document = event.document;
  if (
    document.languageId !== 'python' ||
    event.reason === vscode.TextDocumentSaveReason.AfterDelay ||
    !vscode.workspace.getConfiguration(SECTION, document.uri).get<boolean>('fixAllOnSave') ||
    !client
  ) {
    return;
  }
  const started = Date.now();
  event.waitUntil(
    fixAllAction(document).then(
      (action) => {
        const edits = action?.edit?.get(document.uri) ?? [];
        output.info(`fix-all on save: ${edits.length} edits in ${Date.now() - started} ms (${document.uri.fsPath})`);
        return edits;
      },
      (error: unknown) => {
        output.error(`fix-all on save: ${String(error)}`);
        return [];
      },
    ),
  );
}

/** Shows the report as a rendered markdown preview (written to the extension's storage). */
async function showReport(source: vscode.Uri, markdown: string, kind = 'profile'): Promise<void> {
  const dir = context.globalStorageUri;
  await vscode.workspace.fs.createDirectory(dir);
  const name = source.path.split('/').pop()?.replace(/\.py$/, '') ?? 'report';
  const file = vscode.Uri.joinPath(dir, `${kind}-${name}.md`);
  await vscode.workspace.fs.writeFile(file, Buffer.from(markdown, 'utf8'));
  await vscode.commands.executeCommand('markdown.showPreview', file);
}

/** Runs the server's graphmend.profile on a file and shows the report. */
async function profile(uriText?: string, given?: ProfileOptions): Promise<unknown> {
  return runOnServer(PROFILE_COMMAND, 'profiling', '(original against mended)', uriText, given, async (uri, result) => {
    await showReport(uri, profileReportMarkdown(result));
  });
}

/** Runs the server's graphmend.confirm on a file: the verdicts appear in its diagnostics; the
 * precision and recall line is shown, with the full report a click away. */
async function confirm(uriText?: string, given?: ProfileOptions): Promise<unknown> {
  return runOnServer(CONFIRM_COMMAND, 'confirming', 'with torch.compile', uriText, given, async (uri, result) => {
    const markdown = (result as { markdown?: unknown } | undefined)?.markdown;
    const choice = await vscode.window.showInformationMessage(
      `graphmend confirm: ${confirmSummary(result)}`,
      'Show report',
    );
    if (choice && typeof markdown === 'string') {
      await showReport(uri, markdown, 'confirm');
    }
  });
}

/** Runs one of the server's commands that execute the file's code, with progress and errors
 * shown; show presents the result. */
async function runOnServer(
  command: string,
  doing: string,
  what: string,
  uriText: string | undefined,
  given: ProfileOptions | undefined,
  show: (uri: vscode.Uri, result: unknown) => Promise<void>,
): Promise<unknown> {
  const name = command === PROFILE_COMMAND ? 'profile' : 'confirm';
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage(
      `graphmend: ${doing} runs the code of this workspace; it is disabled until you trust the workspace.`,
    );
    return undefined;
  }
  const running = client;
  if (!running || !running.isRunning()) {
    void vscode.window.showErrorMessage('graphmend: the language server is not running.');
    return undefined;
  }
  const uri = uriText ? vscode.Uri.parse(uriText) : vscode.window.activeTextEditor?.document.uri;
  if (!uri) {
    void vscode.window.showInformationMessage(`graphmend: open the Python file to ${name}.`);
    return undefined;
  }
  /* The server profiles the editor's buffer, saved or not. */
  const cfg = vscode.workspace.getConfiguration(SECTION, uri);
  const configured = effectiveValue(cfg.inspect('python') as SettingLevels<string>, true).value;
  const folder = vscode.workspace.getWorkspaceFolder(uri)?.uri.fsPath ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const python = configured === undefined ? undefined : expandPath(configured, folder);
  const args = profileArguments(
    uri.toString(),
    { python, device: cfg.get<string>('profile.device'), entry: cfg.get<string>('profile.entry') },
    given,
  );
  output.appendLine(`${name}: ${JSON.stringify(args)}`);
  try {
    const result = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `graphmend: ${doing} ${uri.path.split('/').pop()} ${what}`,
        cancellable: true,
      },
      (_progress, token) =>
        running.sendRequest(
          ExecuteCommandRequest.type,
          { command, arguments: args },
          token,
        ),
    );
    await show(uri, result);
    return result;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const details =
      error instanceof ProfileFailure ? error.details : profileErrorDetails((error as { data?: unknown }).data);
    if (details) {
      output.appendLine(`${name} failed: ${message}\n${details}`);
    }
    if (error instanceof ResponseError && error.code === LSPErrorCodes.RequestCancelled) {
      void vscode.window.showInformationMessage(`graphmend: ${name} cancelled.`);
      return undefined;
    }
    if (error instanceof ResponseError && error.code === PROFILE_FAILED) {
      /* The server has shown the message (window/showMessage); the details are in the log. */
      return undefined;
    }
    const choice = await vscode.window.showErrorMessage(`graphmend ${name}: ${message}`, 'Show logs');
    if (choice) {
      output.show(true);
    }
    return undefined;
  }
}

function onConfigurationChanged(event: vscode.ConfigurationChangeEvent): void {
  if (!event.affectsConfiguration(SECTION)) {
    return;
  }
  if (event.affectsConfiguration(`${SECTION}.serverPath`)) {
    void restart();
    return;
  }
  const next = currentServerSettings();
  if (!SERVER_SETTING_KEYS.some((key) => event.affectsConfiguration(`${SECTION}.${key}`))) {
    return;
  }
  if (needsRestart(sentSettings, next) || !client?.isRunning()) {
    void restart();
    return;
  }
  sentSettings = next;
  void client.sendNotification('workspace/didChangeConfiguration', {
    settings: { [SECTION]: next },
  });
}

export async function activate(extensionContext: vscode.ExtensionContext): Promise<void> {
  context = extensionContext;
  output = vscode.window.createOutputChannel('graphmend', { log: true });
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('graphmend.mendAll', mendAll),
    vscode.commands.registerCommand('graphmend.profileFile', (uri?: vscode.Uri) =>
      profile(uri instanceof vscode.Uri ? uri.toString() : undefined),
    ),
    vscode.commands.registerCommand('graphmend.confirmFile', (uri?: vscode.Uri) =>
      confirm(uri instanceof vscode.Uri ? uri.toString() : undefined),
    ),
    vscode.commands.registerCommand('graphmend.restartServer', restart),
    vscode.commands.registerCommand('graphmend.showLogs', () => output.show(true)),
    vscode.workspace.onDidChangeConfiguration(onConfigurationChanged),
    vscode.workspace.onWillSaveTextDocument(fixAllOnSave),
    /* A trusted workspace may name its own server binary. */
    vscode.workspace.onDidGrantWorkspaceTrust(() => void restart()),
  );
  await startClient();
}

export async function deactivate(): Promise<void> {
  await stopClient();
}
