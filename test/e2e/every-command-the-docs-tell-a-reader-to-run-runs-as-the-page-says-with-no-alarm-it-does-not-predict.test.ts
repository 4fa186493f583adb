/**
 * Issue 34, item 10: a command the docs tell a reader to run is run by a
 * test. Every line of every ```sh block of README.md and docs/ is, here, one
 * of three things:
 *
 * - run (ONE_SHOTS, each to its end; SESSIONS, a page's lines that make one
 *   session, with its daemon, simulators and ptys) in a temporary folder
 *   standing for the clone, with free ports for the page's fixed ones and
 *   /tmp paths moved into that folder; its exit status and the output the
 *   page shows are checked, and a session's journal holds no alarm the page
 *   does not predict;
 * - run by another test, named (RUN_BY_ANOTHER_TEST);
 * - listed with the reason it cannot run here (NOT_RUN_HERE: a Raspberry Pi,
 *   real hardware, systemd, sudo, the whole suite).
 *
 * A new line on any page that is none of these fails the first test, and so
 * does an entry naming a line no page has any more.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../firmware-host/table/events.ts';
import { REPO_ROOT } from '../helpers/cli.ts';
import {
  type DocCommand,
  docCommands,
  journalEvents,
  ReaderShell,
} from '../helpers/doc-commands.ts';
import { freePort, waitForPort } from '../helpers/ports.ts';
import { commandMissing } from '../helpers/tools.ts';
import { skipReason, socatMissing, until } from './helpers/environment.ts';

interface OneShot {
  page: string;
  command: string;
  /** What is run when the page's line is a synopsis (`[--json]`, `FILE`): its options filled in. */
  as?: string;
  /** The exit status the page says (0 unless told). */
  status?: number;
  /** What the output must show (the page's own figures where it gives them). */
  shows?: RegExp[];
}

