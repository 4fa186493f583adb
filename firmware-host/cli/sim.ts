/**
 * `tableside sim shoe|shuffler|reader|wheel`: runs a device simulator on its own,
 * for a technician testing a daemon (or a Pi over a USB-serial cable)
 * without the real kit. See docs/technician/simulators.md.
 */
import type { Command } from 'commander';
import { DEVICE_KINDS } from '../../simulators/steps.ts';
import type { GamePlugin } from '../games/game.ts';
import type { DealerSimOptions } from './sim-dealer.ts';
import type { WheelSimOptions } from './sim-wheel.ts';
import { runSimDevice, type SimPlay } from './sim-wire.ts';

/** The roulette table's device (its plug-in's `deviceKinds`), for the help text. */
const WHEEL = 'wheel';
/** Every kind there is a simulator for: the card devices' and the wheel. */
const SIMULATED_KINDS: readonly string[] = [...DEVICE_KINDS, WHEEL];

type SimOptions = DealerSimOptions & WheelSimOptions;

const collect = (value: string, previous: string[]): string[] => [...previous, value];

export function register(program: Command): void {
  program
    .command('sim')
    .description(
      `run a device simulator (${SIMULATED_KINDS.join(', ')}) on a serial line, pty or TCP socket`,
    )
    .argument('[kind]', SIMULATED_KINDS.join(' | '))
    .option(
      '--link <url>',
      'where the daemon is: a tty or pty path, serial:PATH?baud=N, or tcp://HOST:PORT (connects)',
    )
    .option(
      '--listen <[host:]port>',
      'serve on a TCP port instead; the daemon connects with tcp://HOST:PORT',
    )
    .option('--ruleset <name>', 'the ruleset whose shoe is dealt')
    .option('--seed <n>', 'seed of the session (same seed, same session)')
    .option('--scenario <file>', 'a scenario file (YAML or JSON, see docs/technician/scenarios.md)')
    .option('--rate <cards-per-s>', 'dealing pace in cards per second (default 2)')
    .option(
      '--fault <name[=arg]>',
      'switch a behaviour on (repeatable; --list-faults shows them)',
      collect,
      [],
    )
    .option('--off <name>', 'switch a behaviour off, e.g. report-order (repeatable)', collect, [])
    .option('--rounds <n>', 'rounds to play for one-deck-per-round games (default 8)')
    .option(
      '--boxes <list>',
      'boxes in play in every round of a one-deck-per-round game, e.g. 1,2,3 (default: random per round)',
    )
    .option(
      '--write-registry <file>',
      'reader: write the deck registry of the simulated decks, then run',
    )
    .option(
      '--enroll <deck>',
      "reader: present one deck's 52 tags in enrolment order (for `tableside deck enroll`)",
    )
    .option('--back <colour>', 'reader with --enroll: the back colour of that deck', 'red')
    .option('--keep-open', 'stay connected after the session ends (answering PINGs) until Ctrl-C')
    .option('--verbose', 'print every frame written on stderr')
    .option(
      '--key <file>',
      "the device's own key file (protocol 1.4: it proves it on every connection; `tableside device key new`)",
    )
    .option(
      '--host-key <ed25519:...>',
      "the table's host key that `tableside device pair` printed (protocol 1.7: the device takes sessions from that host only)",
    )
    .option('--list-faults', 'list the behaviours and faults, then exit')
    .option('--games <n>', 'wheel: games to play (default 10)')
    .option('--pace <ms>', 'wheel: milliseconds between the events of a spin (default 500)')
    .option('--betting <ms>', 'wheel: milliseconds of betting before each spin (default 1000)')
    .action(async (kind: string | undefined, options: SimOptions) => {
      await runSim(kind, options);
    });
}

/** Each simulator's part of `tableside sim`, by the name its game's plug-in gives (`GamePlugin.simulator`). */
const SIMULATORS: Record<
  GamePlugin['simulator'],
  (kind: string | undefined, options: SimOptions) => Promise<SimPlay | undefined>
> = {
  dealer: async (kind, options) =>
    (await import('./sim-dealer.ts')).dealerSim(kind, options, SIMULATED_KINDS),
  croupier: async (_kind, options) => (await import('./sim-wheel.ts')).wheelSim(options),
};

async function runSim(kind: string | undefined, options: SimOptions): Promise<void> {
  const { installedGames } = await import('../games/registry.ts');
  // The game whose table has this device says who plays it; without a kind, a scenario names a card device.
  const game =
    kind === undefined
      ? undefined
      : installedGames().plugins.find((plugin) => plugin.deviceKinds.some((k) => k === kind));
  const play = await SIMULATORS[game?.simulator ?? 'dealer'](kind, options);
  if (play) await runSimDevice(options, play);
}
