// The conformance suite's fixtures that ask the MCP client for input (askClient) or announce list changes.
import { get, operation, prefix, procedure } from 'vovk';
import ConformanceInputService from './conformance-input-service';
import ConformanceService, { textResponse } from './conformance-service';

/** The `@operation` of a fixture: the tool name the suite calls, and what it does. */
const fixture = (name: string, summary: string, description: string) =>
  operation({ summary, description, 'x-tool': { name } });

@prefix('conformance/input')
export default class ConformanceInputController {
  @fixture(
    'test_input_required_result_elicitation',
    'Elicitation round trip',
    'Asks the user for their name, then greets them.',
  )
  @get('elicitation')
  static elicitation = procedure().handle(() => textResponse(ConformanceInputService.greet()));

  @fixture(
    'test_input_required_result_sampling',
    'Sampling round trip',
    "Asks the client's model for the capital of France.",
  )
  @get('sampling')
  static sampling = procedure().handle(() => textResponse(ConformanceInputService.askCapital()));

  @fixture('test_input_required_result_list_roots', 'Roots round trip', 'Asks the client for its roots and names them.')
  @get('list-roots')
  static listRoots = procedure().handle(() => textResponse(ConformanceInputService.listRoots()));

  @fixture(
    'test_input_required_result_request_state',
    'Request state round trip',
    'Asks for a confirmation; says "state-ok" when the answer came back with the signed requestState.',
  )
  @get('request-state')
  static requestState = procedure().handle(() => textResponse(ConformanceInputService.confirmWithState()));

  @fixture(
    'test_input_required_result_tampered_state',
    'Tampered state',
    'Asks for a confirmation; a retry whose requestState was altered is refused (JSON-RPC -32602).',
  )
  @get('tampered-state')
  static tamperedState = procedure().handle(() => textResponse(ConformanceInputService.confirmWithState()));

  @fixture(
    'test_input_required_result_multiple_inputs',
    'Several requests in one round',
    "Asks for the user's name, a greeting from the client's model and the client's roots at once.",
  )
  @get('multiple-inputs')
  static multipleInputs = procedure().handle(() => textResponse(ConformanceInputService.askEverything()));

  @fixture(
    'test_input_required_result_multi_round',
    'Two rounds',
    "Asks for the user's name, then for their favorite color.",
  )
  @get('multi-round')
  static multiRound = procedure().handle(() => textResponse(ConformanceInputService.askTwoSteps()));

  @fixture(
    'test_input_required_result_capabilities',
    'Only what the client can answer',
    'Asks only for what the client declared (elicitation, sampling, roots).',
  )
  @get('capabilities')
  static capabilities = procedure().handle(() => textResponse(ConformanceInputService.askWhatTheClientCan()));

  @fixture(
    'test_missing_capability',
    'Needs sampling',
    "Asks the client's model whatever the client declared: without sampling the call is refused (-32021).",
  )
  @get('missing-capability')
  static missingCapability = procedure().handle(() => textResponse(ConformanceInputService.sampleRegardless()));

  @fixture(
    'test_streaming_elicitation',
    'Elicitation on the response stream',
    'Asks the user for their name: the answer of the call carries the request, never a request of its own.',
  )
  @get('streaming-elicitation')
  static streamingElicitation = procedure().handle(() => textResponse(ConformanceInputService.greet()));

  @fixture(
    'test_logging_tool',
    'Logs when asked to',
    'Sends three log messages, which reach the client only when its request set a log level.',
  )
  @get('logging')
  static logging = procedure().handle(async () => {
    await ConformanceService.logThreeSteps();
    return textResponse('Logging tool finished');
  });

  @fixture(
    'test_trigger_tool_change',
    'Announce a tool list change',
    'Tells open subscriptions/listen streams that the tool list changed.',
  )
  @get('tool-change')
  static toolChange = procedure().handle(() => textResponse(ConformanceInputService.announceChange('tools')));

  @fixture(
    'test_trigger_prompt_change',
    'Announce a prompt list change',
    'Tells open subscriptions/listen streams that the prompt list changed.',
  )
  @get('prompt-change')
  static promptChange = procedure().handle(() => textResponse(ConformanceInputService.announceChange('prompts')));

  @fixture(
    'test_elicitation_sep1034_defaults',
    'Elicitation with defaults',
    'Asks the user to check details whose fields all have defaults (SEP-1034).',
  )
  @get('elicitation-defaults')
  static elicitationDefaults = procedure().handle(() => textResponse(ConformanceInputService.askWithDefaults()));

  @fixture(
    'test_elicitation_sep1330_enums',
    'Elicitation with enums',
    'Asks the user to pick from the five kinds of enum (SEP-1330).',
  )
  @get('elicitation-enums')
  static elicitationEnums = procedure().handle(() => textResponse(ConformanceInputService.askWithEnums()));
}
