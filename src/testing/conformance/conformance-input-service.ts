// What the conformance suite's input fixtures ask the MCP client (through askClient) and make of its answers.
import type { ElicitInputParams, InputRequest } from '@modelcontextprotocol/server';
import { announceListChanged, askClient, type ChangingList, type ClientAnswer, clientCan, currentToolCall, inputRequest } from 'vovk-mcp-gateway';

type FormSchema = Extract<ElicitInputParams['requestedSchema'], { type: 'object' }>;
type FormFields = FormSchema['properties'];

/** An elicitation form whose every field is required. */
function form(properties: FormFields): FormSchema {
  return { type: 'object', properties, required: Object.keys(properties) };
}

const askName = (message: string) =>
  inputRequest.elicit({ message, requestedSchema: form({ name: { type: 'string' } }) });
const askConfirmation = () =>
  inputRequest.elicit({ message: 'Please confirm', requestedSchema: form({ ok: { type: 'boolean' } }) });
const askModel = (text: string, maxTokens: number) =>
  inputRequest.createMessage({ messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens });

/** What the client answered, in words: the form's action and content, the sampled text, or the roots. */
function described(answer: ClientAnswer): string {
  switch (answer.kind) {
    case 'elicit':
      return `action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
    case 'sampling':
      return [answer.result.content]
        .flat()
        .map((block) => (block.type === 'text' ? block.text : `[${block.type}]`))
        .join('');
    case 'roots':
      return answer.roots.map(({ uri, name }) => (name ? `${uri} (${name})` : uri)).join(', ') || 'no roots';
  }
}

/** The text field `field` of an accepted form, or undefined when the user did not accept or left it out. */
function acceptedText(answer: ClientAnswer, field: string): string | undefined {
  const value = answer.kind === 'elicit' && answer.action === 'accept' ? answer.content?.[field] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** Whether this call came back with a requestState the gateway verified (signed by it, for this very call). */
const resumedWithState = () => currentToolCall()?.mcp.mcpReq.requestState() !== undefined;

export default class ConformanceInputService {
  /** One form: the user's name. */
  static greet(): string {
    const { user_name } = askClient({ user_name: askName('What is your name?') });
    return `Hello, ${acceptedText(user_name, 'name') ?? 'whoever you are'}! (${described(user_name)})`;
  }

  /** One sampling request. */
  static askCapital(): string {
    const { capital_question } = askClient({ capital_question: askModel('What is the capital of France?', 100) });
    return `The client's model answered: ${described(capital_question)}`;
  }

  /** One roots/list request. */
  static listRoots(): string {
    const { client_roots } = askClient({ client_roots: inputRequest.listRoots() });
    return `The client's roots: ${described(client_roots)}`;
  }

  /** One confirmation; says "state-ok" when the answer came back with the requestState the gateway signed. */
  static confirmWithState(): string {
    const { confirm } = askClient({ confirm: askConfirmation() });
    const state = resumedWithState() ? 'state-ok' : 'no requestState came back';
    return `${state}: ${described(confirm)}`;
  }

  /** A form, a sampling request and roots/list in one round. */
  static askEverything(): string {
    const { user_name, greeting, client_roots } = askClient({
      user_name: askName('What is your name?'),
      greeting: askModel('Generate a greeting', 50),
      client_roots: inputRequest.listRoots(),
    });
    return `Name: ${described(user_name)}; greeting: ${described(greeting)}; roots: ${described(client_roots)}`;
  }

  /** Two rounds: the second question is asked once the first is answered (the state carries the first answer). */
  static askTwoSteps(): string {
    const { step1 } = askClient({ step1: askName('Step 1: What is your name?') });
    const { step2 } = askClient({
      step2: inputRequest.elicit({
        message: 'Step 2: What is your favorite color?',
        requestedSchema: form({ color: { type: 'string' } }),
      }),
    });
    const name = acceptedText(step1, 'name') ?? 'Someone';
    return `${name} likes ${acceptedText(step2, 'color') ?? 'no color in particular'}`;
  }

  /** Asks only what the client declared it can answer; nothing at all when it declared none of the three. */
  static askWhatTheClientCan(): string {
    const requests: Record<string, InputRequest> = {};
    if (clientCan('elicitation')) requests.user_name = askName('What is your name?');
    if (clientCan('sampling')) requests.greeting = askModel('Generate a greeting', 50);
    if (clientCan('roots')) requests.client_roots = inputRequest.listRoots();
    if (!Object.keys(requests).length) return 'The client declared none of elicitation, sampling, roots: nothing asked';
    const answers = askClient(requests);
    return Object.entries(answers)
      .map(([key, answer]) => `${key}: ${described(answer)}`)
      .join('; ');
  }

  /** A sampling request whatever the client declared: one that did not declare sampling gets -32021 from the SDK. */
  static sampleRegardless(): string {
    const { sample } = askClient({ sample: askModel('Say hello', 20) });
    return `Sampled: ${described(sample)}`;
  }

  /** The 2025 sampling fixture: the prompt to the client's model, its answer back. */
  static sample(prompt: string): string {
    const { reply } = askClient({ reply: askModel(prompt, 100) });
    return `LLM response: ${described(reply)}`;
  }

  /** The 2025 elicitation fixture: a username and e-mail form with the caller's message. */
  static askContact(message: string): string {
    const { contact } = askClient({
      contact: inputRequest.elicit({
        message,
        requestedSchema: form({
          username: { type: 'string', description: "User's response" },
          email: { type: 'string', description: "User's email address" },
        }),
      }),
    });
    return `User response: <${described(contact)}>`;
  }

  /** SEP-1034: a form whose fields of every primitive type have defaults. */
  static askWithDefaults(): string {
    const { details } = askClient({
      details: inputRequest.elicit({
        message: 'Check these details',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', default: 'John Doe' },
            age: { type: 'integer', default: 30 },
            score: { type: 'number', default: 95.5 },
            status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
            verified: { type: 'boolean', default: true },
          },
        },
      }),
    });
    return `Elicitation completed: ${described(details)}`;
  }

  /** SEP-1330: a form with the five kinds of enum (untitled, titled, legacy enumNames; single and multiple choice). */
  static askWithEnums(): string {
    const { choices } = askClient({
      choices: inputRequest.elicit({
        message: 'Pick some options',
        requestedSchema: {
          type: 'object',
          properties: {
            untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
            titledSingle: {
              type: 'string',
              oneOf: [
                { const: 'value1', title: 'First Option' },
                { const: 'value2', title: 'Second Option' },
                { const: 'value3', title: 'Third Option' },
              ],
            },
            legacyEnum: {
              type: 'string',
              enum: ['opt1', 'opt2', 'opt3'],
              enumNames: ['Option One', 'Option Two', 'Option Three'],
            },
            untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
            titledMulti: {
              type: 'array',
              items: {
                anyOf: [
                  { const: 'value1', title: 'First Choice' },
                  { const: 'value2', title: 'Second Choice' },
                  { const: 'value3', title: 'Third Choice' },
                ],
              },
            },
          },
        },
      }),
    });
    return `Elicitation completed: ${described(choices)}`;
  }

  /** Tells open listen streams that `list` changed (the suite's hook for its list-changed checks). */
  static announceChange(list: ChangingList): string {
    announceListChanged(list);
    return `The ${list} list change was announced to open subscriptions/listen streams`;
  }
}
