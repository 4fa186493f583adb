/** Runs the CLI from source as a child process. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[]): { done: Promise<CliResult>; kill(): void } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'firmware-host/cli.ts', ...args], {
    cwd: join(import.meta.dirname, '../../..'),
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TABLESIDE_LOG_LEVEL: 'warn' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return {
    kill: () => child.kill('SIGTERM'),
    done: new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr }))),
  };
}
