/** Exact Punto Banco analysis for an 8-deck shoe: every coup, weighted, with every bet's house edge. */
import { performance } from 'node:perf_hooks';
import {
  analyzeBaccarat,
  enumerateBaccarat,
} from '../../firmware-host/games/cards/baccarat/analysis.ts';
import { getRuleset } from '../../firmware-host/games/rulesets.ts';

export interface AnalysisFigures {
  baccarat_8_decks_ms: number;
  ruleset: string;
}

export function benchAnalysis(rulesetName = 'tdc-baccarat-no-commission'): AnalysisFigures {
  const ruleset = getRuleset(rulesetName);
  if (ruleset.game !== 'punto-banco')
    throw new Error(`${rulesetName} is not a punto-banco ruleset`);
  // Warm-up on one deck, so the 8-deck figure is the analysis, not the JIT.
  analyzeBaccarat(enumerateBaccarat(1, ruleset.tableau), ruleset);
  const started = performance.now();
  analyzeBaccarat(enumerateBaccarat(8, ruleset.tableau), ruleset);
  return {
    baccarat_8_decks_ms: Math.round((performance.now() - started) * 100) / 100,
    ruleset: rulesetName,
  };
}
