// Unit tests of the one function that says at which origin a request reached the gateway, and of the client address.
import { describe, expect, test } from 'vitest';
import { clientAddress } from '@gateway/http/peer-address';
import { knownOriginOf, type OriginSettings, publicOriginOf, requestedHost } from '@gateway/http/public-origin';

const DEFAULT_ORIGIN = 'http://localhost:3000';
const settings = (changes: Partial<OriginSettings> = {}): OriginSettings => ({
  publicOrigin: DEFAULT_ORIGIN,
  publicOriginConfigured: false,
  trustProxy: true,
  allowedHostnames: ['localhost', '127.0.0.1', '[::1]', 'gateway.example.com'],
  ...changes,
});
const proxied = (headers: Record<string, string>) => new Headers({ host: '127.0.0.1:3000', ...headers });
const forwarded = proxied({ 'x-forwarded-host': 'gateway.example.com', 'x-forwarded-proto': 'https' });

describe('public origin', () => {
  test('behind a trusted proxy: X-Forwarded-Proto :// X-Forwarded-Host', () => {
    expect(publicOriginOf(forwarded, settings())).toBe('https://gateway.example.com');
    expect(publicOriginOf(proxied({ 'x-forwarded-host': 'gateway.example.com:8443', 'x-forwarded-proto': 'HTTPS' }), settings())).toBe(
      'https://gateway.example.com:8443',
    );
  });

  test('a chain of proxies: the first entry of each header (the one nearest the client)', () => {
    const chain = proxied({ 'x-forwarded-host': 'gateway.example.com, internal.lan', 'x-forwarded-proto': 'https,http' });
    expect(publicOriginOf(chain, settings())).toBe('https://gateway.example.com');
  });

  test('a default port is dropped, as in any origin', () => {
    expect(publicOriginOf(proxied({ 'x-forwarded-host': 'gateway.example.com:443', 'x-forwarded-proto': 'https' }), settings())).toBe(
      'https://gateway.example.com',
    );
  });

  test('no X-Forwarded-Host: the Host the proxy passed on; no X-Forwarded-Proto: http', () => {
    expect(publicOriginOf(proxied({ host: 'gateway.example.com', 'x-forwarded-proto': 'https' }), settings())).toBe(
      'https://gateway.example.com',
    );
    expect(publicOriginOf(proxied({ 'x-forwarded-host': 'gateway.example.com' }), settings())).toBe('http://gateway.example.com');
    expect(publicOriginOf(proxied({ host: '[::1]:3000' }), settings())).toBe('http://[::1]:3000');
  });

  test('without GATEWAY_TRUST_PROXY every forwarded header is ignored: the default origin', () => {
    expect(publicOriginOf(forwarded, settings({ trustProxy: false }))).toBe(DEFAULT_ORIGIN);
    expect(knownOriginOf(forwarded, settings({ trustProxy: false }))).toBeUndefined();
  });

  test('a configured GATEWAY_PUBLIC_ORIGIN wins over anything forwarded', () => {
    const configured = settings({ publicOrigin: 'https://api.example.org', publicOriginConfigured: true });
    expect(publicOriginOf(forwarded, configured)).toBe('https://api.example.org');
    expect(knownOriginOf(undefined, configured)).toBe('https://api.example.org');
  });

  test.each([
    ['a host with a path', { 'x-forwarded-host': 'gateway.example.com/evil', 'x-forwarded-proto': 'https' }],
    ['a host with credentials', { 'x-forwarded-host': 'user@gateway.example.com' }],
    ['a host with a query', { 'x-forwarded-host': 'gateway.example.com?x=1' }],
    ['a host with spaces', { 'x-forwarded-host': 'gateway example.com' }],
    ['a port out of range', { 'x-forwarded-host': 'gateway.example.com:99999' }],
    ['a broken IPv6 literal', { 'x-forwarded-host': '[::1' }],
    ['a host the gateway does not answer to', { 'x-forwarded-host': 'evil.example.com', 'x-forwarded-proto': 'https' }],
    ['a scheme other than http or https', { 'x-forwarded-host': 'gateway.example.com', 'x-forwarded-proto': 'javascript' }],
    ['a scheme with a colon', { 'x-forwarded-host': 'gateway.example.com', 'x-forwarded-proto': 'https:' }],
    ['an empty host', { 'x-forwarded-host': ' ', host: '' }],
  ])('%s falls back to the default origin (never a broken URL)', (_, headers) => {
    expect(publicOriginOf(proxied(headers), settings())).toBe(DEFAULT_ORIGIN);
    expect(knownOriginOf(proxied(headers), settings())).toBeUndefined();
  });

  test('no request at all (work outside of one): the default origin', () => {
    expect(publicOriginOf(undefined, settings())).toBe(DEFAULT_ORIGIN);
  });

  test('the host the rebinding check judges: X-Forwarded-Host only when trusted', () => {
    expect(requestedHost(forwarded, true)).toBe('gateway.example.com');
    expect(requestedHost(forwarded, false)).toBe('127.0.0.1:3000');
    expect(requestedHost(new Headers(), true)).toBeUndefined();
  });
});

describe('client address (the rate limiter\'s key)', () => {
  const request = (headers: Record<string, string>) => new Request('http://localhost/', { headers: { 'x-gateway-peer-address': '10.0.0.9', ...headers } });

  test('behind a trusted proxy: the first X-Forwarded-For address; else the connection\'s peer', () => {
    expect(clientAddress(request({ 'x-forwarded-for': '203.0.113.7, 10.0.0.2' }), true)).toBe('203.0.113.7');
    expect(clientAddress(request({ 'x-forwarded-for': '2001:db8::1' }), true)).toBe('2001:db8::1');
    expect(clientAddress(request({ 'x-forwarded-for': '203.0.113.7' }), false)).toBe('10.0.0.9');
  });

  test('an X-Forwarded-For that is no IP address is not a key: the connection\'s peer', () => {
    expect(clientAddress(request({ 'x-forwarded-for': 'anything-goes' }), true)).toBe('10.0.0.9');
    expect(clientAddress(request({ 'x-forwarded-for': '' }), true)).toBe('10.0.0.9');
  });
});
