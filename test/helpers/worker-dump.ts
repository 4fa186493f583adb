/**
 * A setup file of every lane: makes a test worker answer the stuck-file
 * watchdog (stuck-file-reporter.ts). The worker writes which file it runs
 * where the watchdog finds it by the worker's pid, keeps its last IPC
 * messages with the run's main process, and on SIGUSR2 writes them, its IPC
 * pipes' state and its pending resources on stderr: what it was waiting for.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { ipcPipeLines } from './ipc-state.ts';
import { WORKER_LABELS } from './stuck-files.ts';

const KEPT_MESSAGES = 40;
const INSTALLED = Symbol.for('tableside.worker-dump');

interface Holder {
  [INSTALLED]?: { file: string };
}

function summary(message: unknown): string {
  if (typeof message !== 'object' || message === null) return typeof message;
  const fields = message as Record<string, unknown>;
  const named = ['t', 'type', 'm', 'i']
    .filter((key) => fields[key] !== undefined)
    .map((key) => `${key}=${String(fields[key])}`);
  return named.length > 0 ? named.join(' ') : `{${Object.keys(fields).slice(0, 5).join(',')}}`;
}

function install(holder: Holder): { file: string } {
  const state = { file: '' };
  const messages: string[] = [];
  const keep = (line: string): void => {
    messages.push(`${new Date().toISOString().slice(11, 23)} ${line}`);
    if (messages.length > KEPT_MESSAGES) messages.shift();
  };
  process.on('message', (message) => keep(`in  ${summary(message)}`));
  // vitest bound process.send before this file ran; Node's send goes through _send, which is wrapped instead.
  const channel = process as unknown as {
    _send?: (message: unknown, ...rest: unknown[]) => boolean;
  };
  const send = channel._send?.bind(process);
  if (send) {
    channel._send = (message: unknown, ...rest: unknown[]) => {
      keep(`out ${summary(message)}`);
      return send(message, ...rest);
    };
  }
  process.on('SIGUSR2', () => {
    const lines = [
      `--- worker ${process.pid}, running ${state.file} ---`,
      ...ipcPipeLines(),
      `pending: ${process.getActiveResourcesInfo().join(', ') || 'nothing'}`,
      `last IPC messages (${messages.length}):`,
      ...messages.map((line) => `  ${line}`),
    ];
    process.stderr.write(`${lines.join('\n')}\n`);
  });
  holder[INSTALLED] = state;
  return state;
}

const holder = globalThis as Holder;
const state = holder[INSTALLED] ?? install(holder);
state.file = expect.getState().testPath ?? '';
try {
  const folder = join(tmpdir(), WORKER_LABELS);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, String(process.pid)), state.file);
} catch {
  // A label is for the watchdog's report only: a run without one still runs.
}
