// RFC 9728 protected-resource metadata at the root: the same document as …/api/mcp, for clients that look here first.
import { declaredScopesOf, resourceMetadataRoute } from 'vovk-mcp-gateway';
import { controllers, segments } from '@/modules';

export const { GET, OPTIONS } = resourceMetadataRoute(declaredScopesOf(controllers, segments));
