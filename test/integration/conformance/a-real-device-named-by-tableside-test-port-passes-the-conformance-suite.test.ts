/**
 * The conformance suite against a real device, as node-serialport runs its
 * suite against real hardware: set TABLESIDE_TEST_PORT to the device's line
 * (`/dev/ttyUSB0`, `serial:/dev/ttyACM0?baud=115200`, `tcp://HOST:PORT`).
 * Optional: TABLESIDE_TEST_TALKER (SH, SF, RD, RW), TABLESIDE_TEST_KEY (its
 * paired key, `ed25519:...`), TABLESIDE_TEST_HOST_KEY (the table's host-key.pem
 * it was paired with: the paired-host and hostile-host checks run),
 * TABLESIDE_TEST_SCRIPTED=1 for a device that acts by itself. Without TABLESIDE_TEST_PORT the test is skipped and says why.
 *
 *   TABLESIDE_TEST_PORT=/dev/ttyUSB0 TABLESIDE_TEST_TALKER=SH \
 *     npx vitest run test/integration/conformance/a-real-device-named-by-tableside-test-port-passes-the-conformance-suite.test.ts
 */
import { describe, expect, it } from 'vitest';
import { parsePublicKey } from '../../../device-protocol/auth/keys.ts';
import type { DeviceTalker } from '../../../device-protocol/frame.ts';
import { renderTable } from '../../../firmware-host/conformance/report.ts';
import { runConformance } from '../../../firmware-host/conformance/suite.ts';
import { hostSignerOf, loadKeyFile } from '../../../hardware/keys/device-key.ts';
import { openTransport } from '../../../hardware/transports/url.ts';

const port = process.env.TABLESIDE_TEST_PORT;
const talker = process.env.TABLESIDE_TEST_TALKER as DeviceTalker | undefined;
const keyText = process.env.TABLESIDE_TEST_KEY;
const hostKeyFile = process.env.TABLESIDE_TEST_HOST_KEY;

if (!port) {
  console.info(
    'conformance against a real device: skipped, TABLESIDE_TEST_PORT is not set (set it to the device line, e.g. /dev/ttyUSB0 or tcp://HOST:PORT)',
  );
}

describe.skipIf(!port)(`a real device on ${port ?? '(no TABLESIDE_TEST_PORT)'}`, () => {
  it('passes every required check of the conformance suite', async () => {
    const parsed = keyText === undefined ? undefined : parsePublicKey(keyText);
    if (parsed !== undefined && !parsed.ok) throw new Error(`TABLESIDE_TEST_KEY: ${parsed.error}`);
    const hostKey = hostKeyFile ? hostSignerOf(await loadKeyFile(hostKeyFile)) : undefined;
    const report = await runConformance({
      link: port!,
      transport: openTransport(port!),
      ...(talker ? { talker } : {}),
      ...(parsed?.ok ? { key: parsed.key } : {}),
      ...(hostKey === undefined ? {} : { hostKey }),
      scripted: process.env.TABLESIDE_TEST_SCRIPTED === '1',
      instruct: (text) => console.info(`>> ${text}`),
    });
    console.info(renderTable(report));
    expect(report.results.filter((result) => result.required && result.status !== 'pass')).toEqual(
      [],
    );
  }, 600_000);
});
