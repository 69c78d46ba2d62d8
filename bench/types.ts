/** The shapes every bench section shares: what a section is, what it returns, and how the runner runs it. */

/** Options every section receives from the command line. */
export interface BenchOptions {
  /** Measured calls per cell (2000 full, 200 with --quick). */
  calls: number;
  /** Warm-up calls before each cell. */
  warmup: number;
  /** In-flight calls for the concurrent cells. */
  concurrency: number;
  /** Calls of the leak check (20 000 full, 2000 with --quick). */
  leakCalls: number;
  quick: boolean;
  /** The parts of this section to run (`--only scale:upstreams`); every part when absent or empty. */
  parts?: readonly string[];
}

/** A table for the console: a header row and rows of already formatted cells. */
export interface Table {
  title: string;
  columns: string[];
  rows: string[][];
}

/** One target a section checks; a miss is reported, never fatal. */
export interface TargetResult {
  name: string;
  pass: boolean;
  /** The measured value and the bound, in words (`+0.42 ms <= 1.0 ms`). */
  detail: string;
}

/** What a section hands back to the runner. */
export interface SectionResult {
  tables: Table[];
  targets: TargetResult[];
  /** Free lines printed after the tables (eras, leak check, caveats). */
  lines: string[];
  /** Every figure, for `--json`. */
  figures: Record<string, unknown>;
}

/** A named part of the bench; other engineers add sections (scanner throughput, sandboxed tools) to the list. */
export interface Section {
  name: string;
  /** The parts `--only SECTION:PART` may pick, when the section has several. */
  parts?: readonly string[];
  run(options: BenchOptions): Promise<SectionResult>;
}
