/** The Devices page's data: each device's status and firmware verdict, the broker, the journal. */
import { statfs } from 'node:fs/promises';
import { pairingPolicyOf, unpairedSetting } from '../config/schema.ts';
import { type DriverStatus, UNPAIRED_QUARANTINE } from '../drivers/driver.ts';
import type { ConsolePort } from './port.ts';

export interface Notice {
  ts: number;
  level: string;
  message: string;
}

export async function devicesReportOf(
  port: ConsolePort,
  notices: readonly Notice[],
  lastVerify: Record<string, unknown> | undefined,
): Promise<Record<string, unknown>> {
  const dir = port.journalDir;
  let free: number | null = null;
  try {
    const stats = await statfs(dir);
    free = stats.bavail * stats.bsize;
  } catch {
    free = null;
  }
  return {
    table: port.table,
    devices: port.deviceStatus().map((status) => ({
      ...status,
      firmwareVerdict: firmwareVerdict(port, status),
      pairing: pairingOf(port, status),
      notices: notices.filter((notice) => notice.message.startsWith(`${status.name}:`)).slice(-5),
    })),
    broker: { url: port.brokerAddress, connected: port.brokerConnected },
    journal: { dir, lastSeq: port.lastSeq, freeBytes: free, verify: lastVerify ?? null },
    notices: notices.slice(-10),
  };
}

/** The device's firmware against the config's allow-list, in words. */
export function firmwareVerdict(port: ConsolePort, status: DriverStatus): string {
  // Refused for its pairing, not its firmware: the pairing row says so.
  if (status.quarantined && !status.quarantined.startsWith(UNPAIRED_QUARANTINE))
    return `refused: ${status.quarantined}`;
  const allowed = port.devices[status.name]?.firmware ?? [];
  if (!status.identity) return 'not identified yet';
  if (allowed.length === 0) return 'any firmware accepted (no allow-list configured)';
  return allowed.includes(status.identity.firmwareSha256.toLowerCase())
    ? 'on the allow-list'
    : 'not on the allow-list';
}

export interface PairingReport {
  /** `quarantined`: connected, its cards refused now (whatever the reason). */
  state: 'paired' | 'unpaired' | 'quarantined';
  text: string;
}

/** Whether the device is paired, unpaired or quarantined, in words. */
export function pairingOf(port: ConsolePort, status: DriverStatus): PairingReport {
  if (status.quarantined) return { state: 'quarantined', text: status.quarantined };
  const auth = status.auth;
  if (auth.pairing === 'paired') {
    const proved =
      auth.state === 'authenticated'
        ? 'proved on this connection'
        : 'not proved on this connection';
    return { state: 'paired', text: `paired, key ${auth.pairedFingerprint}, ${proved}` };
  }
  const device = port.devices[status.name];
  const policy = device ? pairingPolicyOf(device) : 'simulated';
  const text =
    policy === 'bench'
      ? `unpaired: its cards are dealt unauthenticated on a bench (${unpairedSetting(status.name)})`
      : policy === 'refused'
        ? `unpaired: the table refuses its cards (tableside device pair ${status.name})`
        : 'unpaired: a simulated device';
  return { state: 'unpaired', text };
}
