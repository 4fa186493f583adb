import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../firmware-host/config/loader.ts';
import { TableDaemon } from '../../../firmware-host/daemon/table-daemon.ts';
import type { JournalRecord } from '../../../firmware-host/journal/record.ts';
import { SHOE_PINS } from '../../../hardware/firmware/shoe.ts';
import { SURFACES } from '../../emulators/tcs34725.ts';
import { freePort } from '../../helpers/ports.ts';
import { until } from '../../helpers/until.ts';
import { socatMissing } from '../devices/pty.ts';
import { registryDocumentOf, ShoeRig, sleep, tagOf } from './shoe-rig.ts';

const skip = socatMissing();
if (skip) console.log(skip);

describe.skipIf(skip)('a one-process table runs a real shoe with transport firmware', () => {
  let rig: ShoeRig | undefined;
  let daemon: TableDaemon | undefined;
  afterEach(async () => {
    await daemon?.stop();
    await rig?.stop();
  });

  it('the daemon hosts the shoe firmware over memory:// and journals the cards it names', async () => {
    rig = new ShoeRig();
    await rig.startBoard();
    const registry = join(rig.directory, 'decks.json');
    writeFileSync(registry, JSON.stringify(registryDocumentOf(['red'])));
    const { config } = resolveConfig(
      {
        table: 'fw-one',
        ruleset: 'tdc-baccarat-no-commission',
        devices: {
          shoe: {
            kind: 'shoe',
            transport: 'firmware',
            board: rig.pty.a,
            registry,
            outbox: join(rig.directory, 'hosted-outbox.jsonl'),
            // Given no key (no keyFile or atecc608): dealt unpaired on this bench, as the config says.
            unpaired: 'allow',
          },
        },
        mqtt: { url: 'embedded', port: await freePort() },
        journal: { dir: join(rig.directory, 'journal'), rotateDaily: false },
        session: { autoRound: true },
      },
      { env: {} },
    );
    daemon = new TableDaemon({ config, simulate: false });
    const inputs: JournalRecord[] = [];
    daemon.on('journaled', (records) => inputs.push(...records));
    const online = new Promise<void>((resolve) =>
      daemon!.on('availability', (name, availability) => {
        if (name === 'shoe' && availability === 'online') resolve();
      }),
    );
    await daemon.start();
    await online;
    // The firmware's board comes up beside the daemon: the shoe deals once its parts are
    // set up, which it shows by lighting its status LED.
    await until(() => rig!.board.output(SHOE_PINS.statusLed), 'the status LED lit', 30_000);

    // The dealer loads the shoe (lid open, closed), then deals three cards.
    rig.board.setInput(3, true);
    // fixed wait: emulated timing: the dealer holds the lid open for 50 ms
    await sleep(50);
    rig.board.setInput(3, false);
    for (const index of [0, 1, 2]) {
      await rig.deal({ uid: tagOf(1, index), surface: SURFACES.redBack });
      // fixed wait: emulated timing: the dealer's pace between cards
      await sleep(80);
    }
    const cards = () =>
      inputs.flatMap((record) =>
        record.kind === 'input' && record.data.t === 'card' ? [record.data] : [],
      );
    await until(() => cards().length >= 3, 'three cards journaled');
    expect(cards()).toEqual([
      expect.objectContaining({ card: 'AS', src: 'shoe' }),
      expect.objectContaining({ card: '2S', src: 'shoe' }),
      expect.objectContaining({ card: '3S', src: 'shoe' }),
    ]);
  });
});
