/** What the kinds' simulations share: the card path jams and clears. */
import type { SimulationPort } from '../profile.ts';

/** The card path jams and the device clears it after `clearAfterMs`. */
export async function simulateJam(clearAfterMs: number, port: SimulationPort): Promise<void> {
  port.send({ type: 'JAM', state: 'jammed' });
  await port.sleep(clearAfterMs);
  port.send({ type: 'JAM', state: 'cleared' });
}
