/* The "graphmend" settings the server reads (initializationOptions, workspace/configuration),
 * and the client-side severity override. Pure: no VS Code API. */
import { effectiveValue, expandPath, SettingLevels } from './serverPath';

/** The keys of the server's settings section (server/config/settings.c), with their defaults there. */
export const SERVER_SETTING_KEYS = [
  'compileForward',
  'training',
  'torchVersion',
  'pythonVersion',
  'captureScalarOutputs',
  'captureDynamicOutputShapeOps',
  'allowRnn',
  'fullgraph',
  'nestedGraphBreaks',
  'reorderableLoggingFunctions',
  'ignoreLoggingFunctions',
  'select',
  'ignore',
  'unsafeFixes',
  'logLevel',
] as const;

export type ServerSettingKey = (typeof SERVER_SETTING_KEYS)[number];

/** Settings the extension itself uses; the server never sees them. */
export const CLIENT_ONLY_SETTING_KEYS = [
  'serverPath',
  'python',
  'profile.device',
  'profile.entry',
  'fixAllOnSave',
  'severity',
  'trace.server',
] as const;

/** Reads the levels of one key of the graphmend section (WorkspaceConfiguration.inspect). */
export type InspectFn = (key: string) => SettingLevels<unknown> | undefined;

/**
 * The server's settings object: only the keys the user set somewhere (user, workspace or folder
 * settings). Keys left at their defaults are not sent, so that the `[tool.graphmend]` table of a
 * pyproject.toml, which a client key overrides, keeps its say.
 */
export function serverSettings(inspect: InspectFn): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of SERVER_SETTING_KEYS) {
    const levels = inspect(key);
    if (!levels) {
      continue;
    }
    for (const value of [levels.workspaceFolderValue, levels.workspaceValue, levels.globalValue]) {
      if (value !== undefined) {
        out[key] = value;
        break;
      }
    }
  }
  return out;
}

/**
 * The interpreter the server asks where installed packages are (GM902): graphmend.python, which
 * also runs the profile, as an absolute path; a workspace-level value only in a trusted
 * workspace (it names a program the server runs). Undefined when unset: the server's default.
 */
export function serverPython(
  levels: SettingLevels<string> | undefined,
  trusted: boolean,
  workspaceFolder: string | undefined,
): string | undefined {
  const { value } = effectiveValue(levels, trusted);
  return value === undefined ? undefined : expandPath(value, workspaceFolder);
}

/** Whether going from previous to next needs a server restart: a key was unset (the server
 * keeps a key's last value when it is left out, and null is not "unset" for every key). */
export function needsRestart(
  previous: Record<string, unknown>,
  next: Record<string, unknown>,
): boolean {
  return Object.keys(previous).some((key) => !(key in next));
}

/** VS Code's DiagnosticSeverity numbers (LSP's are the same plus one). */
export const SEVERITY_NUMBERS: Record<string, number> = {
  error: 0,
  warning: 1,
  information: 2,
  hint: 3,
};

/**
 * The severity override for a rule id ("GM401") from graphmend.severity ({"GM4": "hint"}): the
 * longest matching prefix wins. Returns a VS Code DiagnosticSeverity number or undefined.
 */
export function severityFor(
  code: string | undefined,
  overrides: Record<string, unknown> | undefined,
): number | undefined {
  if (!code || !overrides) {
    return undefined;
  }
  let best: string | undefined;
  for (const [prefix, level] of Object.entries(overrides)) {
    if (typeof level !== 'string' || !(level in SEVERITY_NUMBERS) || !code.startsWith(prefix)) {
      continue;
    }
    if (best === undefined || prefix.length > best.length) {
      best = prefix;
    }
  }
  return best === undefined ? undefined : SEVERITY_NUMBERS[overrides[best] as string];
}

/** One property of package.json's contributes.configuration. */
export interface ContributedProperty {
  default?: unknown;
}

/**
 * Differences between the server's defaults (`graphmend settings --defaults`) and the
 * extension's contributed settings; empty when they agree.
 */
export function compareDefaults(
  serverDefaults: Record<string, unknown>,
  properties: Record<string, ContributedProperty>,
): string[] {
  const problems: string[] = [];
  const contributed = new Map<string, ContributedProperty>();
  for (const [name, property] of Object.entries(properties)) {
    if (!name.startsWith('graphmend.')) {
      problems.push(`${name}: not in the graphmend. namespace`);
      continue;
    }
    contributed.set(name.slice('graphmend.'.length), property);
  }
  for (const [key, value] of Object.entries(serverDefaults)) {
    const property = contributed.get(key);
    if (!property) {
      problems.push(`graphmend.${key}: the server has it (default ${JSON.stringify(value)}) but package.json does not`);
    } else if (JSON.stringify(property.default) !== JSON.stringify(value)) {
      problems.push(
        `graphmend.${key}: package.json default ${JSON.stringify(property.default)}, server default ${JSON.stringify(value)}`,
      );
    }
  }
  const clientOnly: readonly string[] = CLIENT_ONLY_SETTING_KEYS;
  const serverKeys: readonly string[] = SERVER_SETTING_KEYS;
  for (const key of contributed.keys()) {
    if (!(key in serverDefaults) && !clientOnly.includes(key)) {
      problems.push(`graphmend.${key}: in package.json but the server has no such setting`);
    }
  }
  for (const key of serverKeys) {
    if (!(key in serverDefaults)) {
      problems.push(`${key}: sent to the server but not among its defaults`);
    }
  }
  for (const key of Object.keys(serverDefaults)) {
    if (!serverKeys.includes(key)) {
      problems.push(`${key}: a server setting the extension never sends (add it to SERVER_SETTING_KEYS)`);
    }
  }
  return problems;
}
