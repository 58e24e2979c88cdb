// Next.js's global types (CSS and CSS-module imports, images) for the type-check of a fresh clone, before any build
// has written next-env.d.ts (which references the same; the configuration is plain JavaScript and imports none).
/// <reference types="next" />
/// <reference types="next/image-types/global" />
