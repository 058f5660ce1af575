/**
 * `mtg-turn-engine coverage [--json]`: how much of the statechart the model's paths cover, per
 * configuration, with the elements a configuration cannot reach and the rule that says why.
 */
import { parseArgs } from 'node:util';
import { computeCoverage, summarize, uncovered } from '../model/coverage.js';
import { coveringScenarios } from '../model/export.js';
import { configName } from '../model/model.js';
import { selectConfigs } from './generate.js';
import { markerCoverage } from '../model/markers.js';
import type { Command } from './command.js';

function percent(covered: number, total: number): string {
  return `${((100 * covered) / total).toFixed(1)}%`;
}

export const coverageCommand: Command = {
  summary: 'report the state nodes and transitions covered by the model, per configuration',
  usage: 'coverage [--config NAME[,NAME...]] [--json | --details | --unreachable]',
  options: [
    '--config <names>   configurations, comma-separated (default: all)',
    '--json             the counts as JSON',
    '--details          which generated scenario first covers each element',
    '--unreachable      what each configuration cannot reach, and why',
  ],
  async run(args) {
    const { values } = parseArgs({
      args,
      options: { json: { type: 'boolean', default: false }, details: { type: 'boolean', default: false }, unreachable: { type: 'boolean', default: false }, config: { type: 'string' } },
    });
    const results = selectConfigs(values.config).map(computeCoverage);
    const summaries = results.map(summarize);
    const complete = summaries.every((s) => s.states.covered === s.states.total && s.transitions.covered === s.transitions.total);
    if (values.json) {
      console.log(JSON.stringify(summaries, null, 2));
      return complete ? 0 : 1;
    }
    for (const [i, s] of summaries.entries()) {
      const r = results[i];
      if (r === undefined) continue;
      console.log(
        `${configName(r.config)}: states ${s.states.covered}/${s.states.total} (${percent(s.states.covered, s.states.total)}), ` +
          `transitions ${s.transitions.covered}/${s.transitions.total} (${percent(s.transitions.covered, s.transitions.total)}), ` +
          `${s.states.unreachable + s.transitions.unreachable} unreachable here, ${r.modelStates} model states, ${s.ms} ms`,
      );
      for (const line of uncovered(r)) console.log(`  not covered: ${line}`);
      console.log(`  skips taken: ${s.skips.join(', ') || 'none'}`);
      if (values.unreachable) for (const [id, why] of Object.entries(r.config.unreachable)) console.log(`  unreachable: ${id}: ${why}`);
      if (!values.details) continue;
      // Which generated scenario (as `generate` names it) first covers each element.
      for (const g of coveringScenarios(r)) for (const id of g.covers) console.log(`  ${id.padEnd(64)} ${g.file}`);
    }
    // CR 807.4: the turn markers' statechart, walked over live Grand Melee games (src/model/markers.ts).
    const markers = values.config === undefined || values.config.split(',').includes('10p-grandMelee') ? markerCoverage() : null;
    const markersComplete = markers === null || [...markers.states, ...markers.transitions].every((e) => e.covered);
    if (markers !== null && !values.json) {
      const covered = (list: { covered: boolean }[]) => `${list.filter((e) => e.covered).length}/${list.length}`;
      console.log(`grandMelee turn markers: states ${covered(markers.states)}, transitions ${covered(markers.transitions)}, ${markers.modelStates} model states, ${markers.ms} ms`);
      for (const e of [...markers.states, ...markers.transitions].filter((x) => !x.covered)) console.log(`  not covered: ${e.id}`);
    }
    console.log(`total: ${summaries.reduce((n, s) => n + s.ms, 0) + (markers?.ms ?? 0)} ms`);
    return complete && markersComplete ? 0 : 1;
  },
};
