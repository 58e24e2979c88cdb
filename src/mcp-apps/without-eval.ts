// Imported first by every app: zod builds fast parsers with `new Function` unless told not to, which the apps' CSP (no
// 'unsafe-eval') refuses with a violation; ext-apps' App turns that off only once constructed, after the SDK's schemas
// were built. So it is turned off before any of them is.
import { config } from 'zod';

config({ jitless: true });
