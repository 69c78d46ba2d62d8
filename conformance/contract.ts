/**
 * The names the conformance suite (`@modelcontextprotocol/conformance` 0.2.x, server scenarios) expects the
 * server under test to publish: its test tools, prompts, resources and resource template. The fixture
 * implements exactly these; the runner aliases the tools so they cross the gateway unchanged.
 */

/** The suite's test tools, by the name its scenarios call. */
export const CONFORMANCE_TOOLS = [
  'test_simple_text',
  'test_image_content',
  'test_audio_content',
  'test_embedded_resource',
  'test_multiple_content_types',
  'test_tool_with_logging',
  'test_error_handling',
  'test_tool_with_progress',
  'test_sampling',
  'test_elicitation',
  'test_elicitation_sep1034_defaults',
  'test_elicitation_sep1330_enums',
  'test_reconnection',
  'json_schema_2020_12_tool',
  // 2026-07-28: multi-round-trip (SEP-2322), stateless diagnostics (SEP-2575), custom headers (SEP-2243).
  'test_input_required_result_elicitation',
  'test_input_required_result_sampling',
  'test_input_required_result_list_roots',
  'test_input_required_result_request_state',
  'test_input_required_result_multiple_inputs',
  'test_input_required_result_multi_round',
  'test_input_required_result_tampered_state',
  'test_input_required_result_capabilities',
  'test_missing_capability',
  'test_streaming_elicitation',
  'test_trigger_tool_change',
  'test_trigger_prompt_change',
  'test_logging_tool',
  'test_custom_header',
] as const;

/** One of the suite's test tool names. */
export type ConformanceToolName = (typeof CONFORMANCE_TOOLS)[number];

/** The suite's test prompts. */
export const CONFORMANCE_PROMPTS = [
  'test_simple_prompt',
  'test_prompt_with_arguments',
  'test_prompt_with_embedded_resource',
  'test_prompt_with_image',
  'test_input_required_result_prompt',
] as const;

/** The suite's fixed resource URIs. */
export const CONFORMANCE_RESOURCES = {
  staticText: 'test://static-text',
  staticBinary: 'test://static-binary',
  watched: 'test://watched-resource',
} as const;

/** The suite's resource template. */
export const CONFORMANCE_TEMPLATE = 'test://template/{id}/data';

/** The upstream id the fixture is configured under in the gateway. */
export const FIXTURE_UPSTREAM_ID = 'conf';
