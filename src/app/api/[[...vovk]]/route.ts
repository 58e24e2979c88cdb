// REST door: every controller of the registry's root segment under /api, through Vovk's segment router, behind the gateway guards.
import { guardedSegment } from 'vovk-mcp-gateway';
import { gatewaySettings } from '@/lib/settings';
import { controllers } from '@/modules';

export type { Controllers } from '@/modules';

export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = guardedSegment({ controllers }, gatewaySettings);
