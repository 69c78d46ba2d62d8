/** Tool names of bench/many-tools-server.mjs, for the scale section's calls and checks. */

/** The name of the `index`th generated tool. */
export function generatedToolName(index: number): string {
  return `tool_${String(index).padStart(3, '0')}`;
}
