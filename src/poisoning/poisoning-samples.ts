// Adversarial inputs for the scanner's linear-time tests and throughput benchmarks (pure data builders).

/** A named input text. */
export interface ScanSample {
  readonly name: string;
  readonly text: string;
}

function repeatTo(unit: string, size: number): string {
  return unit.repeat(Math.max(1, Math.ceil(size / unit.length))).slice(0, size);
}

/**
 * Inputs of about `size` UTF-16 units that stress backtracking: repeated partial matches of each pattern,
 * long runs of `<`, whitespace, `ESC [` digits, and near-miss words. A few also contain real matches
 * (`dot-ssh-path`, `mixed-letters`); the tests state what each one must yield.
 */
export function createAdversarialInputs(size: number): ScanSample[] {
  return [
    { name: 'ignore-repeated', text: repeatTo('ignore ', size) },
    { name: 'ignore-all-repeated', text: repeatTo('ignore all ', size) },
    { name: 'you-are-now-repeated', text: repeatTo('you are now ', size) },
    { name: 'angle-run', text: repeatTo('<', size) },
    { name: 'angle-space-run', text: `<${repeatTo(' ', size - 1)}` },
    { name: 'angle-slash-space-run', text: repeatTo('< /  ', size) },
    { name: 'whitespace-run', text: repeatTo(' \t\n\x0B\f\r', size) },
    { name: 'escape-digits', text: `\x1b[${repeatTo('0;', size - 2)}` },
    { name: 'escape-bracket-repeated', text: repeatTo('\x1b[1', size) },
    { name: 'send-to-local-part', text: `send to ${repeatTo('a', size - 8)}` },
    { name: 'send-to-repeated', text: repeatTo('send to ', size) },
    { name: 'important-tag-open', text: repeatTo('<important ', size) },
    { name: 'do-not-repeated', text: repeatTo('do not ', size) },
    { name: 'dot-ssh-path', text: `.ssh${repeatTo('/a', size - 4)}` },
    { name: 'use-verb-repeated', text: repeatTo('use ', size) },
    { name: 'mixed-letters', text: repeatTo('aа', size) },
  ];
}
