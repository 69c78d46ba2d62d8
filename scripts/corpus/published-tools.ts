// The tool definitions ten real servers publish, as kept in scripts/corpus/published/*.json (before any
// rewording): what the bench's real-server row, the scanner snapshot and the scanner's tests read.
import { readdirSync, readFileSync } from 'node:fs';
import type { McpToolDefinition } from '../../src/risk/index.ts';

/** Every published definition, file by file in name order, each file's tools in their order. */
export function loadPublishedTools(): McpToolDefinition[] {
  const dir = new URL('./published/', import.meta.url);
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .flatMap((file) => {
      const { tools } = JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as {
        tools: { tool: McpToolDefinition }[];
      };
      return tools.map(({ tool }) => tool);
    });
}
