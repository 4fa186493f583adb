/**
 * The web console's cost on a Pi, measured against itself off in the same
 * run: the built daemon (deployed node flags) deals a simulated shoe, once
 * without the console and once with it on and one Chromium page watching
 * the table; VmRSS is sampled over the same stretch of dealing in both.
 * Then: from a page reload to the first card on screen, and from a dropped
 * feed coming back to the next card on screen (the feed retries after 1 s).
 * Chromium runs as a separate process: its memory is not the daemon's.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromiumMissing, launchBrowser } from '../browser/helpers/browser.ts';
import { freePort } from '../helpers/ports.ts';
import { BUILT_CLI, build, deployedNodeFlags, REPO } from './built-daemon.ts';

export interface WebFigures {
  rss_console_off_mb: number | null;
  rss_console_on_one_browser_mb: number | null;
  rss_added_mb: number | null;
  first_card_after_reload_ms: number | null;
  first_card_after_feed_drop_ms: number | null;
  page_code_gzip_kb: number;
  note?: string;
}

const DEAL_MS = 6_000;
const SAMPLES = 6;

/** The newest modification time among the sources the build ships (firmware-host, device-protocol, hardware). */
function newestSource(): number {
  let newest = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  for (const dir of ['firmware-host', 'device-protocol', 'hardware', 'simulators'])
    walk(join(REPO, dir));
  return newest;
}

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? Number.NaN) / 1024;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const round1 = (value: number) => Math.round(value * 10) / 10;

async function writeConfig(dir: string, web: boolean): Promise<string> {
  const config = join(dir, `table-${web ? 'web' : 'plain'}.json`);
  await writeFile(
    config,
    JSON.stringify({
      table: 'bench-web',
      devices: { shoe: { kind: 'shoe', transport: 'simulate' } },
      mqtt: { port: await freePort() },
      journal: { dir: join(dir, `journal-${web ? 'web' : 'plain'}`) },
      simulation: { cardIntervalMs: 40, roundIntervalMs: 60, seed: 9 },
      ...(web ? { web: { port: await freePort() } } : {}),
    }),
  );
  return config;
}

/** The built daemon with the deployed flags; resolves once it runs (and its console listens). */
async function startDaemon(
  config: string,
  web: boolean,
): Promise<{ child: ChildProcess; url?: string; readyAt: number }> {
  const child = spawn(
    process.execPath,
    [...deployedNodeFlags(), BUILT_CLI, 'run', '--config', config, '--no-view'],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, TABLESIDE_LOG_LEVEL: 'warn' } },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const started = Date.now();
  while (Date.now() - started < 15_000) {
    if (child.exitCode !== null) throw new Error(`daemon exited: ${stderr.slice(-500)}`);
    const url = /web console: (http:\/\/\S+)/.exec(stderr)?.[1];
    if (!web || url) return { child, readyAt: performance.now(), ...(url ? { url } : {}) };
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  child.kill('SIGKILL');
  throw new Error(`the daemon did not start within 15 s: ${stderr.slice(-500)}`);
}

async function sampleRss(pid: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    await new Promise((resolve) => setTimeout(resolve, DEAL_MS / SAMPLES));
    samples.push(await rssMb(pid));
  }
  return median(samples);
}

export async function benchWeb(): Promise<WebFigures> {
  const { gzipSync } = await import('node:zlib');
  const { staticFiles } = await import('../../firmware-host/web/static-files.ts');
  let pageBytes = 0;
  // Every file the console serves, the games' modules too (`/` is index.html again).
  for (const [url, path] of Object.entries(staticFiles())) {
    if (url === '/' || !/\.(html|js|css)$/.test(path)) continue;
    pageBytes += gzipSync(await readFile(path), { level: 9 }).length;
  }
  const figures: WebFigures = {
    rss_console_off_mb: null,
    rss_console_on_one_browser_mb: null,
    rss_added_mb: null,
    first_card_after_reload_ms: null,
    first_card_after_feed_drop_ms: null,
    page_code_gzip_kb: round1(pageBytes / 1024),
  };
  const missing = chromiumMissing();
  if (missing) return { ...figures, note: missing };
  if (!existsSync(BUILT_CLI) || newestSource() > statSync(BUILT_CLI).mtimeMs) {
    const error = build();
    if (error && !existsSync(BUILT_CLI))
      return { ...figures, note: `npm run build failed: ${error}` };
  }
  const dir = await mkdtemp(join(tmpdir(), 'tableside-bench-web-'));
  try {
    const plain = await startDaemon(await writeConfig(dir, false), false);
    try {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      figures.rss_console_off_mb = round1(await sampleRss(plain.child.pid!));
    } finally {
      plain.child.kill('SIGKILL');
    }

    const config = await writeConfig(dir, true);
    let web = await startDaemon(config, true);
    const browser = await launchBrowser();
    try {
      const { page } = browser;
      await page.goto(`${web.url}/#table`);
      await page.waitForSelector('#shoe-strip .strip-card');
      figures.rss_console_on_one_browser_mb = round1(await sampleRss(web.child.pid!));
      figures.rss_added_mb = round1(
        figures.rss_console_on_one_browser_mb - figures.rss_console_off_mb,
      );

      const reloadStarted = performance.now();
      await page.reload();
      await page.waitForSelector('#shoe-strip .strip-card');
      figures.first_card_after_reload_ms = Math.round(performance.now() - reloadStarted);

      // The feed drops: the daemon is killed and started again on its journal. The page's
      // EventSource retries every second with Last-Event-ID; from the console listening
      // again to the next card on screen is the figure.
      web.child.kill('SIGKILL');
      await new Promise((resolve) => web.child.once('exit', resolve));
      const before = await page.locator('#shoe-strip .strip-card').count();
      web = await startDaemon(config, true);
      await page.waitForFunction(
        (count) => document.querySelectorAll('#shoe-strip .strip-card').length > count,
        before,
        { timeout: 10_000 },
      );
      figures.first_card_after_feed_drop_ms = Math.round(performance.now() - web.readyAt);
    } finally {
      await browser.close();
      web.child.kill('SIGKILL');
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return figures;
}
