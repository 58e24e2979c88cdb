// The MCP conformance suite's fixture tools as ordinary procedures, formatted by our formatter (test build, MCP_CONFORMANCE=1).
import { get, operation, prefix, procedure } from 'vovk';
import ConformanceService, { textResponse } from './conformance-service';

@prefix('conformance')
export default class ConformanceController {
  @operation({ summary: 'Simple text', description: 'Returns a fixed sentence as text/plain.', 'x-tool': { name: 'test_simple_text' } })
  @get('simple-text')
  static simpleText = procedure().handle(() => textResponse('This is a simple text response for testing.'));

  @operation({ summary: 'Image content', description: 'Returns a 1×1 PNG.', 'x-tool': { name: 'test_image_content' } })
  @get('image')
  static imageContent = procedure().handle(
    () => new Response(ConformanceService.png(), { headers: { 'Content-Type': 'image/png' } }),
  );

  @operation({ summary: 'Audio content', description: 'Returns a tiny WAV.', 'x-tool': { name: 'test_audio_content' } })
  @get('audio')
  static audioContent = procedure().handle(
    () => new Response(ConformanceService.wav(), { headers: { 'Content-Type': 'audio/wav' } }),
  );

  @operation({
    summary: 'Embedded resource',
    description: 'Returns an embedded text resource (an mcpOutput override of the content).',
    'x-tool': { name: 'test_embedded_resource' },
  })
  @get('embedded-resource')
  static embeddedResource = procedure().handle((req) => {
    const text = 'This is an embedded resource content.';
    req.vovk.meta({
      mcpOutput: { content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text } }] },
    });
    return textResponse(text);
  });

  @operation({
    summary: 'Multiple content types',
    description: 'Returns text, an image and an embedded resource (an mcpOutput override of the content).',
    'x-tool': { name: 'test_multiple_content_types' },
  })
  @get('multiple-content-types')
  static multipleContentTypes = procedure().handle((req) => {
    const resource = { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: '{"test":"data","value":123}' };
    req.vovk.meta({
      mcpOutput: {
        content: [
          { type: 'text', text: 'Multiple content types test:' },
          { type: 'image', data: ConformanceService.pngBase64, mimeType: 'image/png' },
          { type: 'resource', resource },
        ],
      },
    });
    return { test: 'data', value: 123 };
  });

  @operation({ summary: 'Logging', description: 'Sends three log messages while it runs.', 'x-tool': { name: 'test_tool_with_logging' } })
  @get('logging')
  static withLogging = procedure().handle(async () => {
    await ConformanceService.logThreeSteps();
    return textResponse('Tool with logging executed successfully');
  });

  @operation({ summary: 'Progress', description: 'Reports progress 0/50/100.', 'x-tool': { name: 'test_tool_with_progress' } })
  @get('progress')
  static withProgress = procedure().handle(async () => {
    await ConformanceService.reportProgress();
    return textResponse('Tool with progress executed successfully');
  });

  @operation({
    summary: 'Reconnection',
    description: 'Closes its response stream before it answers: the client reconnects with Last-Event-ID for it.',
    'x-tool': { name: 'test_reconnection' },
  })
  @get('reconnection')
  static reconnection = procedure().handle(async () => {
    await ConformanceService.closeStreamMidCall();
    return textResponse('The answer after the stream was closed');
  });

  @operation({ summary: 'Error', description: 'Always throws an error.', 'x-tool': { name: 'test_error_handling' } })
  @get('error')
  static errorHandling = procedure().handle(() => {
    throw new Error('This tool intentionally returns an error for testing');
  });
}
