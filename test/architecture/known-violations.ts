/**
 * What the code breaks today, each with the work that removes it (issue 26,
 * "one table, any game": device code moves to the device's side, the web
 * console depends on a port instead of the daemon, the circles are cut).
 * The check fails on anything not listed here, and on a listed line that no
 * longer happens, so this list only shrinks.
 */
export const KNOWN_VIOLATIONS: readonly string[] = [
  // Device code on the host's side: the firmware moves to hardware/ and the deck registry's format to a shared module.
  'firmware-host/firmware/check.ts imports firmware-host/config/schema.ts',
  'firmware-host/firmware/check.ts imports firmware-host/diag/report.ts',
  'firmware-host/firmware/hosted.ts imports firmware-host/config/schema.ts',
  'firmware-host/firmware/hosted.ts imports firmware-host/drivers/deck-registry.ts',
  'firmware-host/firmware/shoe.ts imports firmware-host/drivers/deck-registry.ts',
  // The web console reaches into the daemon class: it gets a narrow port.
  'firmware-host/web/devices-report.ts imports firmware-host/daemon/table-daemon.ts',
  'firmware-host/web/requests.ts imports firmware-host/daemon/table-daemon.ts',
  'firmware-host/web/server.ts imports firmware-host/daemon/errors.ts',
  'firmware-host/web/server.ts imports firmware-host/daemon/table-daemon.ts',
  // Circles.
  'firmware-host/daemon/simulated-dealer.ts is in an import circle with firmware-host/daemon/table-daemon.ts, firmware-host/web/devices-report.ts, firmware-host/web/requests.ts, firmware-host/web/server.ts',
];

/** The key a violation is listed under: its file and the start of its message, without the line. */
export function violationKey(file: string, message: string): string {
  const brief = message.replace(/, but .*$/, '');
  return `${file} ${brief}`;
}
