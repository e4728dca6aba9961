/* Which graphmend binary the extension starts. Pure: no VS Code API, so it is unit-tested. */
import * as os from 'os';
import * as path from 'path';

/** The values of one setting at each level, as WorkspaceConfiguration.inspect gives them. */
export interface SettingLevels<T> {
  globalValue?: T;
  workspaceValue?: T;
  workspaceFolderValue?: T;
}

export interface ServerPathInput {
  /** graphmend.serverPath at each level. */
  setting: SettingLevels<string> | undefined;
  /** Whether the workspace is trusted: workspace-level values count only then. */
  trusted: boolean;
  /** The extension's own directory (the VSIX carries server/<platform>-<arch>/graphmend). */
  extensionPath: string;
  /** The first workspace folder, against which a relative setting is resolved. */
  workspaceFolder?: string;
  platform: string;
  arch: string;
  /** Whether a file exists and is executable. */
  isExecutable: (file: string) => boolean;
}

export interface ServerPath {
  command: string;
  source: 'setting' | 'bundled' | 'PATH';
  /** Set when a workspace value was set but not used because the workspace is untrusted. */
  ignoredWorkspaceValue?: string;
}

function nonEmpty(value: string | undefined): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** The binary bundled for a platform: server/linux-x64/graphmend. */
export function bundledServerPath(extensionPath: string, platform: string, arch: string): string {
  const exe = platform === 'win32' ? 'graphmend.exe' : 'graphmend';
  return path.join(extensionPath, 'server', `${platform}-${arch}`, exe);
}

/** Expands ~ and ${workspaceFolder}, and resolves a relative path against the workspace folder. */
export function expandPath(value: string, workspaceFolder: string | undefined): string {
  let out = value;
  if (out === '~' || out.startsWith('~/')) {
    out = path.join(os.homedir(), out.slice(1));
  }
  if (workspaceFolder !== undefined) {
    out = out.split('${workspaceFolder}').join(workspaceFolder);
    if (!path.isAbsolute(out) && out.includes('/')) {
      out = path.resolve(workspaceFolder, out);
    }
  }
  return out;
}

/**
 * A setting's effective value: the folder, then the workspace, then the user value, where
 * workspace-level values count only in a trusted workspace (they could point at a binary the
 * workspace itself ships).
 */
export function effectiveValue(
  levels: SettingLevels<string> | undefined,
  trusted: boolean,
): { value?: string; ignoredWorkspaceValue?: string } {
  const folder = nonEmpty(levels?.workspaceFolderValue);
  const workspace = nonEmpty(levels?.workspaceValue);
  const user = nonEmpty(levels?.globalValue);
  if (trusted) {
    return { value: folder ?? workspace ?? user };
  }
  return { value: user, ignoredWorkspaceValue: folder ?? workspace };
}

/** The configured path wins; then the bundled binary; then `graphmend` on PATH. */
export function resolveServerPath(input: ServerPathInput): ServerPath {
  const { value, ignoredWorkspaceValue } = effectiveValue(input.setting, input.trusted);
  const extra = ignoredWorkspaceValue !== undefined ? { ignoredWorkspaceValue } : {};
  if (value !== undefined) {
    return { command: expandPath(value, input.workspaceFolder), source: 'setting', ...extra };
  }
  const bundled = bundledServerPath(input.extensionPath, input.platform, input.arch);
  if (input.isExecutable(bundled)) {
    return { command: bundled, source: 'bundled', ...extra };
  }
  return { command: 'graphmend', source: 'PATH', ...extra };
}
