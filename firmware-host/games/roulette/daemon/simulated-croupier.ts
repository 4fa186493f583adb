/**
 * The simulated croupier of a roulette bench (a `wheel` device with
 * `transport: simulate`): it plays the wheel simulator at a croupier's
 * pace — `simulation.roundIntervalMs` of betting, then the rotor, the ball,
 * "no more bets" and the result `simulation.cardIntervalMs` apart — through
 * the same door a real wheel uses: its wire to the driver. Once closing time
 * has closed the table it spins no more. Legal spins only
 * (faults are for `tableside sim wheel` and the tests); the ruleset's
 * minimum revolutions is respected.
 */
import type { DevicePublicKey } from '../../../../device-protocol/auth/keys.ts';
import type { DeviceKey } from '../../../../hardware/keys/device-key.ts';
import type { Transport } from '../../../../hardware/transports/transport.ts';
import { SimulatedWheel } from '../../../../simulators/wheel.ts';
import type { TablesideConfig } from '../../../config/schema.ts';
import type { Logger } from '../../../log.ts';
import { gameOf } from '../../registry.ts';

export interface SimulatedCroupierOptions {
  /** Each wheel's wire end, and its key file's key (`keyFile`, a bench that runs paired). */
  wheels: ReadonlyArray<{
    name: string;
    device: Transport;
    key?: DeviceKey | undefined;
    hostKey?: DevicePublicKey | undefined;
  }>;
  simulation: TablesideConfig['simulation'];
  ruleset: string;
  log: Logger;
  /** Whether the table takes another game (false once closing time has closed it). */
  open?: () => boolean;
}

export class SimulatedCroupier {
  private readonly wheels: SimulatedWheel[];

  constructor(options: SimulatedCroupierOptions) {
    const seed = options.simulation.seed ?? Math.floor(Math.random() * 2 ** 31);
    options.log.info({ seed }, 'simulated croupier seed (set simulation.seed to repeat it)');
    // A wheel at a table whose ruleset says nothing of spins (a card ruleset) spins at least 4 revolutions.
    const spin = (
      gameOf(options.ruleset).ruleset(options.ruleset) as {
        spin?: { minBallRevolutions?: { value: number } };
      }
    ).spin;
    const minRevolutions = spin?.minBallRevolutions?.value ?? 4;
    // At least a millisecond apart: a pace of 0 would make the wheel wait for steps.
    const paceMs = Math.max(1, options.simulation.cardIntervalMs);
    this.wheels = options.wheels.map(
      (wheel, index) =>
        new SimulatedWheel({
          transport: wheel.device,
          seed: seed + index,
          minRevolutions,
          paceMs,
          bettingMs: options.simulation.roundIntervalMs,
          ...(options.open ? { mayPlay: options.open } : {}),
          ...(wheel.key === undefined ? {} : { key: wheel.key }),
          ...(wheel.hostKey === undefined ? {} : { hostKey: wheel.hostKey }),
        }),
    );
  }

  start(): void {
    for (const wheel of this.wheels) wheel.start();
  }

  async stop(): Promise<void> {
    await Promise.all(this.wheels.map((wheel) => wheel.stop()));
  }
}
