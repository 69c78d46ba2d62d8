import { describe, expect, it } from 'vitest';
import {
  baseActionScore,
  findToolDocGaps,
  isBoilerplateDescription,
  propertyDescriptionCoverage,
  scoreToolPublishRisk,
} from './tool-risk.ts';
import type { ToolPublishRiskInput } from './tool-risk.ts';

const SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string', description: 'City name' } },
  required: ['city'],
};

// A well-documented read-only idempotent tool: base action 0, no doc gaps.
const BASE: ToolPublishRiskInput = {
  name: 'forecast',
  description: 'Weather forecast for the next five days in a city.',
  inputSchema: SCHEMA,
  annotations: { readOnlyHint: true },
  sideEffectScope: 'LOCAL_ONLY',
  sendsUserData: false,
  trustedServer: false,
};

function input(patch: Partial<ToolPublishRiskInput>): ToolPublishRiskInput {
  return { ...BASE, ...patch };
}

describe('tool base-action axis (R-TOOL-1)', () => {
  it.each<[string, Partial<ToolPublishRiskInput>, number]>([
    ['read-only', {}, 0],
    ['readOnlyHint absent', { annotations: {} }, 1],
    ['readOnlyHint false', { annotations: { readOnlyHint: false } }, 1],
    ['destructive', { annotations: { readOnlyHint: true, destructiveHint: true } }, 2],
    ['open world', { annotations: { readOnlyHint: true, openWorldHint: true } }, 1],
    ['idempotent cancels a +1', { annotations: { readOnlyHint: false, idempotentHint: true } }, 0],
    ['idempotent alone floors at 0', { annotations: { readOnlyHint: true, idempotentHint: true } }, 0],
    ['scope UNKNOWN', { sideEffectScope: 'UNKNOWN' }, 0],
    ['scope REMOTE_WRITE', { sideEffectScope: 'REMOTE_WRITE_SCOPE' }, 1],
    ['scope REMOTE_ADMIN', { sideEffectScope: 'REMOTE_ADMIN_SCOPE' }, 2],
    ['sends user data', { sendsUserData: true }, 1],
    [
      'everything',
      {
        annotations: {
          readOnlyHint: false,
          destructiveHint: true,
          openWorldHint: true,
          idempotentHint: false,
        },
        sideEffectScope: 'REMOTE_ADMIN_SCOPE',
        sendsUserData: true,
      },
      7,
    ],
    ['null annotations', { annotations: null }, 1],
    ['non-boolean hint ignored', { annotations: { readOnlyHint: 'true' as unknown as boolean } }, 1],
  ])('%s → %i', (_name, patch, points) => {
    expect(baseActionScore(input(patch))).toBe(points);
  });
});

describe('isBoilerplateDescription', () => {
  it.each([
    ['Returns the current weather for a city; get weather data.', 'get_weather', true],
    ['Gets list items from the configured list store.', 'list_items', true],
    ['  returns the item named item in the store', 'item', true],
    ['Performs a full-text search over the indexed documents.', '', true],
    ['DOES the thing called Thing', 'thing', true],
    ['Returns the weather forecast for a given city name.', 'get_weather', false],
    ['Returned values are cached; see the item docs.', 'item', false],
    ['Getter for the item store', 'item', false],
    ['Lists items: list items of the store.', 'list_items', false],
  ])('%j with name %j → %s', (description, name, expected) => {
    expect(isBoilerplateDescription(description, name)).toBe(expected);
  });
});

describe('propertyDescriptionCoverage', () => {
  it.each<[string, unknown, number]>([
    ['no schema', undefined, 1],
    ['no properties object', { type: 'object' }, 1],
    ['zero properties', { type: 'object', properties: {} }, 1],
    ['all described', SCHEMA, 1],
    ['half', { properties: { a: { description: 'A' }, b: {} } }, 0.5],
    [
      'blank counts as missing',
      { properties: { a: { description: '  ' }, b: { description: 'B' }, c: {} } },
      1 / 3,
    ],
    ['non-object property', { properties: { a: true, b: { description: 'B' } } }, 0.5],
  ])('%s → %f', (_name, schema, coverage) => {
    expect(propertyDescriptionCoverage(schema)).toBeCloseTo(coverage);
  });
});

