/* The graphmend.profile command of the server (workspace/executeCommand): its arguments and the
 * report it returns. Pure: no VS Code API. */

export const PROFILE_COMMAND = 'graphmend.profile';
/** Runs the file's entry once under torch._dynamo.explain and puts a verdict on each diagnostic;
 * it takes the same arguments. */
export const CONFIRM_COMMAND = 'graphmend.confirm';

/** The line a confirm answer sums up with: its precision and recall on that run. */
export function confirmSummary(result: unknown): string {
  const summary = result && typeof result === 'object' ? (result as Record<string, unknown>).summary : undefined;
  return typeof summary === 'string' && summary !== '' ? summary : 'no summary in the answer';
}

/** The options object of graphmend.profile: entry, device and python come from the settings;
 * the server takes more (unsafeFixes, mode, backend, iterations, warmup, timeout), which a
 * caller such as the server's own code lens may pass and which are kept as they are. */
export interface ProfileOptions {
  entry?: string;
  device?: string;
  python?: string;
  [other: string]: unknown;
}

const FROM_SETTINGS = ['entry', 'device', 'python'] as const;

/**
 * The executeCommand arguments [uri, {entry, device, python, ...}]. The entry a caller names (a
 * code lens sits on one function) wins over the setting; the device and interpreter the user set
 * win over a caller's (the server's lens passes its own default device). Empty values are left
 * out so that the server's defaults apply.
 */
export function profileArguments(
  uri: string,
  settings: Pick<ProfileOptions, 'entry' | 'device' | 'python'>,
  given?: ProfileOptions,
): [string, ProfileOptions] {
  const options: ProfileOptions = {};
  for (const [key, value] of Object.entries(given ?? {})) {
    if (!(FROM_SETTINGS as readonly string[]).includes(key) && value !== undefined) {
      options[key] = value;
    }
  }
  const nonEmpty = (value: unknown): string | undefined =>
    typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  for (const key of FROM_SETTINGS) {
    const value =
      key === 'entry'
        ? (nonEmpty(given?.[key]) ?? nonEmpty(settings[key]))
        : (nonEmpty(settings[key]) ?? nonEmpty(given?.[key]));
    if (value !== undefined) {
      options[key] = value;
    }
  }
  return [uri, options];
}

/** Splits the arguments a code lens (or another caller) passed to graphmend.profile. */
export function parseProfileArguments(args: unknown[]): { uri?: string; options: ProfileOptions } {
  const uri = typeof args[0] === 'string' ? args[0] : undefined;
  const second = args[1];
  const options: ProfileOptions =
    second && typeof second === 'object' && !Array.isArray(second) ? { ...(second as ProfileOptions) } : {};
  return { uri, options };
}

/** The details of a failed profile from the error response's data ({kind, traceback, output}). */
export function profileErrorDetails(data: unknown): string | undefined {
  if (!data || typeof data !== 'object') {
    return undefined;
  }
  const d = data as Record<string, unknown>;
  const parts = [d.kind, d.traceback, d.output].filter((p): p is string => typeof p === 'string' && p !== '');
  return parts.length ? parts.join('\n') : undefined;
}

export class ProfileFailure extends Error {
  constructor(
    message: string,
    readonly details?: string,
  ) {
    super(message);
  }
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function num(value: unknown, digits: number): string {
  return typeof value === 'number' && Number.isFinite(value) ? value.toFixed(digits) : '–';
}

/** A markdown table of a report object (when the server sent no markdown of its own). */
function reportTable(report: Record<string, unknown>): string {
  const arms = ['original', 'mended'] as const;
  const arm = (name: string): Record<string, unknown> =>
    (report[name] && typeof report[name] === 'object' ? report[name] : {}) as Record<string, unknown>;
  const rows: [string, (a: Record<string, unknown>) => string][] = [
    ['graphs', (a) => num(a.graphs, 0)],
    ['graph breaks', (a) => num(a.breaks, 0)],
    ['compile (s)', (a) => num(a.compile_s, 2)],
    ['cold start (ms)', (a) => num(a.cold_ms, 2)],
    ['steady state, median (ms)', (a) => num(a.steady_ms, 3)],
    ['steady state, p90 (ms)', (a) => num(a.steady_p90_ms, 3)],
  ];
  const lines = [
    '# graphmend profile',
    '',
    `device: ${text(report.device) ?? '?'}, torch ${text(report.torch) ?? '?'}` +
      (text(report.fallback) ? ` (${report.fallback as string})` : ''),
    '',
    '| | original | mended |',
    '|---|---:|---:|',
    ...rows.map(([label, get]) => `| ${label} | ${arms.map((a) => get(arm(a))).join(' | ')} |`),
    '',
    `outputs match: ${report.outputs_match === true ? 'yes' : report.outputs_match === false ? 'NO' : '?'}`,
  ];
  return lines.join('\n') + '\n';
}

/**
 * The markdown report from the command's result: a markdown string, an object carrying
 * `markdown`, or the report object itself. Throws ProfileFailure for {ok: false, error}.
 */
export function profileReportMarkdown(result: unknown): string {
  if (typeof result === 'string') {
    return result;
  }
  if (!result || typeof result !== 'object') {
    throw new ProfileFailure('graphmend.profile returned nothing');
  }
  const object = result as Record<string, unknown>;
  if (object.ok === false) {
    const error = (object.error && typeof object.error === 'object' ? object.error : {}) as Record<
      string,
      unknown
    >;
    const kind = text(error.kind);
    const message = text(error.message) ?? text(object.message) ?? 'the profile failed';
    const details = [text(error.traceback), text(error.output)].filter((s) => s).join('\n');
    throw new ProfileFailure(kind ? `${kind}: ${message}` : message, details || undefined);
  }
  const markdown = text(object.markdown);
  if (markdown) {
    return markdown;
  }
  const report = object.report && typeof object.report === 'object' ? object.report : object;
  return reportTable(report as Record<string, unknown>);
}