const ONE_SHOTS: OneShot[] = [
  {
    page: 'docs/firmware-author/README.md',
    command: 'tableside encode SH 17 CARD AS red down',
    shows: [/^\$SH,17,CARD,AS,red,down\*BBE2$/m],
  },
  {
    page: 'docs/firmware-author/README.md',
    command: 'tableside encode --raw SH 24 FOO bar',
    shows: [/^\$SH,24,FOO,bar\*[0-9A-F]{4}$/m],
  },
  {
    page: 'docs/firmware-author/README.md',
    command: 'tableside decode [FILE] [--stats]',
    as: 'tableside encode SH 17 CARD AS red down > capture.txt && tableside decode capture.txt --stats',
    shows: [/"type":"CARD"/, /"card":"AS"/],
  },
  {
    page: 'docs/operator/exact-analysis.md',
    command: 'tableside analyze baccarat --decks 8 --json',
    shows: [/"ruleset": "bulgaria-punto-banco"/, /"decks": 8/],
  },
  {
    page: 'docs/operator/exact-analysis.md',
    command: 'tableside analyze baccarat --decks 8 --ruleset monaco-punto-2000',
    shows: [/1\.2351 %/],
  },
  {
    page: 'docs/operator/exact-analysis.md',
    command: 'tableside analyze blackjack-dealer --decks 6 --h17',
    shows: [/bust/],
  },
  {
    page: 'docs/operator/exact-analysis.md',
    command: 'tableside analyze holdem-bonus',
    shows: [/house edge 8\.5406 % \(exactly 13873\/162435\)/],
  },
  {
    page: 'docs/operator/exact-analysis.md',
    command: 'tableside analyze ruleset bulgaria-caribbean-stud',
    shows: [/50\.2141 %/, /16\.6072 %/],
  },
  {
    page: 'docs/operator/exact-analysis.md',
    command: 'tableside analyze roulette --ruleset tdc-roulette --json',
    shows: [/"house_edge_exact": "1\/37"/],
  },
  {
    page: 'docs/operator/games-and-rulesets.md',
    command: 'tableside rulesets',
    shows: [/^tdc-blackjack\s/m, /^tdc-roulette\s/m],
  },
  {
    page: 'docs/operator/games-and-rulesets.md',
    command: 'tableside rulesets show tdc-blackjack',
    shows: [/^name: tdc-blackjack$/m],
  },
  {
    page: 'docs/operator/games-and-rulesets.md',
    command: 'tableside hand --ruleset tdc-baccarat-no-commission --cards "9H 2C TD 7S" [--json]',
    as: 'tableside hand --ruleset tdc-baccarat-no-commission --cards "9H 2C TD 7S" --json',
    shows: [/"banker"/],
  },
  {
    page: 'docs/operator/games-and-rulesets.md',
    command:
      'tableside hand --ruleset tdc-blackjack --boxes 1,2 --cards "TS 5H 6D 5C 7S 9H 3H TC" --actions "box1:stand box2:double"',
    shows: [/box:2\.main\s+\+2/],
  },
  {
    page: 'docs/operator/games-and-rulesets.md',
    command:
      'tableside hand --ruleset peru-triple-shot --cards "KH 7D 9H TC 2H 5H 3H 8C 4C 6S JD 2S" --actions box1:stand [--stakes "box:1.war=10 box:1.poker=10"]',
    as: 'tableside hand --ruleset peru-triple-shot --cards "KH 7D 9H TC 2H 5H 3H 8C 4C 6S JD 2S" --actions box1:stand --stakes "box:1.war=10 box:1.poker=10"',
    shows: [/box:1\.poker/],
  },
  {
    page: 'docs/operator/games-and-rulesets.md',
    command:
      'tableside hand --ruleset spain-holdem-bonus --cards "9S KH TS KC 2D 6D 7C 8H 3D 2S 4D 3C" --actions "box1:bet box1:bet box1:bet"',
    shows: [/box:1\.flop/],
  },
  {
    page: 'docs/operator/games-and-rulesets.md',
    command:
      'tableside hand --ruleset tdc-roulette --number 17 --bets "straight:17=10 split:17-20=5 street:16=5 corner:13-17=4 sixline:13-18=6 dozen:2=10 column:2=10 red=10 black=10 even=10 odd=10 low=10 high=10 neighbours:17=5 voisins=9 tiers=6 orphelins=5 zero-spiel=4" --json',
    shows: [/"number":\s*17/, /"net":\s*635\s*}\s*$/],
  },
  {
    page: 'docs/operator/games-and-rulesets.md',
    command: 'tableside replay FILE --ruleset NAME [--json] [--auto-round]',
    as: 'tableside replay test/fixtures/table-logs/tdc-blackjack-legal-shoe.jsonl --ruleset tdc-blackjack --json --auto-round',
    shows: [/"type":\s*"result"/],
  },
  {
    page: 'docs/operator/games-and-rulesets.md',
    command:
      'tableside replay test/fixtures/table-logs/peru-triple-shot-faults.jsonl --ruleset peru-triple-shot',
    shows: [/23 records, 33 events, 6 alarm\(s\), 2 line\(s\) skipped/],
  },
  {
    page: 'docs/operator/web-console.md',
    command: 'tableside roads --results "BPPTBBBPPBT"',
    shows: [/if banker next:/],
  },
  {
    page: 'docs/operator/web-console.md',
    command: 'tableside roads --results "BPPTBBBPPBT" --json',
    shows: [/"big_road"|"bigRoad"/],
  },
  {
    page: 'docs/integrator/signed-requests-and-acls.md',
    command: 'tableside key generate --out alice.pem',
    shows: [/fingerprint/],
  },
  {
    page: 'docs/integrator/signed-requests-and-acls.md',
    command: 'tableside key public alice.pem',
    shows: [/fingerprint/],
  },
  {
    page: 'docs/operator/running-a-table.md',
    command: 'tableside config check table.yaml',
    as: 'cp firmware-host/config/examples/baccarat-smart-shoe.yaml table.yaml && tableside config check table.yaml',
    shows: [/^OK/m],
  },
  {
    page: 'docs/operator/running-a-table.md',
    command: 'tableside config show [table.yaml]',
    as: 'tableside config show table.yaml',
    shows: [/^table: /m],
  },
  {
    page: 'docs/technician/devices.md',
    command: 'tableside devices [--json] [--no-hid]',
    as: 'tableside devices --json --no-hid',
    shows: [/^[[{]/],
  },
  {
    page: 'docs/technician/devices.md',
    command: 'tableside deck list [--registry decks.json] [--json]',
    as: 'tableside deck list --registry decks.json --json',
    shows: [/\[|\{/],
  },
  {
    page: 'docs/operator/raspberry-pi.md',
    command: 'tableside devices',
  },
  {
    page: 'docs/operator/raspberry-pi.md',
    command: 'node --version',
    shows: [/^v(2\d|[3-9]\d)\./],
  },
];

/** Lines another test runs as the page writes them; `mark` is what that test holds of the line. */
const RUN_BY_ANOTHER_TEST: Array<{ page: string; commands: string[]; test: string; mark: string }> =
  [
    {
      page: 'README.md',
      commands: ['npx tableside --help'],
      test: 'test/e2e/npx-tableside-help-works-right-after-npm-ci-as-the-readme-says.test.ts',
      mark: "toBe('npx tableside --help')",
    },
    {
      page: 'docs/technician/simulator-bench.md',
      commands: [
        'mkdir -p /tmp/tableside',
        'socat -d -d pty,raw,echo=0,link=/tmp/tableside/host pty,raw,echo=0,link=/tmp/tableside/device &',
        'npx tableside run --config firmware-host/config/examples/pty-shoe.yaml --no-view &',
        'npx tableside sim shoe --link /tmp/tableside/device --scenario simulators/scenarios/shoe-only-table.yaml --seed 42',
      ],
      test: 'test/e2e/the-readmes-pty-recipe-deals-a-shoe-through-the-daemon-with-no-alarm-but-the-unpaired-bench-notice.test.ts',
      mark: "recipe('No hardware? Link two ptys:')",
    },
    {
      page: 'docs/operator/running-a-table.md',
      commands: [
        'TABLESIDE_RULESET=tdc-roulette TABLESIDE_JOURNAL_DIR=.tableside/roulette npm start',
      ],
      test: 'test/e2e/tableside-run-with-tableside-ruleset-tdc-roulette-spins-a-simulated-wheel-and-publishes-its-spins.test.ts',
      mark: "TABLESIDE_RULESET: 'tdc-roulette'",
    },
    {
      page: 'docs/operator/journal.md',
      commands: [
        'tableside journal verify DIR --key ed25519:… [--heads heads.jsonl] [--events capture.txt] [--json]',
        'tableside journal export DIR --from 2026-11-25T21:00Z --to 2026-11-25T22:00Z --out dispute.bundle',
        'tableside journal verify-bundle dispute.bundle --key ed25519:…',
      ],
      test: 'test/integration/trust/a-journal-rewritten-with-a-recomputed-chain-is-caught-by-the-signed-heads-held-on-the-broker.test.ts',
      mark: "'verify-bundle'",
    },
    {
      page: 'docs/integrator/signed-requests-and-acls.md',
      commands: [
        'tableside request new_round boxes=[1,2,3] --key alice.pem --url mqtts://pit:8883 --table t1 --username supervisor-pit',
      ],
      test: 'test/integration/trust/a-consumer-cannot-publish-a-request-through-mosquitto-with-the-shipped-acl.test.ts',
      mark: "'supervisor-pit',",
    },
    {
      page: 'docs/operator/web-console.md',
      commands: [
        'tableside user add alice --role supervisor --config table.yaml',
        'echo "$PASSWORD" | tableside user add bob --role viewer --config table.yaml',
      ],
      test: 'test/unit/web/tableside-user-add-stores-an-scrypt-hash-in-the-config.test.ts',
      mark: "'user', 'add'",
    },
    {
      page: 'docs/operator/journal.md',
      commands: ['tableside journal repair DIR'],
      test: 'test/e2e/a-journal-file-damaged-from-its-first-line-is-set-aside-the-table-refuses-to-start-and-journal-repair-continues-it-verifiably.test.ts',
      mark: "['journal', 'repair', journalDir]",
    },
  ];

const A_PI = 'a Raspberry Pi being installed: sudo, apt, systemd, udev, /opt and /etc';
const A_DEVICE = 'a real device on a real serial line or board (/dev/ttyUSB0, a Firmata board)';
const THE_SUITE = 'the test suite or the benchmarks themselves (minutes of the whole machine)';

/** Lines that cannot run here, with why. */
const NOT_RUN_HERE: Array<{ page: string; commands: string[]; reason: string }> = [
  {
    page: 'README.md',
    commands: ['npm ci && npm start', 'npm test'],
    reason: `npm ci replaces the shared node_modules; ${THE_SUITE} (npm start is tableside run with no config: test/e2e/tableside-run-with-no-config-…)`,
  },
  {
    page: 'docs/developer/testing.md',
    commands: [
      'npm test',
      'npm run test:slow',
      'npx vitest run test/unit/table',
      'npx vitest run path/to/file.test.ts',
      'npm run typecheck && npm run lint',
    ],
    reason: THE_SUITE,
  },
  {
    page: 'docs/developer/testing.md',
    commands: [
      'npx tsx test/architecture/print-known.ts > /tmp/known-branches.ts && mv /tmp/known-branches.ts test/architecture/known-branches.ts && npx biome format --write test/architecture/known-branches.ts',
      'git diff test/architecture/known-branches.ts',
    ],
    reason:
      "rewrites the checkout's own test/architecture/known-branches.ts (the shell's folders are links to it) and reads its git diff; the list it prints must equal the tree's, checked by test/unit/architecture.test.ts",
  },
  {
    page: 'docs/developer/benchmarks.md',
    commands: [
      'npm run bench',
      'npm run bench -- --only latency,burst',
      'npm run bench -- --json',
      'npm run bench:docs',
    ],
    reason: THE_SUITE,
  },
  {
    page: 'docs/firmware-author/README.md',
    commands: [
      'socat -u /dev/ttyUSB0,raw,b115200 - | tableside decode --stats',
      'tableside conformance --link /dev/ttyUSB0 --talker SH',
      'tableside conformance --link tcp://192.168.1.50:4001 --json',
      'tableside conformance --link /dev/ttyACM0 --key ed25519:...',
    ],
    reason: `${A_DEVICE}; the suite against our simulators: test/integration/conformance/`,
  },
  {
    page: 'docs/firmware-author/conformance.md',
    commands: [
      'tableside conformance --link /dev/ttyUSB0 --talker SH',
      'TABLESIDE_TEST_PORT=/dev/ttyUSB0 TABLESIDE_TEST_TALKER=SH npx vitest run test/integration/conformance/a-real-device-named-by-tableside-test-port-passes-the-conformance-suite.test.ts',
    ],
    reason: A_DEVICE,
  },
  {
    page: 'docs/firmware-author/walk-through.md',
    commands: [
      'tableside conformance --link /dev/ttyUSB0 --talker SH --capture step1.txt',
      'tableside conformance --link /dev/ttyUSB0 --talker SH --key ed25519:0EqyMnQr...',
    ],
    reason: A_DEVICE,
  },
  {
    page: 'docs/integrator/signed-requests-and-acls.md',
    commands: [
      'tableside request void_hand reason="spilled drink" --key alice.pem --config table.yaml',
      'mosquitto_passwd -c /etc/mosquitto/tableside.passwd table-t1',
      'cp hardware/deploy/mosquitto/tableside.acl /etc/mosquitto/',
    ],
    reason:
      "the pit's /etc/mosquitto; and a table whose config trusts alice.pem's key as a supervisor's, not set up here (the same signed request over --url runs in test/integration/trust/a-consumer-cannot-publish-…)",
  },
  {
    page: 'docs/operator/exact-analysis.md',
    commands: ['tableside analyze poker --cards 7'],
    reason:
      '133,784,560 hands: seconds of every core on an idle machine; the counts are held by test/unit/analysis/',
  },
  {
    page: 'docs/operator/journal.md',
    commands: [
      "mosquitto_sub -h BROKER -c -i events-archive -q 1 -v -t 'tableside/+/events/#' >> capture.txt",
      'sudo -u tableside tableside key generate --out /etc/tableside/table.pem',
    ],
    reason: "a live table's broker and its service account",
  },
  {
    page: 'docs/operator/raspberry-pi.md',
    commands: [
      'sudo apt-get update && sudo apt-get full-upgrade -y',
      'sudo apt-get install -y libusb-1.0-0 libudev1 udev ca-certificates curl',
      'curl -fsSL https://deb.nodesource.com/setup_20.x | sudo -E bash -',
      'sudo apt-get install -y nodejs',
      'sudo useradd --system --home-dir /var/lib/tableside --shell /usr/sbin/nologin --groups dialout,plugdev tableside',
      'npm ci',
      'npm run build',
      'rm -rf node_modules && npm ci --omit=dev',
      'tar czf tableside.tgz dist node_modules package.json package-lock.json hardware/deploy hardware/console/pin-maps',
      'scp tableside.tgz table-07:/tmp/',
      'sudo mkdir -p /opt/tableside',
      'sudo tar xzf /tmp/tableside.tgz -C /opt/tableside',
      'sudo chown -R root:root /opt/tableside',
      'node /opt/tableside/dist/firmware-host/cli.js --version',
      'node /opt/tableside/dist/firmware-host/cli.js devices',
      'sudo install -m 0644 /opt/tableside/hardware/deploy/99-tableside.rules /etc/udev/rules.d/',
      'sudoedit /etc/udev/rules.d/99-tableside.rules',
      'sudo udevadm control --reload-rules && sudo udevadm trigger',
      'ls -l /dev/tableside/',
      'sudoedit /etc/tableside/config.json',
      'sudo chown root:tableside /etc/tableside/config.json && sudo chmod 0640 /etc/tableside/config.json',
      'node /opt/tableside/dist/firmware-host/cli.js config check --config /etc/tableside/config.json',
      'sudo install -d -o tableside -g tableside -m 0700 /etc/tableside/keys',
      'sudo -u tableside node /opt/tableside/dist/firmware-host/cli.js key generate --out /etc/tableside/keys/table.pem',
      'sudo -u tableside node /opt/tableside/dist/firmware-host/cli.js device pair shoe --config /etc/tableside/config.json',
      'sudo -u tableside node /opt/tableside/dist/firmware-host/cli.js device pair reader --config /etc/tableside/config.json',
      'sudo raspi-config nonint do_serial_cons 1',
      'sudo raspi-config nonint do_serial_hw 0',
      'sudo reboot',
      'sudo install -m 0644 /opt/tableside/hardware/deploy/tableside.service /etc/systemd/system/',
      'sudo systemctl daemon-reload',
      'sudo systemctl enable --now tableside',
      'systemctl status tableside',
      'journalctl -u tableside -f',
      "grep -E 'VmRSS|RssAnon|RssFile' /proc/$(systemctl show -p MainPID --value tableside)/status",
      'socat -d -d pty,raw,echo=0,link=/tmp/A pty,raw,echo=0,link=/tmp/B &',
      'tableside sim shoe --link /tmp/B --ruleset tdc-baccarat-no-commission',
    ],
    reason: `${A_PI}; its last check feeds the Pi's own configured table (the same pty recipe runs in docs/technician/simulators.md)`,
  },
  {
    page: 'docs/technician/device-firmware.md',
    commands: [
      'tableside firmware calibrate --board /dev/ttyUSB0 [--out shoe-calibration.json] [--backs red,blue]',
      'tableside firmware shoe --board /dev/ttyUSB0 --link /dev/ttyGS0 --registry decks.json [--calibration shoe-calibration.json] [--outbox shoe-outbox.jsonl] [--serial SHOE-0001] [--beam-broken low|high] [--atecc608 | --key-file shoe.key] [--host-key ed25519:…]',
      'tableside firmware reader --board /dev/ttyUSB0 --link tcp://table-pi:4002 [--serial READER-0001] [--atecc608 | --key-file reader.key] [--host-key ed25519:…]',
    ],
    reason: `${A_DEVICE}; the firmware on the Firmata emulator: test/integration/firmware/`,
  },
  {
    page: 'docs/technician/devices.md',
    commands: [
      'tableside deck enroll --link /dev/tableside/reader --deck red-1 --back red [--registry decks.json] [--replace]',
    ],
    reason: `${A_DEVICE}; enrolment from a simulated reader runs in docs/technician/simulators.md's session`,
  },
];

/** A page's lines that make one session, in the page's order; `run` runs them. */
interface Session {
  page: string;
  name: string;
  /** The page's lines; a pair is another page's line the same session runs. */
  commands: Array<string | readonly [page: string, command: string]>;
  needs?: () => string | undefined;
  run(shell: ReaderShell, lines: string[]): Promise<void>;
}

function linesOf(session: Session): Array<readonly [string, string]> {
  return session.commands.map((line) => (typeof line === 'string' ? [session.page, line] : line));
}

function alarmsIn(events: readonly DomainEvent[]) {
  return events.filter(
    (event): event is Extract<DomainEvent, { type: 'alarm' }> => event.type === 'alarm',
  );
}

/** Runs a line to its end and checks its status. */
function runs(shell: ReaderShell, line: string, status = 0): string {
  const result = shell.run(line);
  expect(result.status, `${line}\n${result.stdout}\n${result.stderr}`).toBe(status);
  return result.stdout + result.stderr;
}

/** A shoe-only table's config (pty-shoe.yaml), its shoe moved to `transport`, its broker to `port`. */
function shoeOnlyTable(
  shell: ReaderShell,
  file: string,
  {
    transport,
    port,
    journal,
    unpaired,
  }: { transport: string; port: number; journal: string; unpaired: boolean },
) {
  const example = readFileSync(
    join(REPO_ROOT, 'firmware-host/config/examples/pty-shoe.yaml'),
    'utf8',
  );
  expect(example).toMatch(/transport: \/tmp\/tableside\/host\n/);
  expect(example).toMatch(/port: 1883\n/);
  let text = example
    .replace(/transport: \/tmp\/tableside\/host\n/, `transport: ${transport}\n`)
    .replace(/port: 1883\n/, `port: ${port}\n`)
    .replace('dir: ./.tableside/pty-bench', `dir: ${journal}`);
  if (!unpaired) text = text.replace(/\n\s*unpaired: allow\n/, '\n');
  writeFileSync(join(shell.dir, file), text);
}

const SESSIONS: Session[] = [
  {
    page: 'docs/operator/pairing-devices.md',
    name: 'makes a shoe key, pairs the simulated shoe and deals its shoe through the restarted table with no alarm',
    commands: [
      'tableside device key new shoe.key [--type ed25519|p256]',
      'tableside device key show shoe.key',
      'tableside sim shoe --key shoe.key --listen 7001 --scenario simulators/scenarios/shoe-only-table.yaml',
      'tableside device pair shoe --config table.yaml',
      'tableside run --config table.yaml',
    ],
    async run(shell, [keyNew, keyShow, sim, pair, run]) {
      const made = runs(shell, keyNew!.replace(' [--type ed25519|p256]', ' --type p256'));
      const fingerprint = /fingerprint ([0-9A-F]{4}(?:-[0-9A-F]{4}){3})/.exec(made)?.[1];
      expect(fingerprint, made).toBeDefined();
      expect(runs(shell, keyShow!)).toContain(fingerprint);
      const simPort = await freePort();
      const brokerPort = await freePort();
      // The page's table: pty-shoe.yaml, the shoe at the simulator's port, paired, its own journal.
      shoeOnlyTable(shell, 'table.yaml', {
        transport: `tcp://127.0.0.1:${simPort}`,
        port: brokerPort,
        journal: './.tableside/paired-bench',
        unpaired: false,
      });
      const simulator = shell.start(sim!.replace('--listen 7001', `--listen ${simPort}`));
      await waitForPort(simPort, 60_000);
      // Not at a terminal the question cannot be asked: it names the fingerprint and --yes.
      const asked = shell.run(pair!);
      expect(asked.status, asked.stderr).toBe(1);
      expect(asked.stderr).toContain(`check that the device shows ${fingerprint}`);
      expect(runs(shell, `${pair} --yes`)).toContain(
        `proved a p256 key with fingerprint ${fingerprint}`,
      );
      expect(readFileSync(join(shell.dir, 'table.yaml'), 'utf8')).toMatch(/key: p256:/);
      const table = shell.start(`${run} --no-view`);
      await waitForPort(brokerPort, 120_000);
      const journal = join(shell.dir, '.tableside/paired-bench');
      await until(
        async () =>
          (await journalEvents(journal)).filter((event) => event.type === 'result').length >= 2,
        'two coups settled',
        180_000,
        () => `${simulator.output().slice(-1500)}\n${table.output().slice(-1500)}`,
      );
      const events = await journalEvents(journal);
      expect(alarmsIn(events)).toEqual([]);
      expect(events.filter((event) => event.type === 'shoe_start')).toHaveLength(1);
    },
  },
  {
    page: 'docs/firmware-author/walk-through.md',
    name: 'passes the conformance suite against the simulated shoe',
    commands: [
      'tableside sim shoe --listen 127.0.0.1:7000 --ruleset tdc-baccarat-no-commission &',
      'tableside conformance --link tcp://127.0.0.1:7000 --talker SH --scripted',
    ],
    async run(shell, [sim, conformance]) {
      const port = await freePort();
      const at = (line: string) => line.replace('127.0.0.1:7000', `127.0.0.1:${port}`);
      shell.start(at(sim!));
      await waitForPort(port, 60_000);
      const result = shell.run(at(conformance!), { timeoutMs: 240_000 });
      expect(result.status, result.stdout + result.stderr).toBe(0);
      expect(result.stdout).toMatch(/^CONFORMS: all 22 required checks passed/m);
    },
  },
  {
    page: 'docs/technician/simulators.md',
    name: 'deals a shoe over linked ptys with no alarm but the unpaired bench notice, writes the registry and enrols a deck',
    needs: socatMissing,
    commands: [
      'mkdir -p /tmp/tableside',
      'socat -d -d pty,raw,echo=0,link=/tmp/tableside/host pty,raw,echo=0,link=/tmp/tableside/device &',
      'tableside run --config firmware-host/config/examples/pty-shoe.yaml --no-view &',
      'tableside sim shoe --link /tmp/tableside/device --scenario simulators/scenarios/shoe-only-table.yaml --seed 42',
      'tableside sim reader --link /tmp/tableside/device --ruleset peru-triple-shot --write-registry decks.json',
      'tableside sim reader --link /tmp/tableside/device --ruleset peru-triple-shot --enroll sim-red-1 --back red --rate 5 &',
      'tableside deck enroll --link /tmp/tableside/host --deck sim-red-1 --back red --registry decks.json',
    ],
    async run(shell, [mkdir, socat, run, sim, writeRegistry, enrolling, enroll]) {
      const here = (line: string) =>
        line.replaceAll('/tmp/tableside', join(shell.dir, 'tableside'));
      const ptys = () =>
        until(
          () =>
            existsSync(join(shell.dir, 'tableside/host')) &&
            existsSync(join(shell.dir, 'tableside/device')),
          'both ptys',
          20_000,
        );
      runs(shell, here(mkdir!));
      let pair = shell.start(here(socat!));
      await ptys();
      const port = await freePort();
      const config = 'firmware-host/config/examples/pty-shoe.yaml';
      expect(run).toContain(config);
      // The example as it is, its pty moved into the session's folder and its broker to a free port.
      shoeOnlyTable(shell, 'pty-shoe.yaml', {
        transport: join(shell.dir, 'tableside/host'),
        port,
        journal: './.tableside/pty-bench',
        unpaired: true,
      });
      const table = shell.start(here(run!).replace(config, 'pty-shoe.yaml'));
      await waitForPort(port, 120_000);
      const simulator = shell.start(here(sim!));
      const journal = join(shell.dir, '.tableside/pty-bench');
      await until(
        async () =>
          (await journalEvents(journal)).filter((event) => event.type === 'result').length >= 2,
        'two coups settled',
        180_000,
        () => simulator.output().slice(-2000),
      );
      await shell.end(simulator.child);
      await shell.end(table.child);
      const events = await journalEvents(journal);
      // An unpaired bench shoe: its notice at each connect, nothing else.
      const alarms = alarmsIn(events);
      expect(alarms.filter((alarm) => alarm.kind !== 'device_unpaired')).toEqual([]);
      expect(alarms.every((alarm) => alarm.dealt === true)).toBe(true);
      expect(events.filter((event) => event.type === 'shoe_start')).toHaveLength(1);

      // The registry is written before the reader starts on the line.
      const registry = join(shell.dir, 'decks.json');
      const writer = shell.start(here(writeRegistry!));
      await until(
        () => existsSync(registry) && readFileSync(registry, 'utf8').includes('"sim-red-1"'),
        'decks.json',
      );
      await shell.end(writer.child);
      // Or enrolled (the other way the page gives): a registry without the deck.
      runs(shell, 'rm decks.json');
      await shell.end(pair.child);
      pair = shell.start(here(socat!));
      await ptys();
      shell.start(here(enrolling!));
      const enrolled = shell.run(here(enroll!), { timeoutMs: 180_000 });
      expect(enrolled.status, enrolled.stdout + enrolled.stderr).toBe(0);
      const deck = JSON.parse(readFileSync(registry, 'utf8')).decks['sim-red-1'];
      expect(deck.back).toBe('red');
      expect(Object.keys(deck.tags)).toHaveLength(52);
    },
  },
  {
    page: 'docs/integrator/mqtt.md',
    name: "and the README's, journal.md's and exact-analysis.md's lines watch, ask, verify, show and analyse a simulated roulette table",
    needs: () =>
      commandMissing(
        'mosquitto_sub',
        'the MQTT pages tell a reader to watch the table with it (apt-get install mosquitto-clients)',
      ),
    commands: [
      ['README.md', "mosquitto_sub -h 127.0.0.1 -p 1883 -t 'tableside/#' -v"],
      "mosquitto_sub -h 127.0.0.1 -t 'tableside/#' -v",
      `mosquitto_pub -h 127.0.0.1 -t tableside/table-1/bridge/request/health_check -m '{"transaction":"1"}'`,
      [
        'docs/operator/journal.md',
        'tableside journal verify DIR [--json] [--expect-last-seq N] [--events capture.txt]',
      ],
      [
        'docs/operator/journal.md',
        'tableside journal show DIR [--from SEQ] [--kind event] [--json]',
      ],
      [
        'docs/operator/exact-analysis.md',
        'tableside analyze wheel .tableside/roulette --svg wheel.svg',
      ],
    ],
    async run(shell, [readmeSub, sub, pub, verify, show, wheel]) {
      const port = await freePort();
      // `npm start` at a wheel (running-a-table.md), its broker on a free port, the croupier quick.
      writeFileSync(
        join(shell.dir, 'bench.json'),
        JSON.stringify({
          mqtt: { port },
          simulation: { cardIntervalMs: 20, roundIntervalMs: 60, seed: 7 },
        }),
      );
      shell.extraEnv.TABLESIDE_CONFIG = 'bench.json';
      shell.extraEnv.TABLESIDE_RULESET = 'tdc-roulette';
      // Its own journal folder, as running-a-table.md starts a roulette bench.
      shell.extraEnv.TABLESIDE_JOURNAL_DIR = '.tableside/roulette';
      const table = shell.start('tableside run --no-view');
      await waitForPort(port, 120_000);
      const onPort = (line: string) =>
        line.includes(' -p 1883 ')
          ? line.replace(' -p 1883 ', ` -p ${port} `)
          : line.replace('-h 127.0.0.1 ', `-h 127.0.0.1 -p ${port} `);
      const watchers = [shell.start(onPort(readmeSub!)), shell.start(onPort(sub!))];
      for (const watcher of watchers) {
        await until(
          () => watcher.output().includes('tableside/table-1/bridge/info'),
          'the retained bridge/info',
          30_000,
          watcher.output,
        );
      }
      runs(shell, onPort(pub!));
      for (const watcher of watchers) {
        await until(
          () =>
            /tableside\/table-1\/bridge\/response\S* .*"transaction":"1"/.test(watcher.output()),
          'the health_check response',
          30_000,
          () => watcher.output().slice(-2000),
        );
        await until(
          () => watcher.output().includes('tableside/table-1/events/spin'),
          'a spin',
          60_000,
          () => watcher.output().slice(-2000),
        );
      }
      await shell.stop();
      expect(table.output()).not.toMatch(/"level":[5-6]0/);
      const journal = join(shell.dir, '.tableside/roulette');
      expect(alarmsIn(await journalEvents(journal))).toEqual([]);
      const dir = (line: string) => line.replace(' DIR ', ' .tableside/roulette ');
      const verified = runs(
        shell,
        dir(verify!).replace(' [--json] [--expect-last-seq N] [--events capture.txt]', ' --json'),
      );
      expect(verified).toMatch(/"ok":\s*true/);
      const shown = runs(
        shell,
        dir(show!).replace(
          ' [--from SEQ] [--kind event] [--json]',
          ' --from 1 --kind event --json',
        ),
      );
      expect(shown).toMatch(/"type":\s*"spin"/);
      runs(shell, wheel!);
      expect(readFileSync(join(shell.dir, 'wheel.svg'), 'utf8')).toMatch(/^<svg/);
    },
  },
];

describe('every command the docs tell a reader to run', () => {
  const commands = docCommands();
  const key = (page: string, command: string) => `${page}\n${command}`;

  it('is run here, run by a test named here, or listed with the reason it cannot run here', () => {
    const covered = new Map<string, string>();
    const cover = (page: string, command: string, how: string) => {
      expect(covered.get(key(page, command)), `${page}: ${command}: listed twice`).toBeUndefined();
      covered.set(key(page, command), how);
    };
    for (const shot of ONE_SHOTS) cover(shot.page, shot.command, 'run');
    for (const session of SESSIONS) {
      for (const [page, command] of linesOf(session)) cover(page, command, 'run');
    }
    for (const entry of RUN_BY_ANOTHER_TEST) {
      const test = readFileSync(join(REPO_ROOT, entry.test), 'utf8');
      expect(test, `${entry.test} runs ${entry.page}'s lines`).toContain(entry.mark);
      for (const command of entry.commands) cover(entry.page, command, entry.test);
    }
    for (const entry of NOT_RUN_HERE) {
      expect(entry.reason.length).toBeGreaterThan(10);
      for (const command of entry.commands) cover(entry.page, command, entry.reason);
    }
    const onPages = new Set(commands.map(({ page, command }) => key(page, command)));
    const neither = commands.filter(({ page, command }) => !covered.has(key(page, command)));
    expect(
      neither.map(({ page, line, command }) => `${page}:${line}: ${command}`),
      'lines neither run nor listed',
    ).toEqual([]);
    const gone = [...covered.keys()].filter((entry) => !onPages.has(entry));
    expect(
      gone.map((entry) => entry.replace('\n', ': ')),
      'entries no page has',
    ).toEqual([]);
    // The pages have lines to find (an extraction that finds none would pass the above).
    expect(commands.length).toBeGreaterThan(100);
    const notRun = NOT_RUN_HERE.flatMap((entry) => entry.commands).length;
    console.log(
      `${commands.length} lines: ${commands.length - notRun} run (${RUN_BY_ANOTHER_TEST.flatMap((entry) => entry.commands).length} by other tests), ${notRun} not run here`,
    );
  });

  it('runs each one-shot line to its end with the status and output its page shows', () => {
    const shell = new ReaderShell('tableside-doc-one-shots-');
    const failures: string[] = [];
    for (const shot of ONE_SHOTS) {
      const line = shot.as ?? shot.command;
      const result = shell.run(line, { timeoutMs: 120_000 });
      const output = result.stdout + result.stderr;
      if (result.status !== (shot.status ?? 0)) {
        failures.push(`${shot.page}: ${line}: status ${result.status}\n${output.slice(-1500)}`);
        continue;
      }
      for (const shows of shot.shows ?? []) {
        if (!shows.test(output)) {
          failures.push(`${shot.page}: ${line}: no ${shows}\n${output.slice(-1500)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 600_000);

  let running: ReaderShell | undefined;
  afterEach(async () => {
    await running?.stop();
    running = undefined;
  });

  for (const session of SESSIONS) {
    const missing = skipReason(session.needs?.());
    it.skipIf(missing !== undefined)(
      `${session.page} ${session.name}`,
      async () => {
        const lines = linesOf(session).map(([page, command]) => {
          const found = commands.find((line) => line.page === page && line.command === command);
          expect(found, `${page} has ${command}`).toBeDefined();
          return (found as DocCommand).command.replace(/^npx tableside /, 'tableside ');
        });
        running = new ReaderShell(`tableside-doc-${session.page.split('/').pop()}-`);
        await session.run(running, lines);
      },
      420_000,
    );
  }
});
