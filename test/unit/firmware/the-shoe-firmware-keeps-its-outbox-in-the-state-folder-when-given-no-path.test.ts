/**
 * Issue 34, item 11: `tableside firmware shoe` without `--outbox` wrote
 * `shoe-outbox.jsonl` into the current folder (one appeared in a checkout's
 * root). The default is now the state folder: systemd's StateDirectory
 * (`STATE_DIRECTORY`) for the service, else `.tableside/`, beside the
 * journal's default, made on the first start.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultOutboxPath, Outbox } from '../../../hardware/firmware/outbox.ts';
import { tempDir } from '../../helpers/temp.ts';

describe('the shoe firmware keeps its outbox in the state folder when given no path', () => {
  it('is the service’s state folder, else .tableside/, never the current folder', () => {
    expect(defaultOutboxPath({ STATE_DIRECTORY: '/var/lib/tableside-shoe' })).toBe(
      '/var/lib/tableside-shoe/shoe-outbox.jsonl',
    );
    // systemd lists several folders with ':' when the unit names several: the first is the service's.
    expect(defaultOutboxPath({ STATE_DIRECTORY: '/var/lib/a:/var/lib/b' })).toBe(
      '/var/lib/a/shoe-outbox.jsonl',
    );
    expect(defaultOutboxPath({})).toBe(join('.tableside', 'shoe-outbox.jsonl'));
  });

  it('makes a state folder that does not exist yet, and writes only there', () => {
    const root = tempDir('outbox-state-');
    const state = join(root, 'state', 'shoe');
    const outbox = new Outbox(defaultOutboxPath({ STATE_DIRECTORY: state }));
    try {
      outbox.queued({ type: 'CUT' });
    } finally {
      outbox.close();
    }
    expect(existsSync(join(state, 'shoe-outbox.jsonl'))).toBe(true);
    expect(readdirSync(root)).toEqual(['state']);
  });
});