describe('tool doc-penalty axis (R-TOOL-3)', () => {
  it.each<[string, Partial<ToolPublishRiskInput>, string[], number]>([
    ['complete', {}, [], 0],
    ['description missing', { description: undefined }, ['description_missing'], 2],
    ['description blank', { description: ' \n ' }, ['description_missing'], 2],
    ['description short', { description: 'Weather for a city.' }, ['description_short_or_boilerplate'], 1],
    ['description exactly 30 chars is not short', { description: 'x'.repeat(30) }, [], 0],
    ['29 chars is short', { description: 'x'.repeat(29) }, ['description_short_or_boilerplate'], 1],
    [
      'boilerplate',
      { name: 'get_forecast', description: 'Gets the forecast: get forecast for one city.' },
      ['description_short_or_boilerplate'],
      1,
    ],
    ['schema missing', { inputSchema: undefined }, ['input_schema_missing'], 2],
    ['schema null', { inputSchema: null }, ['input_schema_missing'], 2],
    [
      'sparse properties',
      { inputSchema: { properties: { a: {}, b: {}, c: { description: 'C' } } } },
      ['property_descriptions_sparse'],
      1,
    ],
    ['annotations missing', { annotations: undefined }, ['annotations_missing'], 1],
    ['only a title is still missing', { annotations: { title: 'Forecast' } }, ['annotations_missing'], 1],
    [
      'checklist items',
      {
        checklist: {
          sideEffectTypeSpecified: false,
          externalDataFlowSpecified: true,
          reversibilitySpecified: false,
        },
      },
      ['side_effect_type_unspecified', 'reversibility_unspecified'],
      2,
    ],
    [
      'capped at 3',
      { description: undefined, inputSchema: undefined, annotations: { readOnlyHint: true } },
      ['description_missing', 'input_schema_missing'],
      3,
    ],
  ])('%s → %j, %i points', (_name, patch, gaps, points) => {
    expect(findToolDocGaps(input(patch))).toEqual(gaps);
    expect(scoreToolPublishRisk(input(patch)).axisScores.docPenalty).toBe(points);
  });

  it('zeroes the doc axis for a trusted server but still lists the gaps', () => {
    const result = scoreToolPublishRisk(
      input({ description: 'short', inputSchema: undefined, trustedServer: true }),
    );
    expect(result.axisScores.docPenalty).toBe(0);
    expect(result.docWaived).toBe(true);
    expect(result.docGaps).toEqual(['description_short_or_boilerplate', 'input_schema_missing']);
  });
});

describe('tool floors (R-TOOL-5, first hit wins)', () => {
  it.each<[string, Partial<ToolPublishRiskInput>, string | null, string]>([
    ['irreversible verb', { name: 'delete_forecast' }, 'irreversible_verb_in_tool_name', 'L5'],
    ['camelCase irreversible verb', { name: 'deleteRepository' }, 'irreversible_verb_in_tool_name', 'L5'],
    ['near miss: undelete', { name: 'undelete_item' }, null, 'L1'],
    [
      'destructive, idempotent absent',
      { annotations: { readOnlyHint: false, destructiveHint: true } },
      'destructive_and_non_idempotent',
      'L5',
    ],
    [
      'destructive, idempotent false',
      { annotations: { destructiveHint: true, idempotentHint: false } },
      'destructive_and_non_idempotent',
      'L5',
    ],
    [
      'near miss: destructive and idempotent',
      { annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true } },
      null,
      'L3',
    ],
    [
      'verb checked before destructive',
      { name: 'drop_all', annotations: { destructiveHint: true } },
      'irreversible_verb_in_tool_name',
      'L5',
    ],
    [
      'no description and no hints',
      { description: '', annotations: { title: 'x' } },
      'description_missing_and_annotations_missing',
      'L4',
    ],
    // The floor sets L4 even though base 1 + doc 3 would bucket to L5.
    [
      'L4 floor below a L5 sum',
      { description: undefined, inputSchema: undefined, annotations: undefined },
      'description_missing_and_annotations_missing',
      'L4',
    ],
    [
      'near miss: no description but a hint',
      { description: '', annotations: { readOnlyHint: true } },
      null,
      'L3',
    ],
    ['near miss: description but no hints', { annotations: undefined }, null, 'L3'],
  ])('%s → %s %s', (_name, patch, trigger, level) => {
    const result = scoreToolPublishRisk(input(patch));
    expect(result.floorTrigger).toBe(trigger);
    expect(result.level).toBe(level);
  });

  it('reports sum and axes beside a floor', () => {
    const result = scoreToolPublishRisk(
      input({ description: undefined, inputSchema: undefined, annotations: undefined }),
    );
    expect(result).toMatchObject({ totalScore: 4, axisScores: { baseAction: 1, docPenalty: 3 } });
  });
});

describe('tool bucketing without a floor', () => {
  it.each<[Partial<ToolPublishRiskInput>, number, string]>([
    [{}, 0, 'L1'],
    [{ sendsUserData: true }, 1, 'L2'],
    [
      { annotations: { readOnlyHint: true, openWorldHint: true }, sideEffectScope: 'REMOTE_WRITE_SCOPE' },
      2,
      'L3',
    ],
    [{ annotations: { readOnlyHint: false }, sideEffectScope: 'REMOTE_ADMIN_SCOPE' }, 3, 'L4'],
    [
      { annotations: { readOnlyHint: false, openWorldHint: true }, sideEffectScope: 'REMOTE_ADMIN_SCOPE' },
      4,
      'L5',
    ],
  ])('%j → %i → %s', (patch, total, level) => {
    const result = scoreToolPublishRisk(input(patch));
    expect(result.totalScore).toBe(total);
    expect(result.level).toBe(level);
    expect(result.floorTrigger).toBeNull();
  });
});
