/**
 * A setup file of the lanes whose files share their worker's modules
 * (`isolate: false`): there temp.ts is imported once per worker, so the
 * afterAll it registers belongs to the first file alone. A setup file runs
 * for every file, so this hook removes each file's folders after it.
 */
import { afterAll } from 'vitest';
import { removeTempDirs } from './temp.ts';

afterAll(removeTempDirs);
