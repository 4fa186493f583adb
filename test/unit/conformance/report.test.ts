import { describe, expect, it } from 'vitest';
import { resultOf } from '../../../firmware-host/conformance/checks.ts';
import {
  exitCodeOf,
  renderJson,
  renderTable,
  summarize,
} from '../../../firmware-host/conformance/report.ts';

const device = { talker: 'SH', model: 'TS-X', serial: 'X1', protocol: '1.2', firmware: '1.0' };

describe('the conformance verdict', () => {
  it('conforms, exit 0, when every required check passes, whatever the optional ones did', () => {
    const report = summarize('/dev/ttyUSB0', device, [
      resultOf('hello', 'pass', 'SH TS-X'),
      resultOf('nak-malformed', 'fail', 'no NAK'),
      resultOf('commands', 'skip', 'no commands', { required: false }),
    ]);
    expect(report.conforms).toBe(true);
    expect(exitCodeOf(report)).toBe(0);
    expect(report.verdict).toBe(
      'CONFORMS: all 1 required checks passed; optional failed: nak-malformed',
    );
  });

  it('does not conform, exit 1, when a required check failed or could not run', () => {
    const report = summarize('tcp://h:1', {}, [
      resultOf('hello', 'fail', 'no HELLO within 10000 ms; the device sent nothing'),
      resultOf('ping', 'skip', 'not run: no valid HELLO from the device'),
    ]);
    expect(report.conforms).toBe(false);
    expect(exitCodeOf(report)).toBe(1);
    expect(report.verdict).toBe(
      'DOES NOT CONFORM: 2 of 2 required checks did not pass: hello, ping',
    );
    const table = renderTable(report);
    expect(table).toContain('tableside conformance: tcp://h:1: no HELLO from the device');
    expect(table).toMatch(
      /^FAIL {2}hello {2}required {2}§ 4\.1, § 7\.1\s+no HELLO within 10000 ms; the device sent nothing$/m,
    );
    expect(table).toMatch(
      /^SKIP {2}ping {3}required {2}§ 3\.10, § 3\.1\s+not run: no valid HELLO/m,
    );
    expect(JSON.parse(renderJson(report))).toMatchObject({ conforms: false, link: 'tcp://h:1' });
  });

  it('never conforms on an empty run', () => {
    expect(summarize('x', {}, []).conforms).toBe(false);
  });
});
