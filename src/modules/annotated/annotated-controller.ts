// A procedure that annotates its MCP output with req.vovk.meta({ mcpOutput }); its REST response is unchanged.
import { get, operation, prefix, procedure } from 'vovk';
import MediaService from '@/modules/media/media-service';

@prefix('annotated')
export default class AnnotatedController {
  @operation({
    summary: 'Get annotated image',
    description: 'Returns a JPEG image meant for the user (MCP annotations: audience user, priority 0.8).',
  })
  @get('annotated-image')
  static getAnnotatedImage = procedure().handle(async (req) => {
    req.vovk.meta({
      mcpOutput: { annotations: { audience: ['user'], priority: 0.8 } },
    });
    return new Response(await MediaService.readAsset('jpeg'), {
      headers: { 'Content-Type': 'image/jpeg' },
    });
  });
}
