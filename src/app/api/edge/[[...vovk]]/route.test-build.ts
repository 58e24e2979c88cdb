// The `edge` REST segment of the test build (/api/edge/…), on the edge runtime: it imports only its own controller.
import { initSegment } from 'vovk';
import EdgeStyleController from '@/testing/vovk-styles/edge-style-controller';

export const runtime = 'edge';

const controllers = { EdgeStyleController };

export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = initSegment({ segmentName: 'edge', controllers });
