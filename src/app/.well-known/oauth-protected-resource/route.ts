// RFC 9728 protected-resource metadata at the root: the same document as …/api/mcp, for clients that look here first.
import { resourceMetadataRoute } from '@/lib/auth/resource-metadata';
import { declaredScopesOf } from '@/lib/mcp/gateway-tools';
import { controllers, segments } from '@/modules';

export const { GET, OPTIONS } = resourceMetadataRoute(declaredScopesOf(controllers, segments));
