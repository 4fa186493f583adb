/**
 * `tableside diag`'s trust rows: whose requests the table obeys, whether
 * its journal heads are signed (and the key file is fit to use), and who
 * may use the embedded broker. Keys are named by fingerprint only.
 */
import type { TablesideConfig } from '../config/schema.ts';
import type { CheckOutcome } from './report.ts';

export async function checkTrust(config: TablesideConfig): Promise<CheckOutcome[]> {
  const { fingerprint, parsePublicKey } = await import('../trust/keys.ts');
  const { loadTableKey } = await import('../daemon/trust-setup.ts');
  const rows: CheckOutcome[] = [];
  const supervisors = Object.entries(config.requests.supervisors);
  rows.push(
    supervisors.length > 0
      ? {
          name: 'trust: requests',
          status: 'pass',
          detail: `signed only, by ${supervisors.length} supervisor key(s): ${supervisors
            .map(([name, key]) => `${name} ${fingerprint(parsePublicKey(key))}`)
            .join(', ')}; skew ≤ ${config.requests.maxSkewSeconds} s`,
          data: { supervisors: supervisors.map(([name]) => name) },
        }
      : {
          name: 'trust: requests',
          status: 'warn',
          detail: 'no supervisors: MQTT requests are taken unsigned (a bench)',
          advice:
            'on a live table, add requests.supervisors (`tableside key generate --out NAME.pem` prints the public key)',
        },
  );
  if (config.journal.signingKey === undefined) {
    rows.push({
      name: 'trust: journal key',
      status: 'warn',
      detail: 'journal.signingKey not set: the journal heads are not signed',
      advice:
        'make a table key outside the journal folder (`tableside key generate --out /etc/tableside/table.pem`) and set journal.signingKey',
    });
  } else {
    try {
      const key = await loadTableKey(config);
      rows.push({
        name: 'trust: journal key',
        status: 'pass',
        detail: `heads signed with key ${fingerprint(key!)} ${config.journal.sealIntervalSeconds} s after records at most`,
      });
    } catch (error) {
      rows.push({
        name: 'trust: journal key',
        status: 'fail',
        detail: (error as Error).message,
        advice: 'the daemon will not start until the key file is fixed',
      });
    }
  }
  const users = Object.entries(config.mqtt.users);
  if (config.mqtt.url !== 'embedded') {
    rows.push({
      name: 'trust: broker accounts',
      status: 'pass',
      detail:
        "the casino's broker decides (hardware/deploy/mosquitto/tableside.acl is the reference)",
    });
  } else if (users.length === 0) {
    rows.push({
      name: 'trust: broker accounts',
      status: 'warn',
      detail: 'embedded broker with no users: anyone on this machine may connect and send requests',
      advice: 'add mqtt.users (`tableside key password` makes a hash) on anything but a bench',
    });
  } else {
    const count = (role: string) => users.filter(([, user]) => user.role === role).length;
    rows.push({
      name: 'trust: broker accounts',
      status: 'pass',
      detail: `embedded broker: ${count('consumer')} consumer(s), ${count('supervisor')} supervisor(s); anonymous refused; only the daemon publishes the table's topics`,
    });
  }
  return rows;
}
