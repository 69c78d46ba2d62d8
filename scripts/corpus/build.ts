/**
 * Writes the poisoning corpus (eval/poisoning/README.md): poisoned.json, honest.json and split.json from the
 * tables of scripts/corpus, with invisible characters escaped and the files formatted as the repository does.
 * Run: node --import tsx scripts/corpus/build.ts. Deterministic: the same tables give byte-identical files,
 * and an existing split.json is kept (only new ids are dealt).
 */
import { existsSync, writeFileSync } from 'node:fs';
import * as prettier from 'prettier';
import { assembleCorpus } from './assemble.ts';
import { escapeInvisible } from './escape.ts';
import { CORPUS_DIR, loadSplit, SPLIT_SEED } from './load.ts';

async function writeJson(file: string, value: unknown): Promise<void> {
  const text = escapeInvisible(JSON.stringify(value, null, 2));
  const options = (await prettier.resolveConfig(file)) ?? {};
  writeFileSync(file, await prettier.format(text, { ...options, parser: 'json', filepath: file }));
}

async function main(): Promise<void> {
  const previous = existsSync(new URL('split.json', CORPUS_DIR)) ? loadSplit().splits : undefined;
  const { poisoned, honest, splits } = assembleCorpus(previous);
  await writeJson(new URL('poisoned.json', CORPUS_DIR).pathname, { entries: poisoned });
  await writeJson(new URL('honest.json', CORPUS_DIR).pathname, { entries: honest });
  await writeJson(new URL('split.json', CORPUS_DIR).pathname, {
    seed: SPLIT_SEED,
    rule: 'stratified by label and technique (honest: hard or plain, and kind); 60/20/20; never tune on test',
    ...splits,
  });
  const hard = honest.filter((entry) => entry.hardNegative === true).length;
  console.log(
    `poisoned ${poisoned.length}, honest ${honest.length} (hard ${hard}); train ${splits.train.length}, dev ${splits.dev.length}, test ${splits.test.length}`,
  );
}

await main();
