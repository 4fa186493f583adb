/**
 * The integrator's API page cannot drift: docs/integrator/mqtt-api.md is what
 * docs/tools/render-mqtt-api.ts renders from docs/asyncapi.yaml, and its
 * alarm table has a row for exactly the alarm kinds the code raises (found
 * at their raise sites in firmware-host/) and asyncapi.yaml lists. The
 * table's type (a Record over AlarmKind) makes typecheck fail first when the
 * code's union gains a kind.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ALARM_KINDS } from '../../../docs/tools/alarm-kinds.ts';
import {
  ASYNCAPI_PATH,
  alarmKindsOf,
  PAGE_PATH,
  renderMqttApi,
} from '../../../docs/tools/render-mqtt-api.ts';
import { REPO_ROOT } from '../../helpers/cli.ts';

const asyncapi = readFileSync(ASYNCAPI_PATH, 'utf8');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** The alarm kinds raised in firmware-host/: `alarm(…, 'kind'` calls and `kind: 'x' as const` alarm literals. */
function raisedKinds(): Set<string> {
  const kinds = new Set<string>();
  for (const file of sources(join(REPO_ROOT, 'firmware-host'))) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/\balarm\(\s*(?:[\w.]+,\s*)?'([a-z_]+)'/g))
      kinds.add(match[1]!);
    for (const match of text.matchAll(/type: 'alarm' as const,\s*kind: '([a-z_]+)' as const/g)) {
      kinds.add(match[1]!);
    }
  }
  return kinds;
}

describe('the integrator’s MQTT API page', () => {
  it('is what npm run docs:api renders from docs/asyncapi.yaml (run it after changing either)', () => {
    expect(readFileSync(PAGE_PATH, 'utf8')).toBe(renderMqttApi(asyncapi));
  });

  it('has one alarm row for each kind asyncapi.yaml lists, and no other', () => {
    const listed = alarmKindsOf(parse(asyncapi));
    expect(Object.keys(ALARM_KINDS).sort()).toEqual([...listed].sort());
    const page = readFileSync(PAGE_PATH, 'utf8');
    for (const kind of listed) expect(page).toContain(`| \`${kind}\` |`);
  });

  it('lists every alarm kind the code raises, and none it cannot raise', () => {
    const raised = raisedKinds();
    expect(raised.size).toBeGreaterThan(20);
    expect([...raised].sort()).toEqual(Object.keys(ALARM_KINDS).sort());
  });

  it('gives every alarm a meaning, a rule (an article, a ruleset field or practice:) and what the pit does', () => {
    for (const [kind, alarm] of Object.entries(ALARM_KINDS)) {
      expect(alarm.meaning, kind).not.toBe('');
      expect(alarm.pit, kind).not.toBe('');
      expect(alarm.rule, kind).toMatch(/§|^practice: \S|ruleset's `/);
    }
  });

  it('refuses to render a kind the alarm table lacks, naming it', () => {
    const { foreign_card: _dropped, ...rest } = ALARM_KINDS;
    expect(() => renderMqttApi(asyncapi, rest)).toThrow(/foreign_card/);
  });
});
