/**
 * `tableside deck`: the deck registry of RFID-tagged cards.
 *
 *   tableside deck enroll --link URL --deck NAME --back COLOUR [--registry FILE] [--replace]
 *   tableside deck list [--registry FILE]
 *
 * Enrolment reads one deck's 52 tags from the reader in the order of
 * standardDeck() (device-protocol/cards.ts): spades, hearts, diamonds,
 * clubs, each ace to king (AS 2S ... KS AH ... KC). A tag read twice in a
 * row is a re-read and ignored; a tag seen earlier in this deck, or enrolled
 * in another deck, stops the enrolment and nothing is written.
 */
import type { Command } from 'commander';

export const DEFAULT_REGISTRY = 'decks.json';

interface EnrollOptions {
  link: string;
  deck: string;
  back: string;
  registry: string;
  replace?: boolean;
  timeout: string;
}

function fail(message: string, code = 1): never {
  process.stderr.write(`tableside deck: ${message}\n`);
  process.exit(code);
}

export function register(program: Command): void {
  const deck = program
    .command('deck')
    .description('deck registry for RFID readers: enroll a deck, list decks');
  deck
    .command('enroll')
    .description(
      "read a deck's 52 tags from the reader (AS 2S .. KS, AH .. KH, AD .. KD, AC .. KC) and store them",
    )
    .requiredOption('--link <url>', 'the reader: a tty path, serial:PATH?baud=N or tcp://HOST:PORT')
    .requiredOption('--deck <name>', 'a name for the deck, e.g. red-1')
    .requiredOption('--back <colour>', 'its back colour, e.g. red')
    .option('--registry <file>', 'the registry file', DEFAULT_REGISTRY)
    .option('--replace', 'enrol a deck of this name again, replacing its tags')
    .option('--timeout <seconds>', 'give up when no tag comes for this long', '120')
    .action(async (options: EnrollOptions) => {
      await enroll(options);
    });
  deck
    .command('list')
    .description('list the enrolled decks')
    .option('--registry <file>', 'the registry file', DEFAULT_REGISTRY)
    .option('--json', 'print JSON')
    .action(async (options: { registry: string; json?: boolean }) => {
      const { DeckRegistry } = await import('../../hardware/readers/deck-registry.ts');
      const registry = await DeckRegistry.load(options.registry, { missingOk: true }).catch(
        (error: Error) => fail(error.message, 2),
      );
      const decks = registry.deckNames().map((name) => {
        const entry = registry.deck(name)!;
        return {
          deck: name,
          back: entry.back,
          tags: Object.keys(entry.tags).length,
          enrolled: entry.enrolled ?? null,
        };
      });
      if (options.json) {
        process.stdout.write(`${JSON.stringify({ registry: options.registry, decks })}\n`);
        return;
      }
      if (decks.length === 0) {
        process.stdout.write(`no deck enrolled in ${options.registry}\n`);
        return;
      }
      for (const entry of decks) {
        process.stdout.write(
          `${entry.deck.padEnd(20)} ${entry.back.padEnd(10)} ${String(entry.tags).padStart(3)} tags  ${entry.enrolled ?? ''}\n`,
        );
      }
    });
}

async function enroll(options: EnrollOptions): Promise<void> {
  const { parseBackColour, standardDeck } = await import('../../device-protocol/cards.ts');
  const { DeckRegistry } = await import('../../hardware/readers/deck-registry.ts');
  const { DeviceDriver } = await import('../drivers/driver.ts');
  const { openTransport } = await import('../../hardware/transports/url.ts');
  const { isHardwareError } = await import('../../hardware/errors.ts');

  try {
    parseBackColour(options.back);
  } catch (error) {
    fail((error as Error).message, 2);
  }
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(options.deck)) {
    fail(`--deck ${JSON.stringify(options.deck)}: expected 1-64 letters, digits, . _ -`, 2);
  }
  const timeoutS = Number(options.timeout);
  if (!Number.isFinite(timeoutS) || timeoutS <= 0)
    fail(`--timeout ${options.timeout}: expected seconds`, 2);
  const registry = await DeckRegistry.load(options.registry, { missingOk: true }).catch(
    (error: Error) => fail(error.message, 2),
  );
  if (registry.deck(options.deck) && !options.replace) {
    fail(
      `deck ${options.deck} is already in ${options.registry}; add --replace to enrol it again`,
      2,
    );
  }

  let transport: ReturnType<typeof openTransport>;
  try {
    transport = openTransport(options.link);
  } catch (error) {
    fail((error as Error).message, 2);
  }
  const driver = new DeviceDriver({ name: 'reader', kind: 'reader', transport, rawTags: true });
  const order = standardDeck();
  const tags: Array<[string, (typeof order)[number]]> = [];
  const seen = new Map<string, string>();
  let lastUid: string | undefined;
  const interactive = process.stderr.isTTY === true;
  let bar: import('cli-progress').SingleBar | undefined;
  if (interactive) {
    const { SingleBar, Presets } = await import('cli-progress');
    bar = new SingleBar(
      { format: 'enrolling {bar} {value}/{total}  next: {next}', hideCursor: true },
      Presets.shades_classic,
    );
  }

  let timer: NodeJS.Timeout | undefined;
  const result = await new Promise<{ ok: true } | { ok: false; error: string }>((resolve) => {
    const arm = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(
        () =>
          resolve({
            ok: false,
            error: `no tag for ${timeoutS} s after ${tags.length} of 52 (next: ${order[tags.length]})`,
          }),
        timeoutS * 1000,
      );
    };
    driver.on('availability', (state, reason) => {
      if (!interactive) process.stderr.write(`reader ${state} (${reason})\n`);
    });
    driver.on('hello', (identity) => {
      process.stderr.write(
        `reader ${identity.model} ${identity.serial} firmware ${identity.firmware}\n`,
      );
      if (bar) bar.start(52, tags.length, { next: order[tags.length] });
      else
        process.stderr.write(`present the cards in order, starting with ${order[tags.length]}\n`);
    });
    driver.on('tag', (uid, ack) => {
      ack();
      if (uid === lastUid) return; // the same card still on the antenna
      lastUid = uid;
      const card = order[tags.length]!;
      const earlier = seen.get(uid);
      if (earlier !== undefined) {
        resolve({
          ok: false,
          error: `tag ${uid} was read for ${earlier} and again where ${card} was expected: a card read twice or a duplicate tag; nothing was written`,
        });
        return;
      }
      const enrolled = registry.lookup(uid);
      if (enrolled && enrolled.deck !== options.deck) {
        resolve({
          ok: false,
          error: `tag ${uid} (read as ${card}) is already ${enrolled.card} of deck ${enrolled.deck}; nothing was written`,
        });
        return;
      }
      seen.set(uid, card);
      tags.push([uid, card]);
      if (bar) bar.update(tags.length, { next: order[tags.length] ?? 'done' });
      else process.stderr.write(`${String(tags.length).padStart(2)}/52 ${card} ${uid}\n`);
      if (tags.length === 52) resolve({ ok: true });
      else arm();
    });
    arm();
    driver.start();
  });
  if (timer) clearTimeout(timer);
  bar?.stop();
  await driver.stop();
  if (!result.ok) fail(result.error);
  try {
    registry.enrol(options.deck, options.back, tags, {
      replace: options.replace === true,
      enrolled: new Date().toISOString(),
    });
    await registry.save(options.registry);
  } catch (error) {
    if (isHardwareError(error)) fail(error.message);
    throw error;
  }
  process.stdout.write(
    `${JSON.stringify({ deck: options.deck, back: options.back, tags: tags.length, registry: options.registry })}\n`,
  );
}
