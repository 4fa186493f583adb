/**
 * Plays the `simulate` devices: the simulator the table's game hands over
 * (its plug-in's `simulate`), else the one its plug-in names (`simulator`):
 * a dealer dealing the card devices, or a croupier spinning the wheels. It
 * drives the device ends of the wires the devices extension opened, so it
 * starts after it and stops before it.
 */
import { profileOf } from '../../drivers/profiles/registry.ts';
import { gameOf } from '../../games/registry.ts';
import { logger } from '../../log.ts';
import type { DevicesExtension } from './devices.ts';
import { type Extension, type ExtensionContext, Teardown } from './extension.ts';

export class SimulationExtension implements Extension {
  readonly name = 'simulation';
  private readonly teardown = new Teardown();

  constructor(private readonly devices: Pick<DevicesExtension, 'simulated'>) {}

  async start({ config, table, bus }: ExtensionContext): Promise<void> {
    const log = logger('sim');
    const game = gameOf(table.ruleset);
    // The simulated devices the game's simulator plays: each kind's profile names its simulator.
    const played = this.devices.simulated.filter(
      (end) => profileOf(end.kind).simulatedBy === game.simulator,
    );
    if (played.length === 0) return;
    if (game.simulate) {
      const player = game.simulate({
        devices: played,
        settings: config.simulation,
        table,
        onJournaled: (listener) => {
          bus.on('journaled', listener);
          return () => bus.off('journaled', listener);
        },
      });
      player.start();
      this.teardown.add(() => player.stop());
      return;
    }
    if (game.simulator === 'croupier') {
      const wheels = played;
      const { SimulatedCroupier } = await import(
        '../../games/roulette/daemon/simulated-croupier.ts'
      );
      const croupier = new SimulatedCroupier({
        wheels: wheels as ConstructorParameters<typeof SimulatedCroupier>[0]['wheels'],
        simulation: config.simulation,
        ruleset: table.ruleset,
        log,
        open: () => table.expecting().kind !== 'closed',
      });
      croupier.start();
      this.teardown.add(() => croupier.stop());
      return;
    }
    const cardDevices = played;
    const { SimulatedDealer } = await import('../../games/cards/daemon/simulated-dealer.ts');
    const dealer = new SimulatedDealer({
      daemon: table,
      bus,
      devices: cardDevices as ConstructorParameters<typeof SimulatedDealer>[0]['devices'],
      simulation: config.simulation,
      ruleset: table.ruleset,
      log,
    });
    dealer.start();
    this.teardown.add(() => dealer.stop());
  }

  async stop(): Promise<void> {
    await this.teardown.run(logger('sim'));
  }
}
