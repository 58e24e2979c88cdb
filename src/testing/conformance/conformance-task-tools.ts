// The conformance suite's tasks fixtures (SEP-2663 and 2025-11-25 tasks): standalone tools with the flat arguments it sends.
import { setTimeout as sleep } from 'node:timers/promises';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { HttpException, HttpStatus } from 'vovk';
import { z } from 'zod';
import { askClient, inputRequest, reportProgress, standardTool, workSignal } from 'vovk-mcp-gateway';
import { textResponse } from './conformance-service';

/** Waits `ms`, or throws once the call is cancelled. */
const work = (ms: number) => sleep(ms, undefined, { signal: workSignal() });

const yesOrNo = (message: string) =>
  inputRequest.elicit({
    message,
    requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', title: 'Yes' } }, required: ['confirm'] },
  });

const greet = standardTool({
  name: 'greet',
  description: 'Greets by name at once (not task-capable).',
  inputSchema: z.object({ name: z.string().meta({ description: 'Who to greet' }) }),
  execute: ({ name }) => textResponse(`Hello, ${name}!`),
});

const slowCompute = standardTool({
  name: 'slow_compute',
  description: 'Works for `seconds` seconds (reporting progress each quarter second), then answers; `seconds: 0` answers at once.',
  taskSupport: 'optional',
  answersAtOnce: (args) => args.seconds === 0,
  inputSchema: z.object({
    seconds: z.number().min(0).max(600).meta({ description: 'How long to work' }),
    label: z.string().optional().meta({ description: 'A name for the run' }),
  }),
  execute: async ({ seconds, label }) => {
    const steps = Math.ceil(seconds * 4);
    for (let step = 1; step <= steps; step++) {
      await work(250);
      reportProgress({ done: step, total: steps, message: `${step * 250} ms of ${seconds * 1000} ms` });
    }
    return textResponse(`Computed ${label ?? 'the result'} in ${seconds} s`);
  },
});

const failingJob = standardTool({
  name: 'failing_job',
  description: 'Must run as a task; after about a second it reports a tool error (isError).',
  taskSupport: 'required',
  inputSchema: z.object({}),
  execute: async () => {
    await work(1000);
    throw new HttpException(HttpStatus.UNPROCESSABLE_ENTITY, 'The job failed, as it always does');
  },
});

const protocolErrorJob = standardTool({
  name: 'protocol_error_job',
  description: 'Runs as a task; after about a second it fails with a JSON-RPC internal error (the task fails).',
  taskSupport: 'optional',
  inputSchema: z.object({}),
  execute: async () => {
    await work(1000);
    throw new ProtocolError(ProtocolErrorCode.InternalError, 'The job broke down (a protocol-level failure)');
  },
});

const confirmDelete = standardTool({
  name: 'confirm_delete',
  description: 'Runs as a task: looks the file up, asks the user to confirm (elicitation), then deletes it or keeps it.',
  taskSupport: 'optional',
  inputSchema: z.object({ filename: z.string().optional().meta({ description: 'The file to delete' }) }),
  execute: async ({ filename = 'the file' }) => {
    await work(300);
    const { confirm } = askClient({ confirm: yesOrNo(`Delete ${filename}?`) });
    const yes = confirm.kind === 'elicit' && confirm.action === 'accept' && confirm.content?.confirm !== false;
    return textResponse(yes ? `Deleted ${filename}` : `Kept ${filename}`);
  },
});

const multiInput = standardTool({
  name: 'multi_input',
  description: 'Runs as a task and asks two questions at once (two input requests pending together).',
  taskSupport: 'optional',
  inputSchema: z.object({}),
  execute: async () => {
    await work(300);
    const answers = askClient({ first: yesOrNo('First question?'), second: yesOrNo('Second question?') });
    return textResponse(`Answered: ${Object.keys(answers).join(', ')}`);
  },
});

const toolWithTask = standardTool({
  name: 'test_tool_with_task',
  description: "Must run as a task: first asks the user's name within the call (input_required), then works on as a task.",
  taskSupport: 'required',
  answersAtOnce: (_args, answers) => !Object.hasOwn(answers, 'user_name'),
  inputSchema: z.object({}),
  execute: async () => {
    const form = { type: 'object' as const, properties: { name: { type: 'string' as const } }, required: ['name'] };
    const { user_name } = askClient({ user_name: inputRequest.elicit({ message: 'Your name?', requestedSchema: form }) });
    const name = user_name.kind === 'elicit' ? String(user_name.content?.name ?? 'nobody') : 'nobody';
    await work(500);
    return textResponse(`Hello, ${name}! The task is done.`);
  },
});

/** The tasks fixtures, served with MCP_CONFORMANCE=1. */
export const conformanceTaskTools = [greet, slowCompute, failingJob, protocolErrorJob, confirmDelete, multiInput, toolWithTask];
