#!/usr/bin/env node
/**
 * The one CLI entry. Each command lives in its own module under cli/ and
 * loads its heavy dependencies lazily inside its action, so that
 * `tableside decode` never pays for MQTT or johnny-five.
 */
import { Command } from 'commander';
import * as analyze from './cli/analyze.ts';
import * as config from './cli/config.ts';
import * as deck from './cli/deck.ts';
import * as decode from './cli/decode.ts';
import * as devices from './cli/devices.ts';
import * as diag from './cli/diag.ts';
import * as encode from './cli/encode.ts';
import * as hand from './cli/hand.ts';
import * as journal from './cli/journal.ts';
import * as replay from './cli/replay.ts';
import * as rulesets from './cli/rulesets.ts';
import * as run from './cli/run.ts';
import * as sim from './cli/sim.ts';
import { VERSION } from './version.ts';

export function buildProgram(): Command {
  const program = new Command('tableside')
    .description('Table-side daemon and tools for casino card shoes, shufflers and card readers')
    .version(VERSION);
  for (const command of [
    run,
    config,
    decode,
    encode,
    rulesets,
    hand,
    analyze,
    replay,
    devices,
    sim,
    deck,
    journal,
    diag,
  ]) {
    command.register(program);
  }
  return program;
}

await buildProgram().parseAsync(process.argv);
