// RFC 9728 protected-resource metadata, which the 401 challenge of GATEWAY_TOKEN auth points clients to.
import { metadataCorsOptionsRequestHandler, protectedResourceHandler } from 'mcp-handler';

// A static bearer token is issued out of band: no authorization server to advertise.
export const GET = protectedResourceHandler({ authServerUrls: [] });
export const OPTIONS = metadataCorsOptionsRequestHandler();
