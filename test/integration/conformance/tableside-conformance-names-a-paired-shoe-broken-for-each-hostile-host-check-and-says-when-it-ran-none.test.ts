/**
 * Protocol 1.7's hostile-host checks (issue 33) against a shoe paired with
 * the table's host key but broken on purpose (broken-paired-shoe.ts, over
 * in-memory lines): each mistake fails exactly the checks it breaks, named
 * with what the shoe did; without --host-key those checks say they were not
 * run, and why. The shoe without a mistake passes them all in the keyed-shoe
 * test (a-shoe-with-a-key-proves-the-paired-key-to-tableside-conformance).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { type CheckId, PAIRED_HOST_CHECKS } from '../../../firmware-host/conformance/checks.ts';
import type { ConformanceReport } from '../../../firmware-host/conformance/report.ts';
import { runConformance } from '../../../firmware-host/conformance/suite.ts';
import { generatedSigner, hostSignerOf } from '../../../hardware/keys/device-key.ts';
import { brokenPairedShoe, type PairedShoeMistake } from './broken-paired-shoe.ts';

/** Shoes still running: a case that timed out left its shoe here for afterAll. */
const running = new Set<{ stop(): Promise<void> }>();
afterAll(async () => {
  for (const shoe of running) await shoe.stop();
});

function resultOf(report: ConformanceReport, id: CheckId) {
  const result = report.results.find((candidate) => candidate.id === id);
  if (result === undefined) throw new Error(`no result for ${id}`);
  return result;
}

// The cases share nothing (a table key, a shoe and its in-memory line each) and mostly wait on
// the checks' timeouts (a broken shoe is made to miss them): side by side, the file takes as
// long as its slowest case instead of the sum of them.
describe.concurrent('tableside conformance --host-key against a broken paired shoe', () => {
  async function runAgainstBroken(mistake: PairedShoeMistake, hostKeyGiven = true) {
    const tableKey = hostSignerOf(generatedSigner('ed25519'));
    // Without --host-key, a bench shoe: one paired with a table key it is not given is refused by its run's own CONFIRMs.
    const shoe = await brokenPairedShoe(mistake, tableKey, hostKeyGiven);
    running.add(shoe);
    try {
      return await runConformance({
        link: 'memory://conformance-host',
        transport: shoe.transport,
        talker: 'SH',
        key: shoe.key.publicKey,
        ...(hostKeyGiven ? { hostKey: tableKey } : {}),
        scripted: true,
      });
    } finally {
      running.delete(shoe);
      await shoe.stop();
    }
  }

  function failedRequired(report: ConformanceReport): CheckId[] {
    return report.results
      .filter((result) => result.required && result.status !== 'pass')
      .map((result) => result.id);
  }

  it.each([
    {
      mistake: 'takes-any-confirm' as const,
      failed: ['confirm-other-key', 'confirm-bad-signature', 'replayed-handshake'],
      detail: /^took a CONFIRM signed by another host key: (sealed|answered|ACKed)/,
    },
    {
      mistake: 'forgets-cards-on-host-loss' as const,
      failed: ['keeps-cards'],
      detail:
        /^never sent CARD \d+ \(\$SH,\d+,CARD,.*\) again after losing its host: (\d+) of \1 unACKed events dropped/,
    },
    {
      mistake: 'never-reports-host-loss' as const,
      failed: ['host-lost'],
      detail:
        /^no HELLO within 5000 ms of its first PROOF no host confirmed: it did not report host_lost/,
    },
  ])(
    'names a paired shoe that $mistake by the check it breaks',
    async ({ mistake, failed, detail }) => {
      const report = await runAgainstBroken(mistake);
      expect(failedRequired(report), JSON.stringify(report.results, null, 1)).toEqual(failed);
      expect(resultOf(report, failed[0] as CheckId).detail).toMatch(detail);
      expect(report.conforms).toBe(false);
    },
    120_000,
  );

  it('says the paired-host checks were not run, and why, when no --host-key is given', async () => {
    const report = await runAgainstBroken('none', false);
    for (const id of PAIRED_HOST_CHECKS) {
      expect(resultOf(report, id), id).toMatchObject({
        status: 'skip',
        required: false,
        detail: 'not run: no --host-key (the table host key the device was paired with) was given',
      });
    }
  }, 120_000);
});
