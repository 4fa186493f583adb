/**
 * How many parts `tableside analyze ruleset` splits a long enumeration into
 * (games/cards/cli/analysis-threads.ts): one per idle core when built, one from source
 * (a worker would compile the TypeScript again), or what
 * TABLESIDE_ANALYSIS_THREADS asks for.
 */
import { describe, expect, it } from 'vitest';
import { analysisParts } from '../../../firmware-host/games/cards/cli/analysis-threads.ts';

describe('the long studies split over idle cores only', () => {
  it('built, one part per core left idle by the load, at least one and at most eight', () => {
    expect(analysisParts({}, false, 2, 0.1)).toBe(2);
    expect(analysisParts({}, false, 2, 0.9)).toBe(1);
    expect(analysisParts({}, false, 2, 17.5)).toBe(1);
    expect(analysisParts({}, false, 4, 1.2)).toBe(3);
    expect(analysisParts({}, false, 32, 0)).toBe(8);
  });

  it('from source, one part, whatever the cores', () => {
    expect(analysisParts({}, true, 8, 0)).toBe(1);
  });

  it('TABLESIDE_ANALYSIS_THREADS wins, from source too', () => {
    expect(analysisParts({ TABLESIDE_ANALYSIS_THREADS: '2' }, true, 2, 30)).toBe(2);
    expect(analysisParts({ TABLESIDE_ANALYSIS_THREADS: '1' }, false, 8, 0)).toBe(1);
    expect(analysisParts({ TABLESIDE_ANALYSIS_THREADS: '' }, false, 2, 0)).toBe(2);
  });

  it.each(['0', '9', '1.5', 'two'])('TABLESIDE_ANALYSIS_THREADS=%s is refused by name', (value) => {
    expect(() => analysisParts({ TABLESIDE_ANALYSIS_THREADS: value }, false, 2, 0)).toThrow(
      /TABLESIDE_ANALYSIS_THREADS must be a whole number from 1 to 8/,
    );
  });
});
