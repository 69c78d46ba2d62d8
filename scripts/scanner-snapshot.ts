/**
 * Records what the poisoning scanner says about every definition of the train and dev splits of eval/poisoning,
 * of the bench's generated corpus (bench/tool-corpus.ts) and of the definitions ten real servers publish
 * (scripts/corpus/published), alone and as redefinitions of another definition, so a speed change can be
 * checked to leave every verdict and finding byte-identical; and times scanTool in CPU time.
 *   node --import tsx scripts/scanner-snapshot.ts record <file>   writes the results (JSON lines)
 *   node --import tsx scripts/scanner-snapshot.ts compare <file>  exits 1 on the first difference
 *   node --import tsx scripts/scanner-snapshot.ts time [passes]   tools/s of CPU, first two passes discarded, over
 *     train + dev and over the bench's generated corpus (one scanner for all passes, as the bench's row; and a
 *     new scanner per pass, so no memo outlives a pass) and over the published definitions (a new scanner per pass)
 *   node --import tsx scripts/scanner-snapshot.ts time-published [passes]   the last row alone
 * No detection metric is computed or printed: only outputs are compared.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createPoisoningScanner } from '../src/poisoning/index.ts';
import { createAdversarialInputs } from '../src/poisoning/index.ts';
import type { McpToolDefinition } from '../src/risk/index.ts';
import { loadCorpus, selectSplit } from './corpus/load.ts';
import { loadPublishedTools as published } from './corpus/published-tools.ts';
import { createToolCorpus } from '../bench/tool-corpus.ts';

function trainAndDev(): { id: string; tool: McpToolDefinition; others: readonly string[] }[] {
  const corpus = loadCorpus();
  return [...selectSplit(corpus, 'train'), ...selectSplit(corpus, 'dev')].map((entry) => ({
    id: entry.id,
    tool: entry.tool,
    others: entry.coexistingTools ?? [],
  }));
}

function lines(): string[] {
  const out: string[] = [];
  const plain = createPoisoningScanner({ cache: { maxEntries: 0 } });
  for (const { id, tool, others } of trainAndDev()) {
    out.push(`${id} ${JSON.stringify(plain.scanTool(tool))}`);
    out.push(`${id} text ${JSON.stringify(plain.scanText(tool.description))}`);
    if (others.length > 0) {
      const cross = createPoisoningScanner({ otherNames: others, cache: { maxEntries: 0 } });
      out.push(`${id} cross ${JSON.stringify(cross.scanTool(tool))}`);
    }
  }
  const generated = createToolCorpus({ count: 5000, poisonedShare: 0.04, seed: 20_260_728 });
  const names = generated.map(({ tool }) => tool.name);
  const cross = createPoisoningScanner({ otherNames: names, cache: { maxEntries: 0 } });
  generated.forEach(({ tool }, i) => {
    out.push(`gen-${i} ${JSON.stringify(plain.scanTool(tool))}`);
    out.push(`gen-${i} cross ${JSON.stringify(cross.scanTool(tool))}`);
  });
  const real = published();
  const realCross = createPoisoningScanner({
    otherNames: real.map((tool) => tool.name),
    cache: { maxEntries: 0 },
  });
  real.forEach((tool, i) => {
    out.push(`pub-${i} ${JSON.stringify(plain.scanTool(tool))}`);
    out.push(`pub-${i} text ${JSON.stringify(plain.scanText(tool.description))}`);
    out.push(`pub-${i} cross ${JSON.stringify(realCross.scanTool(tool))}`);
  });
  // Redefinitions (R-POISON-REDEFINITION): each published definition after the one before it (every string
  // added), and after itself with the later half of its description cut (its opening sentences kept).
  real.forEach((tool, i) => {
    const before = real[i - 1];
    if (before !== undefined)
      out.push(`pub-${i} redefined ${JSON.stringify(plain.scanTool(tool, { previous: before }))}`);
    if (typeof tool.description === 'string') {
      const cut = { ...tool, description: tool.description.slice(0, tool.description.length >> 1) };
      out.push(`pub-${i} grown ${JSON.stringify(plain.scanTool(tool, { previous: cut }))}`);
    }
  });
  for (const { name, text } of createAdversarialInputs(65_536))
    out.push(`adv-${name} ${JSON.stringify(plain.scanTool({ name: 'adversarial', description: text }))}`);
  return out;
}

// Median and range of tools/s of CPU over `passes` passes (the first two discarded); `scannerFor` gives each
// pass its scanner (one for all: what the bench's corpus rows time; a new one per pass: first sight only).
function timePasses(
  label: string,
  tools: readonly McpToolDefinition[],
  passes: number,
  scannerFor: () => ReturnType<typeof createPoisoningScanner>,
): void {
  const rates: number[] = [];
  for (let pass = 0; pass < passes; pass += 1) {
    const scanner = scannerFor();
    const started = process.cpuUsage();
    for (const tool of tools) scanner.scanTool(tool);
    const cpu = process.cpuUsage(started);
    if (pass >= 2) rates.push(tools.length / ((cpu.user + cpu.system) / 1e6));
  }
  rates.sort((a, b) => a - b);
  const median = rates[Math.floor(rates.length / 2)] ?? Number.NaN;
  console.log(
    `${label}: ${tools.length} definitions, ${rates.length} passes: median ${median.toFixed(0)}/s of CPU ` +
      `(${(1e6 / median).toFixed(1)} us/tool), min ${rates[0]?.toFixed(0)}, max ${rates[rates.length - 1]?.toFixed(0)}`,
  );
}

function time(passes: number): void {
  const uncached = (): ReturnType<typeof createPoisoningScanner> =>
    createPoisoningScanner({ cache: { maxEntries: 0 } });
  const generated = createToolCorpus({ count: 5000, poisonedShare: 0.04, seed: 20_260_728 }).map(
    ({ tool }) => tool,
  );
  const shared = uncached();
  timePasses(
    'train + dev, one scanner',
    trainAndDev().map((entry) => entry.tool),
    passes,
    () => shared,
  );
  const bench = uncached();
  timePasses('generated, one scanner', generated, passes, () => bench);
  timePasses('generated, a new scanner per pass', generated, passes, uncached);
  timePasses('published, a new scanner per pass', published(), passes, uncached);
}

const [mode, arg] = process.argv.slice(2);
if (mode === 'record' && arg !== undefined) {
  writeFileSync(arg, `${lines().join('\n')}\n`);
} else if (mode === 'compare' && arg !== undefined) {
  const expected = readFileSync(arg, 'utf8').split('\n').slice(0, -1);
  const actual = lines();
  let differences = 0;
  for (let i = 0; i < Math.max(expected.length, actual.length); i += 1)
    if (expected[i] !== actual[i]) {
      differences += 1;
      if (differences <= 5) console.log(`- ${expected[i] ?? ''}\n+ ${actual[i] ?? ''}`);
    }
  console.log(`${actual.length} results compared, ${differences} different`);
  process.exitCode = differences === 0 ? 0 : 1;
} else if (mode === 'time') {
  time(Number(arg ?? 30));
} else if (mode === 'time-published') {
  timePasses('published, a new scanner per pass', published(), Number(arg ?? 30), () =>
    createPoisoningScanner({ cache: { maxEntries: 0 } }),
  );
} else {
  console.error('usage: scanner-snapshot.ts record|compare <file> | time|time-published [passes]');
  process.exitCode = 2;
}
