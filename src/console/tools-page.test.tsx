/** The tools page offers the studio only for specs it can edit: a `tools.dir` tool, to a person who may act. */
import { describe, expect, it } from 'vitest';
import type { ToolView } from './admin-types.ts';
import type { Viewer } from './pages/layout.tsx';
import { ToolsPage } from './pages/tools.tsx';
import { toolView } from './test/tool-view.ts';

const OPERATOR: Viewer = { actor: 'admin:ops', role: 'operator', canAct: true, csrf: 'c' };
const VIEWER: Viewer = { actor: 'admin:ro', role: 'viewer', canAct: false, csrf: 'c' };

const local = (alias: string, localSource: ToolView['localSource']): ToolView =>
  toolView(alias, {
    origin: 'local',
    upstream: null,
    upstreamTool: null,
    localToolId: alias.replace(/_/g, '-'),
    localSource,
    fingerprint: null,
  });

const render = (viewer: Viewer, tools: ToolView[]) =>
  String(
    <ToolsPage
      viewer={viewer}
      tools={tools}
      total={tools.length}
      servers={[]}
      filters={{ q: '', upstream: '', level: '', status: '' }}
      back="/console/tools"
    />,
  );

describe('the studio link on the tools page', () => {
  it.each<[string, Viewer, ToolView['localSource'], boolean]>([
    ['a tools.dir tool, operator', OPERATOR, 'user', true],
    ['a bundled tool, operator', OPERATOR, 'bundled', false],
    ['a tools.dir tool, viewer', VIEWER, 'user', false],
  ])('%s: the link shown is %s', (_name, viewer, source, shown) => {
    const html = render(viewer, [local('my_tool', source)]);
    expect(html.includes('/console/studio?from=my-tool')).toBe(shown);
  });
});
