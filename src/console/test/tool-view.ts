/** Test data for console pages: a `GET /admin/api/tools` entry with ordinary values, overridable field by field. */
import type { ToolView } from '../admin-types.ts';

/** An exposed upstream tool of `every` at L1, ACTIVE in the ledger, with no findings; `over` replaces fields. */
export function toolView(alias: string, over: Partial<ToolView> = {}): ToolView {
  return {
    alias,
    origin: 'upstream',
    upstream: 'every',
    upstreamTool: alias,
    localToolId: null,
    localSource: null,
    exposed: true,
    withheldReason: null,
    withheldDetail: null,
    title: null,
    description: null,
    annotations: null,
    hitl: 'DISABLED',
    risk: {
      server: 'L1',
      publish: 'L1',
      final: 'L1',
      effective: 'L1',
      floorTrigger: null,
      hitlMitigated: false,
    },
    axes: { server: null, publish: null },
    poisoning: null,
    fingerprint: { hash: 'h', profile: 'p', status: 'ACTIVE' },
    findings: [],
    ...over,
  };
}
