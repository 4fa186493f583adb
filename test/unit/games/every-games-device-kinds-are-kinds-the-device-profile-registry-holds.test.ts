/**
 * Issue 35 item 2: a game names the device kinds its table is made of as
 * data (`GamePlugin.deviceKinds`, `defaultDevices`), not as a closed union
 * in game.ts; this checks that data against the device kinds' profile
 * registry, for every shipped game and the fixture game.
 */
import { expect, it } from 'vitest';
import { configSchema } from '../../../firmware-host/config/schema.ts';
import { DEVICE_KINDS } from '../../../firmware-host/drivers/profiles/registry.ts';
import { GAME_PLUGINS } from '../../../firmware-host/games/registry.ts';
import { highCard } from '../../fixtures/games/high-card/plugin.ts';

const games = [...GAME_PLUGINS, highCard];

it.each(games.map((game) => [game.id, game] as const))(
  "%s names only kinds with a profile, and its default devices are a config's",
  (_id, game) => {
    expect(game.deviceKinds.length).toBeGreaterThan(0);
    for (const kind of game.deviceKinds) expect(DEVICE_KINDS).toContain(kind);
    for (const device of Object.values(game.defaultDevices)) {
      expect(game.deviceKinds).toContain(device.kind);
    }
    // The config schema takes the game's default bench as it is.
    const parsed = configSchema().safeParse({ devices: game.defaultDevices });
    expect(parsed.error?.issues ?? []).toEqual([]);
  },
);
