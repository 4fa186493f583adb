import { afterEach, describe, expect, it } from 'vitest';
import { type LinkAction, LinkSession } from '../../../device-protocol/link.ts';
import type { Message } from '../../../device-protocol/messages.ts';
import { createMemoryPair } from '../../../hardware/transports/memory.ts';
import { SURFACES } from '../../emulators/tcs34725.ts';
import { until } from '../../helpers/until.ts';
import { socatMissing } from '../devices/pty.ts';
import { registryOf, ShoeRig, tagOf } from './shoe-rig.ts';

const skip = socatMissing();
if (skip) console.log(skip);

describe.skipIf(skip)(
  'a shoe tells a 1.2 host of an unnamed card with ERROR, not a type it does not know',
  () => {
    let rig: ShoeRig | undefined;
    afterEach(async () => {
      await rig?.stop();
    });

    it('sends ERROR foreign_tag and no_tag to a host whose HELLO said 1.2', async () => {
      rig = new ShoeRig();
      await rig.startBoard();
      const wire = createMemoryPair(`fw-old-host-${Math.random().toString(36).slice(2)}`);
      const host = new LinkSession({ localTalker: 'HO', peerTalker: 'SH' });
      const delivered: Message[] = [];
      const run = (actions: readonly LinkAction[]) => {
        for (const action of actions) {
          if (action.kind === 'send') void wire.host.write(Buffer.from(action.line, 'latin1'));
          if (action.kind === 'deliver') delivered.push(action.message);
        }
      };
      wire.host.on('data', (chunk: Buffer) => run(host.receiveBytes(chunk, performance.now())));
      await wire.host.open();
      const firmware = await rig.startFirmware(wire.device, { registry: registryOf(['red']) });
      await firmware.core.whenReady();
      run(
        host.send(
          {
            type: 'HELLO',
            model: 'tableside',
            serial: 'old-host',
            protocol: '1.2',
            firmware: '0.0.9',
            firmwareSha256: '0'.repeat(64),
          },
          performance.now(),
        ),
      );
      await until(() => firmware.core.hostProtocol === '1.2', 'the 1.2 host heard');

      await rig.dealOne({
        uid: [0x04, 0x77, 0x77, 0x77, 0x77, 0x77, 0x77],
        surface: SURFACES.redBack,
      });
      await rig.dealOne({ surface: SURFACES.redBack });
      await rig.dealOne({ uid: tagOf(1, 0), surface: SURFACES.redBack });
      await until(
        () => delivered.filter((m) => m.type !== 'HELLO').length >= 3,
        'three events after the HELLO',
      );
      expect(delivered.filter((message) => message.type !== 'HELLO')).toEqual([
        {
          type: 'ERROR',
          code: 'foreign_tag',
          detail: 'tag 04777777777777 is not in the deck registry',
        },
        { type: 'ERROR', code: 'no_tag', detail: 'a red card left face down with no tag read' },
        { type: 'CARD', card: 'AS', back: 'red', face: 'down' },
      ]);
      await wire.host.close();
    });
  },
);
