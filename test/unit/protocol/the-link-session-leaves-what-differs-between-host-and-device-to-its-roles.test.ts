/**
 * Issue 27 item 1: the host and the device are two small roles of one link
 * session, not one class with both in it. The shared files branch on the
 * role nowhere (the talker picks the role once, in `roleFor`), neither role
 * imports the other, and every talker but HO gets the device's role.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeFrame, TALKERS } from '../../../device-protocol/frame.ts';
import { LinkSession } from '../../../device-protocol/link.ts';
import { type CardMessage, messageFrame } from '../../../device-protocol/messages.ts';
import { shoeHello } from '../../helpers/device-hello.ts';

const LINK = join(import.meta.dirname, '../../../device-protocol/link');
const SHARED = [
  'session.ts',
  'outbox.ts',
  'peers.ts',
  'actions.ts',
  'options.ts',
  'role.ts',
  'in-order-delivery.ts',
];
const source = (file: string) => readFileSync(join(LINK, file), 'utf8');
/** Lines that test which end of the line we are: our talker compared, or a role flag. */
const ROLE_TEST =
  /localTalker\s*[!=]==|[!=]==\s*'HO'|isHost|inOrderDevice|instanceof\s+(Host|Device)Role/;

const CARD: CardMessage = { type: 'CARD', card: 'AS', back: 'red', face: 'down' };

describe('the link session and its roles', () => {
  it('branches on the role nowhere in the shared files but where it picks the role', () => {
    const branches = SHARED.flatMap((file) =>
      source(file)
        .split('\n')
        .map((line, index) => ({ at: `${file}:${index + 1}`, line }))
        .filter(({ line }) => ROLE_TEST.test(line)),
    );
    expect(branches.map(({ line }) => line.trim())).toEqual([
      "return core.options.localTalker === 'HO' ? new HostRole(core) : new DeviceRole(core);",
    ]);
    expect(branches[0]?.at).toMatch(/^session\.ts:/);
  });

  it('keeps the host role and the device role apart', () => {
    expect(source('host-role.ts')).not.toMatch(/from '\.\/device-role\.ts'/);
    expect(source('device-role.ts')).not.toMatch(/from '\.\/host-role\.ts'/);
    for (const file of SHARED.filter((name) => name !== 'session.ts')) {
      expect(source(file), file).not.toMatch(/from '\.\/(host|device)-role\.ts'/);
    }
  });

  it('gives every talker but HO the device role: events wait for its HELLO to be ACKed', () => {
    for (const talker of TALKERS.filter((name) => name !== 'HO')) {
      const device = new LinkSession({ localTalker: talker, peerTalker: 'HO' });
      expect(device.sendRaw('NOTE', ['1'], 0), talker).toEqual([]);
      expect(device.pending, talker).toEqual({ inFlight: 0, queued: 1 });
    }
  });

  it('gives HO the host role: events flow at once, and a device must say HELLO first', () => {
    const host = new LinkSession({ localTalker: 'HO', peerTalker: 'SH' });
    expect(host.sendRaw('NOTE', ['1'], 0).map((action) => action.kind)).toEqual(['send']);
    const card = encodeFrame(messageFrame('SH', 1, CARD));
    expect(host.receiveBytes(card, 0).map((action) => action.kind)).toEqual(['discarded', 'send']);
    host.receiveBytes(encodeFrame(messageFrame('SH', 0, shoeHello())), 0);
    expect(host.receiveBytes(card, 0).map((action) => action.kind)).toEqual(['send', 'deliver']);
  });
});
