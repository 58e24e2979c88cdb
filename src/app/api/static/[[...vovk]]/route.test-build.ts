// The `static` REST segment of the test build (/api/static/…): a second segment, as Vovk's Hello World has one.
import { initSegment } from 'vovk';
import ArktypeStyleController from '@/testing/vovk-styles/arktype-style-controller';

const controllers = { ArktypeStyleController };

export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = initSegment({ segmentName: 'static', controllers });
