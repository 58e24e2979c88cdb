// REST door: every controller of the registry under /api, through Vovk's segment router.
import { initSegment } from 'vovk';
import { controllers } from '@/modules';

export type { Controllers } from '@/modules';

export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = initSegment({ controllers });
