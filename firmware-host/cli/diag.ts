/**
 * `tableside diag [--config FILE] [--simulate] [--json]`: technician
 * diagnostics. A progress bar on stderr when it is a terminal, then a
 * pass/fail table (or one JSON object with --json) on stdout. Exit 0 only
 * when nothing failed; warnings and skipped checks count as passed.
 */
import type { Command } from 'commander';

interface DiagOptions {
  config?: string;
  simulate?: boolean;
  json?: boolean;
}

export function register(program: Command): void {
  program
    .command('diag')
    .description(
      'technician diagnostics: config, devices, broker, journal and clock; --simulate runs a whole faulty session through simulators',
    )
    .option('--config <file>', 'configuration file (default: $TABLESIDE_CONFIG, else the defaults)')
    .option(
      '--simulate',
      'simulators in place of the devices, an embedded broker and a temporary journal: a scripted session with injected faults through the real daemon',
    )
    .option('--json', 'print one JSON object instead of the table')
    .addHelpText(
      'after',
      '\nExit status: 0 when every check passed (warnings and skipped checks count as passed), 1 when any failed.\n' +
        'Stop the daemon first when checking devices: diag needs them to itself (it never ACKs a card, so none is lost).',
    )
    .action(async (options: DiagOptions) => {
      const code = await runDiag(options);
      // Exit once stdout is flushed: a device or broker library holding a handle must not keep diag open.
      process.stdout.write('', () => process.exit(code));
    });
}

async function runDiag(options: DiagOptions): Promise<number> {
  // The daemon's own logs would drown the table (its findings are in the report); TABLESIDE_LOG_LEVEL still wins.
  process.env.TABLESIDE_LOG_LEVEL ??= 'error';
  const { diagnose } = await import('../diag/diagnose.ts');
  const { formatReportTable, exitCodeOf } = await import('../diag/report.ts');
  const progress = process.stderr.isTTY ? await progressBar() : undefined;
  let report: Awaited<ReturnType<typeof diagnose>>;
  try {
    report = await diagnose(
      {
        config: options.config,
        simulate: options.simulate === true,
        ...(progress ? { onSimulationProgress: progress.session } : {}),
      },
      progress ? { onStart: progress.check } : {},
    );
  } finally {
    progress?.stop();
  }
  if (options.json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    process.stdout.write(
      formatReportTable(report, {
        colour: process.stdout.isTTY === true && !process.env.NO_COLOR,
        width: process.stdout.columns ?? 100,
      }),
    );
  }
  return exitCodeOf(report);
}

async function progressBar() {
  const { SingleBar, Presets } = await import('cli-progress');
  const bar = new SingleBar(
    {
      stream: process.stderr,
      format: ' {bar} {value}/{total} {task}',
      hideCursor: true,
      clearOnComplete: true,
    },
    Presets.shades_classic,
  );
  let started = false;
  const show = (value: number, total: number, task: string) => {
    if (!started) {
      bar.start(total, value, { task });
      started = true;
    } else {
      bar.setTotal(total);
      bar.update(value, { task });
    }
  };
  return {
    check: (check: { name: string }, index: number, total: number) =>
      show(index, total, `checking ${check.name}`),
    session: (done: number, total: number, phase: string) =>
      show(done, total, `simulated session: ${phase}`),
    stop: () => {
      if (started) bar.stop();
    },
  };
}
