// The `static` REST segment of the test build (/api/static/…): a second segment, as Vovk's Hello World has one, behind the gateway guards.
import { guardedSegment } from 'vovk-mcp-gateway';
import { gatewaySettings } from '@/lib/settings';
import ArktypeStyleController from '@/testing/vovk-styles/arktype-style-controller';

const controllers = { ArktypeStyleController };

export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = guardedSegment({ segmentName: 'static', controllers }, gatewaySettings);
